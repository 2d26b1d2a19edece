import type { AnalysisSettings } from '@/lib/analysis/settings';
import type { AuthorizerName } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { renderReportHtmlChunks } from '@/lib/report/render-html';
import { renderReportMarkdownChunks } from '@/lib/report/render-markdown';
import { reportJsonTextChunks } from '@/lib/report/report-json';
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
  type ManifestEntry,
} from './bundle-format';
import { findingsCsvChunks } from './findings-csv';
import { objectCounts, objectsJsonChunks } from './objects-json';
import { sha256Hex, type Sha256 } from './sha256';
import { entrySize, tarEnd, tarEntryPieces, type TarEntryInput } from './tar';

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

/** What names a bundle, known once its last content entry is out. */
export interface BundleSeal {
  manifest: Manifest;
  /** sha256 of manifest.json: names this bundle. */
  fingerprint: string;
}

/** An entry rendered only when the archive reaches it. */
interface LazyEntry {
  name: string;
  chunks(): Iterable<Uint8Array>;
}

const encoder = new TextEncoder();
function* encodeAll(pieces: Iterable<string>): Generator<Uint8Array> {
  for (const p of pieces) yield encoder.encode(p);
}

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

function contentEntries(input: BundleInput, extraEntries: readonly TarEntryInput[]): LazyEntry[] {
  const generatedAt = input.createdAt;
  return [
    { name: ENTRY.metadata, chunks: () => encodeAll([`${JSON.stringify(bundleMetadata(input), null, 2)}\n`]) },
    { name: ENTRY.report, chunks: () => encodeAll(reportJsonTextChunks(input.report)) },
    { name: ENTRY.objects, chunks: () => encodeAll(objectsJsonChunks(input.state)) },
    { name: ENTRY.findingsCsv, chunks: () => encodeAll(findingsCsvChunks(input.report)) },
    { name: ENTRY.markdown, chunks: () => encodeAll(renderReportMarkdownChunks(input.report)) },
    { name: ENTRY.html, chunks: () => encodeAll(renderReportHtmlChunks(input.report, { generatedAt, toolVersion: input.toolVersion })) },
    ...extraEntries.map((e) => ({ name: e.name, chunks: () => e.chunks })),
  ];
}

/** What bundlePieces yields, with `pauses`, between the chunks of an entry: nothing to write. */
const PAUSE = new Uint8Array(0);

/**
 * The bundle as tar pieces to write in order: every content entry (extra ones, such as report.pdf,
 * after the fixed ones), the manifest over them, SHA256SUMS, and the signature when signing. Each
 * entry is rendered, measured and digested when the archive reaches it (its size goes in its header,
 * before its bytes), so one entry is in memory at a time, not the bundle; the manifest follows the
 * content, so it is written from the digests gathered on the way. Returns the manifest and the
 * fingerprint once the last piece is out.
 */
export function* bundlePieces(
  input: BundleInput,
  sha256: Sha256,
  options: { signing?: BundleSigning; extraEntries?: readonly TarEntryInput[]; pauses?: boolean } = {},
): Generator<Uint8Array, BundleSeal, undefined> {
  const { signing } = options;
  const mtime = bundleMtime(input.createdAt);
  const entries: ManifestEntry[] = [];
  for (const lazy of contentEntries(input, options.extraEntries ?? [])) {
    const chunks: Uint8Array[] = [];
    // Digested as rendered: hashing a 350 MiB entry at once would be a second-long stall.
    const hash = sha256();
    for (const chunk of lazy.chunks()) {
      chunks.push(chunk);
      hash.update(chunk);
      // An empty piece between chunks lets an async consumer give the event loop a turn: a large
      // cluster's findings.csv (350 MiB) renders for seconds before its first byte can be written.
      if (options.pauses) yield PAUSE;
    }
    const entry: TarEntryInput = { name: lazy.name, chunks };
    entries.push({ name: entry.name, size: entrySize(entry), sha256: hash.digestHex() });
    yield* tarEntryPieces(entry, mtime);
  }
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
  yield* tarEntryPieces({ name: ENTRY.manifest, chunks: [manifestBytes] }, mtime);
  const sums = renderSums([...entries, { name: ENTRY.manifest, sha256: fingerprint }]);
  yield* tarEntryPieces({ name: ENTRY.sums, chunks: [encoder.encode(sums)] }, mtime);
  if (signing) yield* tarEntryPieces({ name: ENTRY.signature, chunks: [signing.sign(manifestBytes)] }, mtime);
  yield tarEnd();
  return { manifest, fingerprint };
}
