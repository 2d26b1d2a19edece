import 'server-only';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { buildBundle, type BuiltBundle } from '@/lib/compliance/build-bundle';
import { mergeSettings, type AnalysisSettings } from '@/lib/analysis/settings';
import { DEFAULT_CHAIN } from '@/lib/authz/authorize';
import type { AuthorizerName } from '@/lib/authz/types';
import type { ClusterConfigOverrides } from '@/lib/authz/cluster-config';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { tarPieces, type TarEntryInput } from '@/lib/compliance/tar';
import { buildReport } from '@/lib/report/build-report';
import type { Report } from '@/lib/analysis/types';
import { nodeSha256 } from './node-sha256';
import { loadSigningKey } from './signing';
import { TOOL_VERSION } from './tool-version';

export interface MakeBundleOptions {
  /** PEM ed25519 private key file. */
  keyPath?: string;
  createdAt?: string;
  settings?: Partial<AnalysisSettings>;
  chain?: readonly AuthorizerName[];
  /** What the user states about the API server (CLI flags). */
  clusterConfig?: ClusterConfigOverrides;
  /** The report already computed from this state with these settings (the server's cached one). */
  report?: Report;
  /** Entries added after the fixed ones (report.pdf from pdfEntry), listed in the manifest. */
  extraEntries?: TarEntryInput[];
}

export async function makeBundle(state: ClusterState, options: MakeBundleOptions = {}): Promise<BuiltBundle & { report: Report }> {
  const signing = options.keyPath ? await loadSigningKey(options.keyPath) : undefined;
  const settings = mergeSettings(options.settings);
  const report =
    options.report ??
    buildReport(state, {
      settings: options.settings,
      ...(options.chain ? { chain: options.chain } : {}),
      ...(options.clusterConfig ? { clusterConfig: options.clusterConfig } : {}),
    });
  // The chain the report applied: the stated one, else the cluster's own (its API server flags).
  const authorizers = report.clusterConfig?.authorizers.chain ?? options.chain ?? DEFAULT_CHAIN;
  const createdAt = options.createdAt ?? new Date().toISOString();
  const built = buildBundle({ state, report, settings, authorizers, createdAt, toolVersion: TOOL_VERSION }, nodeSha256, {
    signing,
    extraEntries: options.extraEntries,
  });
  return { ...built, report };
}

export function bundleToBytes(bundle: BuiltBundle): Uint8Array {
  const pieces = [...tarPieces(bundle.entries, bundle.mtime)];
  return Buffer.concat(pieces);
}

async function writeAll(handle: FileHandle, pieces: Uint8Array[], total: number): Promise<void> {
  const { bytesWritten } = await handle.writev(pieces);
  // A short vectored write is allowed by POSIX: the rest goes out as one buffer.
  if (bytesWritten < total) await handle.write(Buffer.concat(pieces).subarray(bytesWritten));
}

/** Writes the bundle next to `out` and renames it into place: no half-written bundle is left behind. */
export async function writeBundleFile(bundle: BuiltBundle, out: string): Promise<number> {
  const tmp = `${out}.${process.pid}.partial`;
  const handle = await open(tmp, 'w', 0o644);
  let size = 0;
  try {
    // Many small pieces: gathered into ~4 MiB vectored writes (no copy into one buffer).
    let batch: Uint8Array[] = [];
    let batchSize = 0;
    for (const piece of tarPieces(bundle.entries, bundle.mtime)) {
      batch.push(piece);
      batchSize += piece.byteLength;
      if (batchSize >= 4 << 20) {
        await writeAll(handle, batch, batchSize);
        size += batchSize;
        batch = [];
        batchSize = 0;
      }
    }
    if (batch.length > 0) await writeAll(handle, batch, batchSize);
    size += batchSize;
    await handle.close();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, out);
  return size;
}
