import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONCURRENT_UPLOADS, uploadsInProgress } from '@/server/http/upload-slots';
import { clearUploadedSnapshot } from '@/server/services/uploaded-source';
import { podListYaml } from '@/server/sources/__fixtures__/pod-list-yaml';
import { appRoutes, appWrites, repoRoot } from './app-routes';

// Walks every route handler under app/ (as request-gate-routes.test.ts does) and checks that each
// one that reads a body reads it through the capped reader: none touches request.text/json/… itself,
// a declared Content-Length over the limit is refused before a byte is read, and a chunked body with
// no length is cut off just past the limit (413), never buffered whole. The upload routes also run a
// few at a time: one more is refused with 429 and Retry-After, and are parsed off the event loop:
// other requests keep being answered while one is.

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

describe('uploads are parsed off the event loop', () => {
  it('answers /api/healthz and /api/v1/report promptly while a snapshot that takes seconds to parse is uploaded', async () => {
    const upload = await handler(join(repoRoot, 'app/api/v1/sources/upload/route.ts'), 'POST');
    const health = await handler(join(repoRoot, 'app/api/healthz/route.ts'), 'GET');
    const report = await handler(join(repoRoot, 'app/api/v1/report/route.ts'), 'GET');
    const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { host: HOST, 'accept-encoding': 'gzip' } });
    expect((await report(get('/api/v1/report'), context)).status).toBe(200); // the demo's analysis, made before the upload

    // ~3.7 MB: seconds of parsing even on a quiet machine (the other tests here keep the 1 MiB limit).
    const yaml = new TextEncoder().encode(podListYaml(15_000));
    process.env.DRA_POSTURE_MAX_UPLOAD_BYTES = String(8 * 1024 * 1024);
    const small: { path: string; ms: number; status: number }[] = [];
    let uploading = true;
    const t0 = performance.now();
    const post = new Request(`${ORIGIN}/api/v1/sources/upload?name=large.yaml`, {
      method: 'POST',
      body: yaml,
      headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/yaml' },
    });
    const uploaded = upload(post, context).finally(() => (uploading = false));
    // A small request every 100 ms (a report every third) for as long as the upload runs.
    const asked: Promise<void>[] = [];
    for (let i = 0; uploading; i++) {
      const path = i % 3 === 2 ? '/api/v1/report' : '/api/healthz';
      const started = performance.now();
      asked.push(
        // healthz answers synchronously.
        Promise.resolve((path === '/api/healthz' ? health : report)(get(path), context)).then(async (res) => {
          await res.arrayBuffer();
          small.push({ path, ms: performance.now() - started, status: res.status });
        }),
      );
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await uploaded;
    const took = performance.now() - t0;
    await Promise.all(asked);
    try {
      expect(res.status).toBe(200);
      expect(((await res.json()) as { objects: number }).objects).toBe(15_000);
    } finally {
      clearUploadedSnapshot();
      process.env.DRA_POSTURE_MAX_UPLOAD_BYTES = String(LIMIT);
    }
    expect(took, 'the upload parsed too fast for this test to tell where it ran').toBeGreaterThan(1500);
    expect(small.filter((s) => s.status !== 200 || s.ms >= 1000)).toEqual([]);
    expect(small.length).toBeGreaterThanOrEqual(10);
  }, 240_000);
});
