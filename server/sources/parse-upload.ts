import 'server-only';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { AuditAggregate } from '@/lib/audit/aggregate-activity';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { readAuditUpload } from './read-audit-upload';
import type { UploadJob, UploadReply } from './upload-messages';
import { loadSnapshotFromText } from './snapshot-source';
import { fromWireError } from './upload-wire-error';
import { workerAnswer } from './worker-answer';
import { ApiError } from '@/server/http/api-errors';

// Uploads are parsed in a worker thread (upload-worker.ts), one per upload (the routes allow three
// at a time, see upload-slots.ts): a 64 MiB snapshot or a large audit log takes seconds of CPU,
// which on the event loop would stall every other request meanwhile. The worker runs the same
// functions as a parse here would, so limits and messages are unchanged; its answer comes back as a
// structured clone. Should the worker fail to start (a build that lost its file), the upload is
// parsed here as before, with a warning: slower for everyone else, but not broken.

/** Audit bytes sent to the worker and not yet taken by its parser: the request is read no further ahead. */
export const MAX_AUDIT_BYTES_AHEAD = 4 * 1024 * 1024;

/**
 * The parse worker's heap (MiB): a snapshot's parsed objects take several times its bytes (16× leaves
 * room to spare for the 64 MiB default limit); an audit log is reduced to a bounded aggregate as it
 * streams. Past it the worker stops and the upload is refused with a clear message, not the server.
 */
export function parserHeapMiB(job: 'snapshot' | 'audit', maxBytes = 0): number {
  return job === 'audit' ? 1024 : Math.max(1024, Math.ceil((16 * maxBytes) / 1024 / 1024));
}

// In the built server (and `next dev`) Next bundles the worker named below (a path from the project
// root) into JavaScript of its own, and sets NEXT_RUNTIME. Written as `new URL(..., import.meta.url)`
// it would also be copied as a public static file. From source (vitest, tsx) the worker is TypeScript
// that imports `server-only`: Node 20 does not pass `--import tsx` on to a worker, so a small script
// loads it through tsx's API instead. (import.meta.url does not tell: Next gives it the source path.)
const FROM_SOURCE = process.env.NEXT_RUNTIME === undefined;

function startFromSource(resourceLimits: ResourceLimits): Worker {
  const entry = import.meta.url.replace(/[^/]+\.ts$/, 'upload-worker.ts');
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=react-server'], name: 'dra-posture upload parser', resourceLimits });
}

let warned = false;

interface UploadWorker {
  /** True once the worker's code has loaded; false when it could not start (then parse here). */
  ready: Promise<boolean>;
  /** The parsed value, or the parse's error as the main thread would have thrown it. */
  answer: Promise<unknown>;
  send(job: UploadJob, transfer?: ArrayBuffer[]): void;
  /** Waits until the worker has taken all but MAX_AUDIT_BYTES_AHEAD of what was sent; throws its error. */
  caughtUp(): Promise<void>;
  stop(): void;
}

function startUploadWorker(name: string, heapMiB: number): UploadWorker {
  const resourceLimits: ResourceLimits = { maxOldGenerationSizeMb: heapMiB };
  let worker: Worker | undefined;
  let markReady!: (ok: boolean) => void;
  const ready = new Promise<boolean>((resolve) => (markReady = resolve));
  let loaded = false;
  let settled = false;
  let ahead = 0;
  let onAck: (() => void) | undefined;
  const answer = workerAnswer<unknown>(
    () =>
      FROM_SOURCE ? startFromSource(resourceLimits) : new Worker('./server/sources/upload-worker.ts', { name: 'dra-posture upload parser', resourceLimits }),
    (raw) => {
      const message = raw as UploadReply;
      if ('ready' in message) {
        loaded = true;
        markReady(true);
        return undefined;
      }
      if ('ack' in message) {
        ahead -= message.ack;
        onAck?.();
        return undefined;
      }
      if ('error' in message) return { error: fromWireError(message.error) };
      return { value: message.value };
    },
    (w) => (worker = w),
  );
  answer.then(
    () => (settled = true),
    (error: unknown) => {
      settled = true;
      if (loaded) return; // the parse's own error: the caller reports it
      markReady(false);
      if (!warned)
        console.warn(`[upload] the parse worker could not start, parsing on the main thread: ${error instanceof Error ? error.message : String(error)}`);
      warned = true;
    },
  );
  const told = answer.catch((error: unknown) => {
    throw loaded ? parserFailure(error, name, heapMiB) : error;
  });
  told.catch(() => {}); // awaited later by the caller: no unhandled rejection meanwhile
  return {
    ready,
    answer: told,
    send(job, transfer) {
      if ('chunk' in job) ahead += job.chunk.byteLength;
      worker?.postMessage(job, transfer);
    },
    async caughtUp() {
      while (ahead > MAX_AUDIT_BYTES_AHEAD && !settled) {
        const acked = new Promise<void>((resolve) => (onAck = resolve));
        await Promise.race([acked, told]);
      }
    },
    stop() {
      void worker?.terminate();
    },
  };
}

/**
 * The parse's own errors (ApiError, SnapshotError) pass as they are; the worker running out of its
 * heap, or dying, becomes a refusal that says so (never "internal error" with nothing to act on).
 */
function parserFailure(error: unknown, name: string, heapMiB: number): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new ApiError(
      'too_large',
      `parsing ${name} needed more than the upload parser's ${heapMiB} MiB of memory: upload a smaller file, or read it with --snapshot`,
    );
  if (error instanceof Error && /^worker exited/.test(error.message))
    return new ApiError('internal', `the upload parser stopped while reading ${name} (${error.message})`);
  return error;
}

/** An uploaded snapshot file's bytes → ClusterState (parsed in the worker; `bytes` is handed over). */
export async function parseSnapshotUpload(
  bytes: Uint8Array,
  fileName: string,
  maxBytes: number,
  heapMiB = parserHeapMiB('snapshot', maxBytes),
): Promise<ClusterState> {
  const parser = startUploadWorker(fileName, heapMiB);
  if (!(await parser.ready)) return loadSnapshotFromText(bytes, fileName, { maxBytes, name: fileName });
  // Moved, not copied, when the bytes are the whole of their own buffer (readBodyBytes makes them so).
  const whole = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  parser.send({ job: 'snapshot', bytes, name: fileName, maxBytes }, whole ? [bytes.buffer as ArrayBuffer] : []);
  return (await parser.answer) as ClusterState;
}

/**
 * An audit log upload (`body` already capped, see cappedBodyChunks) → its aggregate, parsed in the
 * worker while the body streams in. A refused body (413, 408, a broken upload) stops the worker.
 */
export async function parseAuditUpload(name: string, body: AsyncIterable<Uint8Array>): Promise<AuditAggregate> {
  const parser = startUploadWorker(name, parserHeapMiB('audit'));
  if (!(await parser.ready)) return readAuditUpload(name, body);
  parser.send({ job: 'audit', name });
  try {
    for await (const chunk of body) {
      // Copied: a request chunk may be a view of a buffer Node pools for other data.
      parser.send({ chunk });
      await parser.caughtUp();
    }
  } catch (error) {
    parser.stop();
    throw error;
  }
  parser.send({ end: true });
  return (await parser.answer) as AuditAggregate;
}
