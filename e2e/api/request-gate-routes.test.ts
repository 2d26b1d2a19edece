import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { config, proxy } from '@/proxy';
import { appPages, appRoutes, appWrites } from './app-routes';

// Walks every route handler and page under app/ and sends each, through proxy.ts, the requests the
// request gate must refuse: a foreign Host on every method (DNS rebinding), and cross-site writes on
// every non-GET handler. A route added later is found by the walk, so it cannot miss the gate.

const HOST = '127.0.0.1:3999';
const ORIGIN = `http://${HOST}`;
const routes = appRoutes.map((r) => ({ ...r, file: r.name }));
const pages = appPages;
const writes = appWrites;

function send(path: string, method: string, headers: Record<string, string>) {
  const request = new NextRequest(`${ORIGIN}${path}`, { method, headers: { host: HOST, ...headers } });
  return proxy(request);
}

describe('the request gate covers every route', () => {
  it('finds the routes and pages (guards against an empty walk)', () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    expect(pages.length).toBeGreaterThanOrEqual(10);
    expect(writes.map((w) => `${w.method} ${w.path}`)).toEqual(
      expect.arrayContaining(['POST /api/v1/simulate', 'POST /api/v1/role-builder/build', 'POST /api/v1/sources/select', 'DELETE /api/v1/sources/audit']),
    );
    expect(routes.every((r) => r.methods.length > 0)).toBe(true);
  });

  it('proxy.ts runs for every route and page, prefetches included', () => {
    const missed: string[] = [];
    for (const { file, path } of [...routes, ...pages]) {
      for (const headers of [{}, { 'next-router-prefetch': '1' }, { purpose: 'prefetch', rsc: '1' }]) {
        if (!unstable_doesMiddlewareMatch({ config, url: path, headers })) missed.push(`${file} (${path}) ${JSON.stringify(headers)}`);
      }
    }
    expect(missed).toEqual([]);
  });

  it('refuses a foreign Host (DNS rebinding) with 421 on every method of every route and page', async () => {
    const answers: string[] = [];
    for (const { path, methods } of [...routes, ...pages.map((p) => ({ ...p, methods: ['GET', 'POST'] }))]) {
      for (const method of methods) {
        const res = await send(path, method, { host: 'attacker.example:3999', origin: 'http://attacker.example:3999', 'sec-fetch-site': 'same-origin' });
        answers.push(`${method} ${path} ${res.status}`);
      }
    }
    expect(answers.length).toBeGreaterThan(30);
    expect(answers.filter((a) => !a.endsWith(' 421'))).toEqual([]);
  });

  it.each([
    ['Origin: https://evil.example', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin, no fetch metadata', {}],
  ])('refuses cross-site writes (%s) with 403 on every write handler', async (_, headers: Record<string, string>) => {
    const answers: string[] = [];
    for (const { method, path } of writes) {
      const res = await send(path, method, headers);
      answers.push(`${method} ${path} ${res.status}`);
      if (res.status === 403) expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    }
    expect(writes.length).toBe(11);
    expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([]);
  });

  it('gzips a refusal of the one path next.config.js labels gzip (serialized-body.ts), and no other', async () => {
    const { gunzipSync } = await import('node:zlib');
    const refused = await send('/api/v1/report', 'GET', { host: 'attacker.example:3999', 'accept-encoding': 'gzip, deflate, br' });
    expect(refused.status).toBe(421);
    expect(JSON.parse(gunzipSync(Buffer.from(await refused.arrayBuffer())).toString('utf8')).error.code).toBe('forbidden');
    const plain = await send('/api/v1/findings', 'GET', { host: 'attacker.example:3999', 'accept-encoding': 'gzip' });
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('forbidden');
  });

  it('lets same-origin requests through (a control for the refusals above)', async () => {
    for (const { method, path } of writes) {
      const res = await send(path, method, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' });
      expect(res.headers.get('x-middleware-next'), `${method} ${path}`).toBe('1');
    }
    for (const host of ['localhost:3999', '[::1]:3999', '10.1.2.3:3999']) {
      const res = await send('/api/v1/report', 'GET', { host });
      expect(res.headers.get('x-middleware-next'), host).toBe('1');
    }
    const page = await send('/findings', 'GET', {});
    expect(page.headers.get('x-middleware-next')).toBe('1');
    expect(page.headers.get('content-security-policy')).toMatch(/'nonce-/);
  });
});
