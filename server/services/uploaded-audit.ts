import 'server-only';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { createActivityAggregator, type AuditAggregate } from '@/lib/audit/aggregate-activity';
import { readAuditChunks } from '@/server/audit/read-audit-log';
import { ApiError } from '@/server/http/api-errors';

// An uploaded audit log, read while it streams in (never held: only the aggregate is kept), joins
// the report of whatever source is current until it is cleared. On globalThis, as the uploaded
// snapshot: Next bundles route handlers and pages separately.
const KEY = Symbol.for('dra-posture.uploaded-audit');
const store = globalThis as unknown as Record<symbol, { aggregate: AuditAggregate; name: string; seq: number } | undefined>;
let seq = 0;

export const DEFAULT_MAX_AUDIT_UPLOAD_BYTES = 1024 * 1024 * 1024;
/** A gzip upload may expand at most this much: a small bomb must not keep the server busy for hours. */
const MAX_EXPANSION = 32;

export function maxAuditUploadBytes(): number {
  const v = Number(process.env.DRA_POSTURE_MAX_AUDIT_UPLOAD_BYTES);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_MAX_AUDIT_UPLOAD_BYTES;
}

async function* capped(chunks: AsyncIterable<Uint8Array>, limit: number, what: string, over: (message: string) => void): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const c of chunks) {
    total += c.byteLength;
    if (total > limit) {
      over(`${what}: more than ${limit} bytes`);
      return;
    }
    yield c;
  }
}

/** Reads an upload (JSON lines, EventList, or gzip of either) into an aggregate; errors name the problem. */
export async function readAuditUpload(name: string, body: ReadableStream<Uint8Array>, limit = maxAuditUploadBytes()): Promise<AuditAggregate> {
  let problem: string | undefined;
  const stop = (m: string) => (problem = m);
  const it = capped(body as unknown as AsyncIterable<Uint8Array>, limit, 'audit log too large', stop)[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) throw new ApiError(problem ? 'too_large' : 'bad_request', problem ?? 'the uploaded audit log is empty');
  const compressed = first.value[0] === 0x1f && first.value[1] === 0x8b;
  async function* all(): AsyncGenerator<Uint8Array> {
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  const agg = createActivityAggregator();
  agg.startFile(name, compressed);
  const text = compressed ? capped(Readable.from(all()).pipe(createGunzip()), limit * MAX_EXPANSION, 'audit log expands too much', stop) : all();
  await readAuditChunks(name, text, agg);
  if (problem) throw new ApiError('too_large', problem);
  const aggregate = agg.finish();
  if (aggregate.activity.events === 0)
    throw new ApiError(
      'bad_request',
      `no audit event in ${name} (${aggregate.activity.malformed.count} malformed line(s)${aggregate.activity.malformed.samples[0] ? `, first at line ${aggregate.activity.malformed.samples[0].line}: ${aggregate.activity.malformed.samples[0].error}` : ''})`,
    );
  return aggregate;
}

export function useUploadedAudit(aggregate: AuditAggregate, name: string): void {
  store[KEY] = { aggregate, name, seq: ++seq };
}

export function getUploadedAudit(): { aggregate: AuditAggregate; name: string; seq: number } | undefined {
  return store[KEY];
}

export function clearUploadedAudit(): void {
  store[KEY] = undefined;
}
