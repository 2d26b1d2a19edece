import 'server-only';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { KeyFileError } from '@/server/compliance/signing';
import { buildReportWithContext } from '@/lib/report/build-report';
import { reportWithAudit } from '@/server/audit/audit-flag';
import { PdfError, pdfEntry } from '@/server/compliance/html-to-pdf';
import { makeBundle, writeBundleFile } from '@/server/compliance/write-bundle';
import { loadClusterFromFlags, SOURCE_OPTIONS } from '../load-cluster';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { UsageError } from '../usage-error';
import type { CommandIO } from '../command-io';

const OPTIONS = {
  ...SOURCE_OPTIONS,
  out: { type: 'string' },
  key: { type: 'string' },
  pdf: { type: 'boolean' },
  ...CLUSTER_CONFIG_OPTIONS,
  audit: { type: 'string' },
} as const;

/**
 * `dra-posture export --out FILE [--key PRIVATE.pem] [--pdf] (--snapshot PATH | --demo | --kubeconfig F)`:
 * writes a compliance bundle (a tar file: report, objects, metadata, CSV, Markdown, HTML, optional
 * PDF, manifest of sha256 digests, optional ed25519 signature). Exit 0, 2 on usage or key errors.
 */
export async function runExport(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  if (!values.out) throw new UsageError('--out FILE is required (where to write the bundle)');
  const { overrides } = clusterConfigFlags(values);
  const state = await loadClusterFromFlags(values);
  let bundle;
  try {
    const createdAt = new Date().toISOString();
    const { report } = await reportWithAudit(buildReportWithContext(state, overrides ? { clusterConfig: overrides } : {}), values.audit);
    const extraEntries = values.pdf ? [await pdfEntry(report, createdAt)] : [];
    bundle = await makeBundle(state, { keyPath: values.key, report, createdAt, extraEntries });
  } catch (e) {
    if (e instanceof KeyFileError) throw new UsageError(`--key: ${e.message}`);
    if (e instanceof PdfError) throw new UsageError(`--pdf: ${e.message}`);
    throw e;
  }
  const out = resolve(values.out);
  const { size, manifest, fingerprint } = await writeBundleFile(bundle, out);
  const s = bundle.report.summary;
  io.out(
    `wrote ${values.out} (${size} bytes): ${bundle.report.findings.length} findings ` +
      `(${s.critical} critical, ${s.high} high, ${s.medium} medium, ${s.low} low, ${s.info} info), ` +
      `${manifest.entries.length} entries, ${manifest.signer ? 'signed' : 'unsigned'}; manifest sha256 ${fingerprint}`,
  );
  return 0;
}
