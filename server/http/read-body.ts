import 'server-only';
import { ApiError } from './api-errors';

// The one way a route reads a request body: a declared Content-Length over the limit is refused
// before any byte is read, and a chunked body is counted as it streams in and cancelled the moment
// it passes the limit (Route Handlers get no body-size limit from Next.js). `what` names the body
// in the 413 message ("snapshot", "request body").

/**
 * A body that sends nothing for this long is dropped (408): a client trickling bytes would otherwise
 * hold one of the few upload slots for as long as it likes.
 */
export function bodyIdleTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const ms = Number(env.DRA_POSTURE_BODY_IDLE_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : 30_000;
}

/** The body's chunks as they arrive; throws a 413 before yielding past `limit` bytes. */
export async function* cappedBodyChunks(request: Request, limit: number, what = 'request body'): AsyncGenerator<Uint8Array> {
  assertDeclaredLength(request, limit, what);
  if (!request.body) return;
  const reader = request.body.getReader();
  const idleMs = bodyIdleTimeoutMs();
  let total = 0;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ApiError('request_timeout', `${what} stalled: no bytes for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}`)),
          idleMs,
        );
      });
      const { done, value } = await Promise.race([
        reader.read().catch((error: unknown) => {
          // The client went away or the connection broke: a clear 400, not a 500 or half an upload.
          throw new ApiError('bad_request', `${what} could not be read: the upload stopped (${error instanceof Error ? error.message : String(error)})`);
        }),
        idle,
      ]).finally(() => clearTimeout(timer));
      if (done) return;
      total += value.byteLength;
      if (total > limit) throw new ApiError('too_large', `${what} too large: more than ${limit} bytes`);
      yield value;
    }
  } finally {
    // Stops the client's upload (or releases the lock) whether we finished, failed or were abandoned.
    await reader.cancel().catch(() => undefined);
  }
}

/** The whole body, at most `limit` bytes, in one array. */
export async function readBodyBytes(request: Request, limit: number, what = 'request body'): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of cappedBodyChunks(request, limit, what)) {
    chunks.push(chunk);
    total += chunk.byteLength;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function assertDeclaredLength(request: Request, limit: number, what: string): void {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('too_large', `${what} too large: ${declared} bytes, the limit is ${limit}`);
}
