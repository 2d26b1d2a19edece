import 'server-only';
import { Worker } from 'node:worker_threads';
import type { ClusterStateBuilder, RawItemOrigin } from '@/lib/k8s/build-cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';
import { ITEMS_DONE, scanJsonBytes, type ByteScanResult } from './scan-json-bytes';

/**
 * Text parsed together: at most this many bytes of items (one item may be more). Below V8's
 * large-object size (128 KiB), each batch's string is made in the young generation on both
 * threads; as a large object (1,000 items were ~550 KiB) each string was a fresh mapping, faulted
 * in page by page, ~0.5 ms a batch on this thread, and ~25-30 MiB more peak RSS on the bench
 * clusters. What a batch parses to still dies young.
 */
const BATCH_BYTES = 96 * 1024;
/** Room for this many items' offsets (8 bytes each); a bigger list is read the ordinary way. */
const MAX_ITEMS = 1_000_000;
/** The worker reads the file this much at a time, as its scan needs the bytes. */
const READ_CHUNK = 4 * 1024 * 1024;
/** Batches the worker may send ahead of the reader (~2 MiB of text): what waits should stay small. */
const IN_FLIGHT = 20;

type WorkerMessage =
  | { type: 'items'; /** The batch's items as a JSON array. */ text: string; from: number; to: number }
  | { type: 'end'; status: number; result: ByteScanResult; head?: string; tail?: string }
  | { type: 'other' };

