import 'server-only';

// Snapshot files and folders (and uploads) → ClusterState. Sizes are checked with stat before any
// byte is read; folders are walked without following symlinks (a snapshot folder must not be able to
// point the server at /etc), and files are read in a stable, sorted order so a folder always loads
// the same way.

import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename } from 'node:path';

import { buildClusterState, ClusterStateBuilder, type OnInvalid, type RawItem } from '@/lib/k8s/build-cluster-state';
import type { ClusterState, SourceInfo } from '@/lib/k8s/cluster-state';

import { loadBundleState } from '@/server/sources/bundle-source';
import { looksLikeBundle } from '@/server/compliance/read-bundle';
import { byteScanError, MAX_DEPTH, MAX_STRING_LENGTH, parseDocuments, parseDocumentsAsync, startsLikeJson } from './parse-documents';
import { streamJsonList } from './stream-json-list';
import { WORKER_SCAN_MIN_BYTES } from './scan-json-in-worker';
import {
  DEFAULT_MAX_SNAPSHOT_BYTES,
  MAX_SNAPSHOT_BYTES_ENV,
  MAX_SNAPSHOT_FILES,
  listSnapshotFiles,
  resolveMaxBytes,
  tooLargeError,
  type SnapshotFile,
} from './snapshot-files';

export { DEFAULT_MAX_SNAPSHOT_BYTES, MAX_SNAPSHOT_BYTES_ENV, MAX_SNAPSHOT_FILES, listSnapshotFiles, resolveMaxBytes, tooLargeError, type SnapshotFile };

export interface LoadSnapshotOptions {
  /** Total bytes over all files; default 256 MiB or $DRA_POSTURE_MAX_SNAPSHOT_BYTES. */
  maxBytes?: number;
  onInvalid?: OnInvalid;
  /** Source name shown in the UI; default the file or folder name (a ClusterInfo document may set it too). */
  name?: string;
  /** Read only these kinds (one question's needs); a compliance bundle is read whole. */
  kinds?: ReadonlySet<string>;
  /** A single JSON file at least this large is read item by item (streamJsonList); tests lower it. */
  streamMinBytes?: number;
}

/** Reads at most `limit` bytes; a file that grew past its stat size since the listing is refused. */
async function readCapped(file: SnapshotFile, limit: number, followSymlink: boolean, shareFrom = WORKER_SCAN_MIN_BYTES): Promise<Uint8Array> {
  const flags = followSymlink ? constants.O_RDONLY : constants.O_RDONLY | constants.O_NOFOLLOW;
  const handle = await open(file.path, flags);
  try {
    const size = (await handle.stat()).size;
    if (size > limit) throw tooLargeError(size, limit, `snapshot file ${file.name}`);
    // Large files go to shared memory so the safety scan can read them from a worker without a copy.
    const buffer = size >= shareFrom ? new Uint8Array(new SharedArrayBuffer(size + 1)) : new Uint8Array(size + 1);
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read > size) throw tooLargeError(read, limit, `snapshot file ${file.name} (it grew while being read)`);
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** The first bytes of a file: enough to tell JSON from YAML past any leading whitespace. */
async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Reads and parses every file of a snapshot path into RawItems (no normalisation yet). */
export async function readSnapshotItems(root: string, options: { maxBytes?: number } = {}): Promise<{ items: RawItem[]; warnings: string[] }> {
  const maxBytes = resolveMaxBytes(options.maxBytes);
  const listing = await listSnapshotFiles(root, maxBytes);
  return { items: await readListedItems(root, listing.files, maxBytes), warnings: listing.warnings };
}

async function readListedItems(root: string, files: SnapshotFile[], maxBytes: number): Promise<RawItem[]> {
  const single = files.length === 1 && files[0].path === root;
  const items: RawItem[] = [];
  let remaining = maxBytes;
  for (const file of files) {
    const bytes = await readCapped(file, remaining, single);
    remaining -= bytes.length;
    const parsed = await parseDocumentsAsync(bytes, file.name);
    for (const item of parsed) items.push(item);
  }
  return items;
}

function finish(state: ClusterState, warnings: string[], name: string | undefined): ClusterState {
  if (warnings.length > 0) state.warnings.unshift(...warnings);
  if (name !== undefined) state.source.name = name;
  return state;
}

/** The whole file when `path` is a compliance bundle (a tar archive), else undefined. */
async function readBundleFile(path: string, maxBytes: number): Promise<Uint8Array | undefined> {
  let info;
  try {
    info = await stat(path);
  } catch {
    return undefined; // listSnapshotFiles reports it
  }
  if (!info.isFile() || info.size < 512) return undefined;
  const handle = await open(path, constants.O_RDONLY);
  try {
    const head = new Uint8Array(512);
    await handle.read(head, 0, 512, 0);
    if (!looksLikeBundle(head)) return undefined;
  } finally {
    await handle.close();
  }
  return readCapped({ name: basename(path), path, size: info.size }, maxBytes, true);
}

export async function loadSnapshot(path: string, options: LoadSnapshotOptions = {}): Promise<ClusterState> {
  const maxBytes = resolveMaxBytes(options.maxBytes);
  const bundle = await readBundleFile(path, maxBytes);
  if (bundle) return finish(loadBundleState(bundle, basename(path)), [], options.name);
  const source: SourceInfo = { kind: 'snapshot', name: basename(path.replace(/[\\/]+$/, '')) || path };
  const buildOptions = { onInvalid: options.onInvalid, kinds: options.kinds };
  const { files, warnings } = await listSnapshotFiles(path, maxBytes);
  if (files.length === 1 && files[0].path === path) {
    // One file (the large case): a big JSON list is read item by item, never whole.
    const file = files[0];
    const streamFrom = options.streamMinBytes ?? WORKER_SCAN_MIN_BYTES;
    if (file.size >= streamFrom && file.size <= maxBytes && startsLikeJson(await readHead(file.path))) {
      const builder = new ClusterStateBuilder(source, buildOptions);
      const limits = { maxDepth: MAX_DEPTH, maxStringLength: MAX_STRING_LENGTH };
      if (await streamJsonList(file, { file: file.name, document: 0 }, builder, limits, (r) => byteScanError(r, file.name))) {
        return finish(builder.finish(), warnings, options.name);
      }
    }
    const bytes = await readCapped(file, maxBytes, true);
    return finish(buildClusterState(await parseDocumentsAsync(bytes, file.name), source, buildOptions), warnings, options.name);
  }
  return finish(buildClusterState(await readListedItems(path, files, maxBytes), source, buildOptions), warnings, options.name);
}

/** An uploaded file: same parsing and limits as a file on disk. */
export function loadSnapshotFromText(text: string | Uint8Array, fileName: string, options: LoadSnapshotOptions = {}): ClusterState {
  const maxBytes = resolveMaxBytes(options.maxBytes);
  const size = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.byteLength;
  if (size > maxBytes) throw tooLargeError(size, maxBytes, `snapshot ${fileName}`);
  if (typeof text !== 'string' && looksLikeBundle(text)) return finish(loadBundleState(text, fileName), [], options.name);
  const items = parseDocuments(text, fileName);
  const state = buildClusterState(items, { kind: 'snapshot', name: fileName }, { onInvalid: options.onInvalid });
  return finish(state, [], options.name);
}
