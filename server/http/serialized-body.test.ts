import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsGzip, GZIP_ACCEPTED, GZIP_LABELLED_PATH, serializedBody, serializedBodyResponse, withGzipLabel } from './serialized-body';

const text = () => Array.from({ length: 2000 }, (_, i) => `{"finding":${i},"name":"ρ-${i}"}\n`);
const get = (headers: Record<string, string> = {}) => new Request('http://127.0.0.1/x', { headers });

describe('serializedBody', () => {
  it('serializes once per key', () => {
    let calls = 0;
    const key = {};
    const produce = () => {
      calls++;
      return text();
    };
    const a = serializedBody(key, produce);
    expect(serializedBody(key, produce)).toBe(a);
    expect(calls).toBe(1);
    serializedBody({}, produce);
    expect(calls).toBe(2);
    expect(a.bytes.toString('utf8')).toBe(text().join(''));
  });

  it('gives the same bytes the same strong ETag, and other bytes another', () => {
    const a = serializedBody({}, text);
    expect(a.etag).toMatch(/^"[\w-]{43}"$/);
    expect(serializedBody({}, text).etag).toBe(a.etag);
    expect(serializedBody({}, () => ['{}']).etag).not.toBe(a.etag);
  });
});

describe('serializedBodyResponse', () => {
  it('sends the bytes with the ETag and the given headers', async () => {
    const body = serializedBody({}, text);
    const res = serializedBodyResponse(get(), body, { 'Content-Type': 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(body.etag);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe(text().join(''));
    // The shared bytes are not consumed by a response: a second one sends them again.
    expect(await serializedBodyResponse(get(), body, {}).text()).toBe(text().join(''));
  });

  it('answers 304 without a body to an If-None-Match naming these bytes, 200 otherwise', async () => {
    const body = serializedBody({}, text);
    for (const inm of [body.etag, `"other", ${body.etag}`, `W/${body.etag}`, '*']) {
      const res = serializedBodyResponse(get({ 'if-none-match': inm }), body, {});
      expect(res.status, inm).toBe(304);
      expect(res.headers.get('etag')).toBe(body.etag);
      expect(await res.text()).toBe('');
    }
    expect(serializedBodyResponse(get({ 'if-none-match': '"other"' }), body, {}).status).toBe(200);
  });
});

describe('gzip', () => {
  it('sends the gzip bytes, under their own ETag, exactly when Accept-Encoding names gzip', async () => {
    const body = serializedBody({}, text);
    expect(gunzipSync(body.gzip).toString('utf8')).toBe(text().join(''));
    expect(body.gzip.length).toBeLessThan(body.bytes.length / 4);
    const res = serializedBodyResponse(get({ 'accept-encoding': 'gzip, deflate, br' }), body, {});
    expect(res.headers.get('etag')).toBe(`${body.etag.slice(0, -1)}-gzip"`);
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(text().join(''));
    expect(serializedBodyResponse(get({ 'accept-encoding': 'gzip', 'if-none-match': res.headers.get('etag')! }), body, {}).status).toBe(304);
    expect(await serializedBodyResponse(get({ 'accept-encoding': 'br, deflate' }), body, {}).text()).toBe(text().join(''));
  });

  it('matches the Accept-Encoding values next.config.js labels gzip, and no others', async () => {
    // next.config.js is plain JavaScript without types: imported by path, its shape is asserted below.
    const configPath = new URL('../../next.config.js', import.meta.url).href;
    const { REPORT_GZIP_HEADERS } = (await import(/* @vite-ignore */ configPath)) as {
      REPORT_GZIP_HEADERS: { source: string; has: { type: string; key: string; value: string }[]; headers: unknown[] };
    };
    expect(REPORT_GZIP_HEADERS.has[0]).toMatchObject({ type: 'header', key: 'accept-encoding', value: GZIP_ACCEPTED });
    expect(REPORT_GZIP_HEADERS.headers).toEqual([{ key: 'Content-Encoding', value: 'gzip' }]);
    expect(REPORT_GZIP_HEADERS.source).toBe(GZIP_LABELLED_PATH);
    const nextMatches = (v: string) => new RegExp(`^${REPORT_GZIP_HEADERS.has[0].value}$`).test(v);
    for (const v of ['gzip', 'gzip, deflate, br, zstd', 'br;q=1.0, gzip;q=0.8', 'deflate', 'br', 'x-gzipped', ''])
      expect(acceptsGzip(get({ 'accept-encoding': v })), v).toBe(nextMatches(v));
    expect(acceptsGzip(get({ 'accept-encoding': 'deflate, gzip' }))).toBe(true);
    expect(acceptsGzip(get({ 'accept-encoding': 'br' }))).toBe(false);
  });

  it('withGzipLabel gzips any other answer for a gzip client, and leaves the rest alone', async () => {
    const body = serializedBody({}, text);
    const error = withGzipLabel(async () => Response.json({ error: { code: 'source_unavailable' } }, { status: 503 }));
    const gz = await error(get({ 'accept-encoding': 'gzip' }), undefined);
    expect(gz.status).toBe(503);
    expect(JSON.parse(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString('utf8'))).toEqual({ error: { code: 'source_unavailable' } });
    expect(await (await error(get(), undefined)).json()).toEqual({ error: { code: 'source_unavailable' } });
    const cached = withGzipLabel(async (r: Request) => serializedBodyResponse(r, body, {}));
    const once = await cached(get({ 'accept-encoding': 'gzip' }), undefined);
    expect(gunzipSync(Buffer.from(await once.arrayBuffer())).toString('utf8')).toBe(text().join(''));
  });
});
