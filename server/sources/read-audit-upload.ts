import 'server-only';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createActivityAggregator, type AuditAggregate } from '@/lib/audit/aggregate-activity';
import { readAuditChunks } from '@/server/audit/read-audit-log';
import { ApiError, isApiError } from '@/server/http/api-errors';
import { limitExpansion } from '@/server/http/limit-expansion';

// An uploaded audit log read into an aggregate as it streams in (never held whole), within its
// limits: the upload route's parse worker (upload-worker.ts) reads it here.

export const DEFAULT_MAX_AUDIT_UPLOAD_BYTES = 1024 * 1024 * 1024;
/**
 * A gzip upload may expand at most this much per compressed byte received (JSON audit logs gzip
 * about 10–30:1; zeros about 1000:1), and at most MAX_EXPANDED_BYTES in all.
 */
export const MAX_EXPANSION_RATIO = 100;
export const MAX_EXPANDED_BYTES = 8 * 1024 * 1024 * 1024;

export function maxAuditUploadBytes(): number {
  const v = Number(process.env.DRA_POSTURE_MAX_AUDIT_UPLOAD_BYTES);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_MAX_AUDIT_UPLOAD_BYTES;
}

/**
 * Ends `chunks` quietly at a refusal (an ApiError: over the byte limit, a compression bomb), handing
 * it to `stop`: a pipe into gunzip would not pass the error on, and the splitter downstream would
 * take it for a truncated file. Other errors (a truncated gzip member) go on to the splitter.
 */
async function* endOnRefusal(chunks: AsyncIterable<Uint8Array>, stop: (error: ApiError) => void, count?: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  try {
    for await (const c of chunks) {
      count?.(c.byteLength);
      yield c;
    }
  } catch (error) {
    if (!isApiError(error)) throw error;
    stop(error);
  }
}

/**
 * Reads an upload (JSON lines, EventList, or gzip of either; `body` already capped in bytes, see
 * cappedBodyChunks) into an aggregate; errors name the problem.
 */
export async function readAuditUpload(name: string, body: AsyncIterable<Uint8Array>): Promise<AuditAggregate> {
  let problem: ApiError | undefined;
  const stop = (error: ApiError) => (problem ??= error);
  let received = 0;
  const it = endOnRefusal(body, stop, (n) => (received += n))[Symbol.asyncIterator]();
  const first = await it.next();
  if (problem) throw problem;
  if (first.done) throw new ApiError('bad_request', 'the uploaded audit log is empty');
  const compressed = first.value[0] === 0x1f && first.value[1] === 0x8b;
  async function* all(): AsyncGenerator<Uint8Array> {
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  const agg = createActivityAggregator();
  agg.startFile(name, compressed);
  const text = compressed
    ? endOnRefusal(
        limitExpansion(Readable.from(all()).pipe(createGunzip()), () => received, {
          ratio: MAX_EXPANSION_RATIO,
          maxBytes: MAX_EXPANDED_BYTES,
          what: `audit log ${name}`,
        }),
        stop,
      )
    : all();
  await readAuditChunks(name, text, agg);
  if (problem) throw problem;
  const aggregate = agg.finish();
  if (aggregate.activity.events === 0)
    throw new ApiError(
      'bad_request',
      `no audit event in ${name} (${aggregate.activity.malformed.count} malformed line(s)${aggregate.activity.malformed.samples[0] ? `, first at line ${aggregate.activity.malformed.samples[0].line}: ${aggregate.activity.malformed.samples[0].error}` : ''})`,
    );
  return aggregate;
}
