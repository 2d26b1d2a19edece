import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_UPLOADS, uploadsInProgress } from '@/server/http/upload-slots';
import { appRoutes, appWrites, repoRoot } from './app-routes';

// Walks every route handler under app/ (as request-gate-routes.test.ts does) and checks that each
// one that reads a body reads it through the capped reader: none touches request.text/json/… itself,
// a declared Content-Length over the limit is refused before a byte is read, and a chunked body with
// no length is cut off just past the limit (413), never buffered whole. The upload routes also run a
// few at a time: one more is refused with 429 and Retry-After.

const HOST = '127.0.0.1:3999';
const ORIGIN = `http://${HOST}`;
const LIMIT = 1024 * 1024;
const SLACK = 64 * 1024;
const CHUNK = 16 * 1024;
const env = { ...process.env };

beforeAll(() => {
  process.env.DRA_POSTURE_SOURCE = 'demo';
  process.env.DRA_POSTURE_MAX_UPLOAD_BYTES = String(LIMIT);
  process.env.DRA_POSTURE_MAX_AUDIT_UPLOAD_BYTES = String(LIMIT);
});
afterAll(() => {
  process.env = env;
});

const routes = appRoutes;
const writes = appWrites;

/** A body of `total` bytes made as it is read, counting what the handler pulled. */
function endlessBody(total: number) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (seen.pulled >= total) return c.close();
        seen.pulled += CHUNK;
        c.enqueue(new Uint8Array(CHUNK).fill(0x20));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

function request(path: string, method: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}?name=x.json`, {
    method,
    body,
    duplex: 'half',
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', ...headers },
  } as RequestInit);
}

type Handler = (request: Request, context: unknown) => Promise<Response>;
async function handler(file: string, method: string): Promise<Handler> {
  const mod = (await import(file)) as Record<string, Handler>;
  return mod[method];
}
const context = { params: Promise.resolve({ rest: ['a', 'b'], id: 'x', part: 'x', name: 'x' }) };

describe('every route reads its body through the capped reader', () => {
  it('finds the write routes (guards against an empty walk)', () => {
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/v1/simulate',
        'POST /api/v1/sources/upload',
        'POST /api/v1/sources/audit',
        'POST /api/v1/snapshots',
        'POST /api/v1/sources/select',
      ]),
    );
  });

  it('no route handler reads the request body by itself', () => {
    const direct = routes.filter((r) => /\b(?:req|request)\s*\.\s*(?:text|json|arrayBuffer|formData|blob|body)\b/.test(r.source)).map((r) => r.name);
    expect(direct).toEqual([]);
  });

  it('refuses a declared Content-Length over the limit with 413 before reading', async () => {
    const answers: string[] = [];
    for (const w of writes) {
      const { stream, seen } = endlessBody(200 * 1024 * 1024);
      const res = await (await handler(w.file, w.method))(request(w.path, w.method, stream, { 'content-length': String(200 * 1024 * 1024) }), context);
      if (seen.pulled > 0 || res.status === 413) {
        const body = ((await res.json().catch(() => ({}))) as { error?: { code: string; message: string } }) ?? {};
        body.error ??= { code: `none`, message: `` };
        answers.push(
          `${w.method} ${w.path} ${res.status} ${body.error.code} pulled=${seen.pulled} ${/too large: 209715200 bytes, the limit is \d+$/.test(body.error.message)}`,
        );
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(7);
    expect(answers.filter((a) => !/ 413 too_large pulled=0 true$/.test(a))).toEqual([]);
  });

  it('cuts a chunked body off just past the limit with 413, for every route that reads one', async () => {
    const answers: string[] = [];
    for (const w of writes) {
      const { stream, seen } = endlessBody(200 * 1024 * 1024);
      const res = await (await handler(w.file, w.method))(request(w.path, w.method, stream), context);
      if (seen.pulled === 0) continue; // a handler that never reads its body (DELETE, reset)
      const body = ((await res.json().catch(() => ({}))) as { error?: { code: string; message: string } }) ?? {};
      body.error ??= { code: `none`, message: `` };
      answers.push(
        `${w.method} ${w.path} ${res.status} ${body.error.code} ${seen.pulled <= LIMIT + SLACK ? 'bounded' : `read ${seen.pulled}`} ${/too large: more than \d+ bytes$/.test(body.error.message)}`,
      );
    }
    expect(answers.length).toBeGreaterThanOrEqual(7);
    expect(answers.filter((a) => !/ 413 too_large bounded true$/.test(a))).toEqual([]);
  });
});

describe('uploads run a few at a time', () => {
  it(`refuses upload ${MAX_CONCURRENT_UPLOADS + 1} with 429 and Retry-After while ${MAX_CONCURRENT_UPLOADS} are being read, and takes the next once one ends`, async () => {
    const upload = await handler(join(repoRoot, 'app/api/v1/sources/upload/route.ts'), 'POST');
    const audit = await handler(join(repoRoot, 'app/api/v1/sources/audit/route.ts'), 'POST');
    // Bodies that stay open until released: the uploads in flight.
    const open = Array.from({ length: MAX_CONCURRENT_UPLOADS }, () => {
      let release!: () => void;
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"kind":"List","items":[]}'));
          release = () => c.close();
        },
      });
      return { stream, release: () => release() };
    });
    const pending = open.map((o, i) =>
      (i % 2 === 0 ? upload : audit)(request(i % 2 === 0 ? '/api/v1/sources/upload' : '/api/v1/sources/audit', 'POST', o.stream), context),
    );
    // Until every one of them holds its slot (a fixed pause was too short on a busy machine).
    for (let waited = 0; uploadsInProgress() < MAX_CONCURRENT_UPLOADS && waited < 10_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(uploadsInProgress()).toBe(MAX_CONCURRENT_UPLOADS);

    const refused = await upload(request('/api/v1/sources/upload', 'POST', endlessBody(10).stream), context);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /uploads are already being read; send the snapshot again in \d+ s/,
    );

    for (const o of open) o.release();
    const done = await Promise.all(pending);
    expect(done.map((r) => r.status)).not.toContain(429);
    const next = await audit(request('/api/v1/sources/audit', 'POST', endlessBody(10).stream), context);
    expect(next.status).not.toBe(429);
  });
});
