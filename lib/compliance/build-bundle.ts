import type { AnalysisSettings } from '@/lib/analysis/settings';
import type { AuthorizerName } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { renderReportHtmlChunks } from '@/lib/report/render-html';
import { renderReportMarkdown } from '@/lib/report/render-markdown';
import { reportJsonChunks } from '@/lib/report/report-json';
import type { Report } from '@/lib/analysis/types';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  ENTRY,
  ZERO_DIGEST,
  renderManifest,
  renderSums,
  type BundleMetadata,
  type BundleSigner,
  type Manifest,
} from './bundle-format';
import { findingsCsvChunks } from './findings-csv';
import { objectCounts, objectsJsonChunks } from './objects-json';
import { sha256Hex, type Sha256 } from './sha256';
import type { TarEntryInput } from './tar';

export interface BundleInput {
  state: ClusterState;
  /** The report computed from `state` with `settings` and `authorizers`. */
  report: Report;
  settings: AnalysisSettings;
  authorizers: readonly AuthorizerName[];
  createdAt: string;
  toolVersion: string;
}

export interface BundleSigning {
  signer: Omit<BundleSigner, 'algorithm'>;
  sign(message: Uint8Array): Uint8Array;
}

export interface BuiltBundle {
  entries: TarEntryInput[];
  manifest: Manifest;
  /** sha256 of manifest.json: names this bundle. */
  fingerprint: string;
  mtime: number;
}

const encoder = new TextEncoder();
const encodeAll = (pieces: Iterable<string>) => Array.from(pieces, (p) => encoder.encode(p));

/** Tar header time: the bundle's creation time in whole seconds. */
export function bundleMtime(createdAt: string): number {
  const t = Date.parse(createdAt);
  return Number.isFinite(t) ? Math.floor(t / 1000) : 0;
}

export function bundleMetadata(input: BundleInput): BundleMetadata {
  return {
    source: { ...input.state.source },
    kubernetesVersion: input.state.source.kubernetesVersion ?? null,
    collectedAt: input.state.source.collectedAt ?? null,
    createdAt: input.createdAt,
    tool: { name: 'dra-posture', version: input.toolVersion },
    settings: input.settings,
    authorizers: [...input.authorizers],
    objectCounts: objectCounts(input.state),
    sourceWarnings: [...input.state.warnings],
  };
}

/** Every entry of the bundle (extra ones, such as report.pdf, after the fixed ones), the manifest over them, SHA256SUMS, and the signature when signing. */
export function buildBundle(
  input: BundleInput,
  sha256: Sha256,
  options: { signing?: BundleSigning; extraEntries?: readonly TarEntryInput[] } = {},
): BuiltBundle {
  const { signing } = options;
  const content: TarEntryInput[] = [
    { name: ENTRY.metadata, chunks: encodeAll([`${JSON.stringify(bundleMetadata(input), null, 2)}\n`]) },
    { name: ENTRY.report, chunks: encodeAll(appendNewline(reportJsonChunks(input.report))) },
    { name: ENTRY.objects, chunks: encodeAll(objectsJsonChunks(input.state)) },
    { name: ENTRY.findingsCsv, chunks: encodeAll(findingsCsvChunks(input.report)) },
    { name: ENTRY.markdown, chunks: encodeAll([renderReportMarkdown(input.report)]) },
    { name: ENTRY.html, chunks: encodeAll(renderReportHtmlChunks(input.report, { generatedAt: input.createdAt, toolVersion: input.toolVersion })) },
    ...(options.extraEntries ?? []),
  ];
  const entries = content.map((e) => ({ name: e.name, size: e.chunks.reduce((n, c) => n + c.byteLength, 0), sha256: sha256Hex(sha256, e.chunks) }));
  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    createdAt: input.createdAt,
    tool: { name: 'dra-posture', version: input.toolVersion },
    algorithm: 'sha256',
    entries,
    ...(signing ? { signer: { algorithm: 'ed25519' as const, ...signing.signer } } : {}),
    selfSha256: ZERO_DIGEST,
  };
  manifest.selfSha256 = sha256Hex(sha256, [encoder.encode(renderManifest(manifest))]);
  const manifestBytes = encoder.encode(renderManifest(manifest));
  const fingerprint = sha256Hex(sha256, [manifestBytes]);
  const all: TarEntryInput[] = [
    ...content,
    { name: ENTRY.manifest, chunks: [manifestBytes] },
    { name: ENTRY.sums, chunks: [encoder.encode(renderSums([...entries, { name: ENTRY.manifest, sha256: fingerprint }]))] },
  ];
  if (signing) all.push({ name: ENTRY.signature, chunks: [signing.sign(manifestBytes)] });
  return { entries: all, manifest, fingerprint, mtime: bundleMtime(input.createdAt) };
}

function* appendNewline(pieces: Iterable<string>): Generator<string> {
  // Pieces joined by newlines and one at the end, as `dra-posture report -o json` prints them.
  let first = true;
  for (const p of pieces) {
    yield first ? p : `\n${p}`;
    first = false;
  }
  yield '\n';
}
