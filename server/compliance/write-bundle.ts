import 'server-only';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { bundlePieces, type BundleSeal } from '@/lib/compliance/build-bundle';
import { mergeSettings, type AnalysisSettings } from '@/lib/analysis/settings';
import { DEFAULT_CHAIN } from '@/lib/authz/authorize';
import type { AuthorizerName } from '@/lib/authz/types';
import type { ClusterConfigOverrides } from '@/lib/authz/cluster-config';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { TarEntryInput } from '@/lib/compliance/tar';
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

/** A bundle ready to be written: its pieces are rendered as they are read, one entry at a time. */
export interface PreparedBundle {
  report: Report;
  /**
   * The archive's pieces in order; the generator returns the manifest and fingerprint after the last.
   * Each call renders the same bytes anew. `pauses`: empty pieces between an entry's chunks (bundlePieces).
   */
  pieces(options?: { pauses?: boolean }): Generator<Uint8Array, BundleSeal, undefined>;
}

export async function makeBundle(state: ClusterState, options: MakeBundleOptions = {}): Promise<PreparedBundle> {
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
  const input = { state, report, settings, authorizers, createdAt, toolVersion: TOOL_VERSION };
  return { report, pieces: (o) => bundlePieces(input, nodeSha256, { signing, extraEntries: options.extraEntries, pauses: o?.pauses }) };
}

/**
 * Reads a generator's pieces to the end in batches of about `batchBytes` (many small pieces become
 * a few large writes) and returns what the generator returns.
 */
async function forEachBatch<R>(
  pieces: Generator<Uint8Array, R, undefined>,
  batchBytes: number,
  write: (batch: Uint8Array[], size: number) => Promise<void> | void,
): Promise<R> {
  let batch: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = pieces.next();
    if (!next.done) {
      batch.push(next.value);
      size += next.value.byteLength;
    }
    if (next.done || size >= batchBytes) {
      if (batch.length > 0) await write(batch, size);
      batch = [];
      size = 0;
    }
    if (next.done) return next.value;
  }
}

/** The whole archive in memory (tests; the snapshot store keeps a bundle as its pieces come, saveSnapshotPieces). */
export function bundleToBytes(bundle: PreparedBundle): BundleSeal & { bytes: Uint8Array } {
  const pieces: Uint8Array[] = [];
  const it = bundle.pieces();
  for (let next = it.next(); ; next = it.next()) {
    if (next.done) return { ...next.value, bytes: Buffer.concat(pieces) };
    pieces.push(next.value);
  }
}

async function writeAll(handle: FileHandle, pieces: Uint8Array[], total: number): Promise<void> {
  const { bytesWritten } = await handle.writev(pieces);
  // A short vectored write is allowed by POSIX: the rest goes out as one buffer.
  if (bytesWritten < total) await handle.write(Buffer.concat(pieces).subarray(bytesWritten));
}

/**
 * Writes the bundle next to `out`, entry by entry as it is rendered, and renames it into place: no
 * half-written bundle is left behind. Returns its size, manifest and fingerprint.
 */
export async function writeBundleFile(bundle: PreparedBundle, out: string): Promise<BundleSeal & { size: number }> {
  const tmp = `${out}.${process.pid}.partial`;
  const handle = await open(tmp, 'w', 0o644);
  let size = 0;
  let seal: BundleSeal;
  try {
    // Many small pieces: gathered into ~4 MiB vectored writes (no copy into one buffer).
    seal = await forEachBatch(bundle.pieces(), 4 << 20, async (batch, batchSize) => {
      await writeAll(handle, batch, batchSize);
      size += batchSize;
    });
    await handle.close();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, out);
  return { ...seal, size };
}
