import 'server-only';
import { Worker } from 'node:worker_threads';
import { scanJsonBytes, type ByteScanResult, type ItemBoundaries } from './scan-json-bytes';
import { workerAnswer } from './worker-answer';

// Below this size a worker's start-up costs more than the scan it would take off the main thread.
export const WORKER_SCAN_MIN_BYTES = 16 * 1024 * 1024;

// `__name` is what esbuild's keepNames (tsx) may wrap inner functions with.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const __name = (f) => f;
const scanJsonBytes = ${scanJsonBytes.toString()};
const bytes = new Uint8Array(workerData.buffer, workerData.offset, workerData.length);
const items = workerData.items && { offsets: new Int32Array(workerData.items.offsets), control: new Int32Array(workerData.items.control) };
parentPort.postMessage(scanJsonBytes(bytes, workerData.maxDepth, workerData.maxStringLength, items));
`;

/**
 * Scans bytes backed by a SharedArrayBuffer in a worker thread (no copy), or inline when they are
 * small, not shared, or a worker cannot start. The caller must not change the bytes meanwhile.
 */
export function scanJsonBytesAsync(bytes: Uint8Array, maxDepth: number, maxStringLength: number, minBytes = WORKER_SCAN_MIN_BYTES): Promise<ByteScanResult> {
  if (bytes.length < minBytes || !(bytes.buffer instanceof SharedArrayBuffer)) {
    return Promise.resolve(scanJsonBytes(bytes, maxDepth, maxStringLength));
  }
  return scanJsonBytesInWorker(bytes, maxDepth, maxStringLength).catch(() => scanJsonBytes(bytes, maxDepth, maxStringLength));
}

/**
 * The worker itself; rejects when it cannot start or dies without an answer. With `items` (both
 * arrays on SharedArrayBuffers) it publishes the item boundaries as it goes; `started` receives a
 * function that stops the worker.
 */
export function scanJsonBytesInWorker(
  bytes: Uint8Array,
  maxDepth: number,
  maxStringLength: number,
  items?: ItemBoundaries,
  started?: (stop: () => void) => void,
): Promise<ByteScanResult> {
  const start = () =>
    new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        buffer: bytes.buffer,
        offset: bytes.byteOffset,
        length: bytes.length,
        maxDepth,
        maxStringLength,
        items: items && { offsets: items.offsets.buffer, control: items.control.buffer },
      },
    });
  // Its one message is the result.
  return workerAnswer(start, (result) => ({ value: result as ByteScanResult }), started && ((worker) => started(() => void worker.terminate())));
}
