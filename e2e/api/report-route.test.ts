import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// GET /api/v1/report called in-process on the demo: the JSON of `report -o json`, serialized once per
// analysis and reused (ETag, 304, gzip), never per request.

const serialized = vi.hoisted(() => ({ count: 0 }));
vi.mock('@/lib/report/report-json', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/lib/report/report-json')>();
  return {
    ...real,
    reportJsonTextChunks: (...args: Parameters<typeof real.reportJsonTextChunks>) => {
      serialized.count++;
      return real.reportJsonTextChunks(...args);
    },
  };
});

const env = { ...process.env };
beforeAll(() => {
  process.env.DRA_POSTURE_SOURCE = 'demo';
  delete process.env.DRA_POSTURE_SNAPSHOT;
});
afterAll(() => {
  process.env = env;
});

const get = (headers: Record<string, string> = {}) => new Request('http://127.0.0.1:3999/api/v1/report', { headers: { host: '127.0.0.1:3999', ...headers } });

describe('GET /api/v1/report', () => {
  it('serializes the report once, however many requests ask for it', async () => {
    const { GET } = await import('@/app/api/v1/report/route');
    const { reportJsonTextChunks } = await import('@/lib/report/report-json');
    const { getReport } = await import('@/server/services/get-report');
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => GET(get(i % 2 ? { 'accept-encoding': 'gzip, deflate, br' } : {}), undefined)));
    expect(serialized.count).toBe(1);
    const report = await getReport();
    const expected = [...reportJsonTextChunks(report)].join('');
    serialized.count = 1; // the line above was the test's own serialization
    const plain = responses[0];
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('no-store');
    expect(plain.headers.get('x-dra-posture-analysed-at')).toMatch(/^\d{4}-/);
    const text = await plain.text();
    expect(text).toBe(expected);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(report)));
    expect(report.findings.length).toBeGreaterThan(0);

    expect(gunzipSync(Buffer.from(await responses[19].arrayBuffer())).toString('utf8')).toBe(expected);
    expect(await responses[18].text()).toBe(expected);

    const again = await GET(get({ 'if-none-match': plain.headers.get('etag')! }), undefined);
    expect(again.status).toBe(304);
    expect(serialized.count).toBe(1);
  });
});
