import 'server-only';
import type { ClusterStateBuilder, RawItemOrigin } from '@/lib/k8s/build-cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';
import { ITEMS_CLOSE, ITEMS_COUNT, ITEMS_DONE, ITEMS_OPEN, ITEMS_SCANNING, ITEMS_STATUS, type ByteScanResult } from './scan-json-bytes';
import { scanJsonBytesInWorker } from './scan-json-in-worker';

/** Items parsed together: small enough that what they parse to dies young (cheap to collect). */
const BATCH_ITEMS = 1000;
/** Room for this many items' offsets (8 bytes each); a bigger list is read the ordinary way. */
const MAX_ITEMS = 1_000_000;

/**
 * A large snapshot that is one `kind: List` object, read item by item: the worker's safety scan
 * publishes each item's byte range as it goes (scanJsonBytes with ItemBoundaries), and this thread
 * parses the items it has been given, a batch at a time, straight into the builder. Neither the
 * whole file as one string nor its parsed objects ever exist at once (on the 229 MiB bench file
 * that is ~600 MiB less at the peak), and the parsed items die young.
 *
 * The result is what parsing the whole file and building from it gives: every part of the file is
 * parsed by JSON.parse (the items in batches, the rest as the list's head and tail), the scan checks
 * the separators between batches, and the same builder reads the same items in the same order.
 * Anything else (another shape, an item that names no kind or apiVersion, a forbidden key name,
 * text JSON.parse refuses, an invalid object) returns false before anything is kept, and the caller
 * reads the file the ordinary way (with a new builder: this one holds part of the items), which
 * reports it exactly as before. A failed safety scan throws its error, as the ordinary way would.
 */
export async function streamJsonList(
  bytes: Uint8Array,
  origin: RawItemOrigin,
  builder: ClusterStateBuilder,
  limits: { maxDepth: number; maxStringLength: number },
  scanError: (result: Extract<ByteScanResult, { error: string }>) => SnapshotError,
): Promise<boolean> {
  if (!(bytes.buffer instanceof SharedArrayBuffer) || bytes.length >= 2 ** 31) return false;
  const offsets = new Int32Array(new SharedArrayBuffer(8 * MAX_ITEMS));
  const control = new Int32Array(new SharedArrayBuffer(16));
  let stopWorker = () => {};
  const scan = scanJsonBytesInWorker(bytes, limits.maxDepth, limits.maxStringLength, { offsets, control }, (stop) => (stopWorker = stop));
  // A worker that cannot start or dies: the reader stops waiting, and the file is read the ordinary way.
  scan.catch(() => {
    Atomics.store(control, ITEMS_STATUS, -1);
    Atomics.notify(control, ITEMS_COUNT);
  });

  const decoder = new TextDecoder('utf-8', { fatal: true });
  const read = async (): Promise<boolean> => {
    let consumed = 0;
    for (;;) {
      const available = Atomics.load(control, ITEMS_COUNT);
      if (consumed < available) {
        const end = Math.min(available, consumed + BATCH_ITEMS);
        // The items with the commas between them, in brackets: one JSON array.
        const values = JSON.parse(`[${decoder.decode(bytes.subarray(offsets[2 * consumed], offsets[2 * end - 1]))}]`) as unknown[];
        if (values.length !== end - consumed) return false;
        for (let i = 0; i < values.length; i++) {
          const v = values[i] as { kind?: unknown; apiVersion?: unknown } | null;
          // The list's own kind (read last) would stand in for a missing one: not known yet.
          if (v === null || typeof v !== 'object' || v.kind === undefined || v.kind === null || v.kind === '') return false;
          if (v.apiVersion === undefined || v.apiVersion === null || v.apiVersion === '') return false;
          builder.addListItem(v, origin, consumed + i);
        }
        consumed = end;
        continue;
      }
      const status = Atomics.load(control, ITEMS_STATUS);
      if (status === ITEMS_SCANNING) {
        // Waits without blocking, so a worker that dies is noticed (its rejection sets the status).
        const wait = (
          Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, t: number): { async: boolean; value: Promise<string> | string } }
        ).waitAsync(control, ITEMS_COUNT, available, 50);
        if (wait.async) await wait.value;
        continue;
      }
      if (status !== ITEMS_DONE || consumed !== Atomics.load(control, ITEMS_COUNT)) return false;
      break;
    }
    // The list around the items, with the items left out, must be a List.
    const head = decoder.decode(bytes.subarray(0, control[ITEMS_OPEN] + 1));
    const tail = decoder.decode(bytes.subarray(control[ITEMS_CLOSE]));
    const list = JSON.parse(head + tail) as { kind?: unknown; items?: unknown } | null;
    if (typeof list !== 'object' || list === null || typeof list.kind !== 'string' || !Array.isArray(list.items) || list.items.length !== 0) return false;
    return list.kind === 'List' || list.kind.endsWith('List');
  };

  let complete: boolean;
  try {
    // Text JSON.parse refuses and invalid objects (SnapshotError) alike: the ordinary way reports them.
    complete = await read();
  } catch {
    complete = false;
  }
  if (!complete) {
    stopWorker();
    return false;
  }
  let result: ByteScanResult;
  try {
    result = await scan;
  } catch {
    return false;
  }
  if ('error' in result) throw scanError(result);
  // A key that could reach Object.prototype: the ordinary way walks every parsed value for it.
  return !result.suspicious;
}