// The worker reads the file itself, so that the file's bytes never live on this thread: held here
// they were 229 MiB on the bench cluster that only a full collection frees, and none came before
// the analysis peaked. It runs the safety scan, decodes each batch of items as the scan finds them
// and sends the text. `flow[0]` counts the batches the reader has taken: the worker waits while
// IN_FLIGHT are untaken, and stops when `flow[1]` is set. `__name` is what esbuild's keepNames
// (tsx) may wrap inner functions with.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { openSync, readSync, closeSync } = require('node:fs');
const __name = (f) => f;
const scanJsonBytes = ${scanJsonBytes.toString()};
(function main() {
  const { path, size, maxDepth, maxStringLength, batchBytes, maxItems, inFlight, readChunk } = workerData;
  const flow = new Int32Array(workerData.flow);
  // Read as the scan goes, so that it starts at once (reading all of a large file first kept the
  // reader waiting). A file that is not its listed size is read the ordinary way.
  const fd = openSync(path, 'r');
  const bytes = new Uint8Array(size);
  let read = 0;
  const more = () => {
    const end = Math.min(size, read + readChunk);
    while (read < end) {
      const n = readSync(fd, bytes, read, end - read, read);
      if (n === 0) throw new Error('the file shrank');
      read += n;
    }
    return read;
  };
  const offsets = new Int32Array(2 * maxItems);
  const control = new Int32Array(4);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let sent = 0;
  let batches = 0;
  let bracketed = new Uint8Array(0);
  // The end of the batch from \`sent\`: as many items as fit batchBytes (at least one), or
  // undefined while the items scanned so far could still grow it.
  const batchEnd = (available, final) => {
    const from = offsets[2 * sent];
    let end = sent + 1;
    while (end < available && offsets[2 * end + 1] - from <= batchBytes) end++;
    return end < available || final ? end : undefined;
  };
  const flush = (available, final) => {
    while (sent < available) {
      const end = batchEnd(available, final);
      if (end === undefined) return;
      for (;;) {
        if (Atomics.load(flow, 1) !== 0) throw new Error('stopped');
        const taken = Atomics.load(flow, 0);
        if (batches - taken < inFlight) break;
        Atomics.wait(flow, 0, taken, 100);
      }
      // The items with the commas between them, decoded in brackets: the reader gets one flat
      // string that JSON.parse reads as it is. (Put in brackets there, JSON.parse first copied
      // each batch into a flat string: ~0.3 s of the reader's time on the bench cluster. Joined to
      // brackets here, the copy is made in this heap: ~40 MiB more peak RSS.)
      const from = offsets[2 * sent];
      const length = offsets[2 * end - 1] - from;
      if (bracketed.length < length + 2) bracketed = new Uint8Array(2 * length + 2);
      bracketed[0] = 0x5b; // [
      bracketed.set(bytes.subarray(from, from + length), 1);
      bracketed[length + 1] = 0x5d; // ]
      const text = decoder.decode(bracketed.subarray(0, length + 2));
      parentPort.postMessage({ type: 'items', text, from: sent, to: end });
      sent = end;
      batches++;
    }
  };
  let result;
  try {
    result = scanJsonBytes(bytes, maxDepth, maxStringLength, { offsets, control }, (count) => flush(count, false), more);
    if (read === size && readSync(fd, new Uint8Array(1), 0, 1, size) !== 0) throw new Error('the file grew');
  } catch (error) {
    if (error.message === 'stopped') throw error;
    return parentPort.postMessage({ type: 'other' });
  } finally {
    closeSync(fd);
  }
  const status = control[1];
  if (status !== ${ITEMS_DONE}) return parentPort.postMessage({ type: 'end', status, result });
  flush(control[0], true);
  // The list around the items, with the items left out.
  const head = decoder.decode(bytes.subarray(0, control[2] + 1));
  const tail = decoder.decode(bytes.subarray(control[3]));
  parentPort.postMessage({ type: 'end', status, result, head, tail });
})();
`;

/**
 * A large snapshot that is one `kind: List` object, read item by item: a worker reads the file,
 * runs the safety scan (scanJsonBytes with ItemBoundaries) and sends each batch of items as text as
 * the scan finds them, and this thread parses the batches straight into the builder. Neither the
 * whole file (as bytes or as one string) nor its parsed objects ever exist on this thread, and the
 * parsed items die young.
 *
 * The result is what parsing the whole file and building from it gives: every part of the file is
 * parsed by JSON.parse (the items in batches, the rest as the list's head and tail), the scan checks
 * the separators between batches, and the same builder reads the same items in the same order.
 * Anything else (another shape, a file that changed size, text that is not UTF-8, an item that names
 * no kind or apiVersion, a forbidden key name, text JSON.parse refuses, an invalid object, a worker
 * that cannot start or dies) returns false before anything is kept, and the caller reads the file
 * the ordinary way (with a new builder: this one holds part of the items), which reports it exactly
 * as before. A failed safety scan of a plain list throws its error, as the ordinary way would.
 */
export async function streamJsonList(
  file: { path: string; size: number },
  origin: RawItemOrigin,
  builder: ClusterStateBuilder,
  limits: { maxDepth: number; maxStringLength: number },
  scanError: (result: Extract<ByteScanResult, { error: string }>) => SnapshotError,
): Promise<boolean> {
  if (file.size >= 2 ** 31) return false;
  const flow = new Int32Array(new SharedArrayBuffer(8));
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path: file.path,
        size: file.size,
        maxDepth: limits.maxDepth,
        maxStringLength: limits.maxStringLength,
        batchBytes: BATCH_BYTES,
        maxItems: MAX_ITEMS,
        inFlight: IN_FLIGHT,
        readChunk: READ_CHUNK,
        flow: flow.buffer,
      },
    });
  } catch {
    return false;
  }
  const queue: WorkerMessage[] = [];
  let gone = false;
  let wake: (() => void) | undefined;
  worker.on('message', (m: WorkerMessage) => {
    queue.push(m);
    wake?.();
  });
  // A worker that fails or exits: what it sent is still read, then the file is read the ordinary way.
  const done = () => {
    gone = true;
    wake?.();
  };
  worker.once('error', done);
  worker.once('exit', done);
  const next = async (): Promise<WorkerMessage | undefined> => {
    while (queue.length === 0) {
      if (gone) return undefined;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    return queue.shift();
  };

  const read = async (): Promise<Extract<WorkerMessage, { type: 'end' }> | undefined> => {
    for (;;) {
      const m = await next();
      if (m === undefined || m.type === 'other') return undefined;
      if (m.type === 'end') return m.status === ITEMS_DONE ? m : undefined;
      const values = JSON.parse(m.text) as unknown[];
      if (values.length !== m.to - m.from) return undefined;
      for (let i = 0; i < values.length; i++) {
        const v = values[i] as { kind?: unknown; apiVersion?: unknown } | null;
        // The list's own kind (read last) would stand in for a missing one: not known yet.
        if (v === null || typeof v !== 'object' || v.kind === undefined || v.kind === null || v.kind === '') return undefined;
        if (v.apiVersion === undefined || v.apiVersion === null || v.apiVersion === '') return undefined;
        builder.addListItem(v, origin, m.from + i);
      }
      Atomics.add(flow, 0, 1);
      Atomics.notify(flow, 0);
    }
  };

  let end: Extract<WorkerMessage, { type: 'end' }> | undefined;
  try {
    // Text JSON.parse refuses and invalid objects (SnapshotError) alike: the ordinary way reports them.
    end = await read();
    if (end) {
      // The list around the items, with the items left out, must be a List.
      const list = JSON.parse(end.head! + end.tail!) as { kind?: unknown; items?: unknown } | null;
      const plain = typeof list === 'object' && list !== null && typeof list.kind === 'string' && Array.isArray(list.items) && list.items.length === 0;
      if (!plain || !(list.kind === 'List' || (list.kind as string).endsWith('List'))) end = undefined;
    }
  } catch {
    end = undefined;
  } finally {
    Atomics.store(flow, 1, 1);
    Atomics.notify(flow, 0);
    void worker.terminate();
  }
  if (!end) return false;
  if ('error' in end.result) throw scanError(end.result);
  // A key that could reach Object.prototype: the ordinary way walks every parsed value for it.
  return !end.result.suspicious;
}
