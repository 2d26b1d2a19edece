import 'server-only';
import type { Worker } from 'node:worker_threads';

// The one way this server waits on a worker thread (the snapshot safety scan, upload parsing): the
// promise settles on the worker's final message, or rejects when the worker errors or exits without
// one; the worker is stopped once it has answered. Messages that are not final (progress, "ready")
// go to `answer`, which returns undefined for them. `start` makes the worker: a constructor that
// throws rejects too, and the bundler sees the `new Worker(new URL(...))` at the caller.

export type WorkerOutcome<T> = { value: T } | { error: Error } | undefined;

export function workerAnswer<T>(start: () => Worker, answer: (message: unknown) => WorkerOutcome<T>, started?: (worker: Worker) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = start();
    started?.(worker);
    worker.on('message', (message: unknown) => {
      const outcome = answer(message);
      if (outcome === undefined) return;
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.value);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker exited (${code}) without an answer`)));
  });
}
