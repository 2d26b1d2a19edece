import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessForRequest } from '@/lib/api/dashboard-actions';
import { proxy } from '@/proxy';
import { refusalResponse } from '@/server/auth/refusal-response';
import { appPages, appRoutes, appWrites } from './app-routes';

// Issue 25 item 1: under `serve --auth kubernetes` every route and page needs a named action, and a
// request without credentials reaches none of them. Walks every handler and page under app/, so a
// route added later is covered. (Signed-in viewers against a real API server: serve-auth.test.ts.)

const HOST = '127.0.0.1:3999';
const ORIGIN = `http://${HOST}`;
const env = { ...process.env };

beforeAll(() => {
  process.env.DRA_POSTURE_AUTH = 'kubernetes';
  // Nothing here may reach an API server: requests without credentials are answered before any review.
  process.env.DRA_POSTURE_AUTH_KUBECONFIG = '/nonexistent/kubeconfig';
});
afterAll(() => {
  process.env = env;
});

const isCatchAll = (path: string) => path === '/api/v1/a/b';

describe('every route and page needs a named action', () => {
  it('maps each handler and page to an action or to public, never to "refused"', () => {
    const refused: string[] = [];
    for (const r of appRoutes) {
      for (const m of r.methods) if (accessForRequest(m, r.path).kind === 'refused' && !isCatchAll(r.path)) refused.push(`${m} ${r.path}`);
    }
    for (const p of appPages) if (accessForRequest('GET', p.path).kind === 'refused') refused.push(`GET ${p.path}`);
    expect(appRoutes.length).toBeGreaterThanOrEqual(20);
    expect(refused).toEqual([]);
  });

  it('each write handler checks its action again itself, the same action the proxy checks', () => {
    const wrong: string[] = [];
    for (const w of appWrites) {
      const access = accessForRequest(w.method, w.path);
      if (access.kind !== 'action') continue;
      // The handler's body: from its export to the next export.
      const start = w.source.search(new RegExp(`export (?:const|async function|function) ${w.method}\\b`));
      const rest = w.source.slice(start + 1);
      const body = rest.slice(0, rest.search(/\nexport /) === -1 ? undefined : rest.search(/\nexport /));
      const calls = [...body.matchAll(/requireAction\(\w+, '([^']+)'\)/g)].map((m) => m[1]);
      if (calls.length !== 1 || calls[0] !== access.action)
        wrong.push(`${w.method} ${w.path}: ${calls.join(', ') || 'no requireAction'} (expected ${access.action})`);
    }
    expect(appWrites.length).toBeGreaterThanOrEqual(9);
    expect(wrong).toEqual([]);
  });
});

describe('without credentials', () => {
  const send = (path: string, method: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(`${ORIGIN}${path}`, { method, headers: { host: HOST, origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers } }));

  it('sends every page to the sign-in page, remembering where it was going', async () => {
    const answers: string[] = [];
    for (const { path } of appPages) {
      const res = await send(`${path}?q=1`, 'GET');
      if (accessForRequest('GET', path).kind === 'public') continue;
      const location = res.headers.get('location') ?? '';
      answers.push(`${path} ${res.status} ${location}`);
      expect(res.status, path).toBe(303);
      expect(new URL(location, ORIGIN).searchParams.get('next'), path).toBe(`${path}?q=1`);
      expect(new URL(location, ORIGIN).pathname).toBe('/sign-in');
    }
    expect(answers.length).toBeGreaterThanOrEqual(10);
  });

  it('answers every API route with 401 and the error envelope, and lets the public ones through', async () => {
    for (const r of appRoutes) {
      for (const method of r.methods) {
        const res = await send(r.path, method);
        if (accessForRequest(method, r.path).kind === 'public') {
          expect(res.headers.get('x-middleware-next'), `${method} ${r.path}`).toBe('1');
          continue;
        }
        const expected = isCatchAll(r.path) && method !== 'GET' ? 403 : 401;
        expect(res.status, `${method} ${r.path}`).toBe(expected);
        const body = (await res.json()) as { error: { code: string } };
        expect(body.error.code).toBe(expected === 401 ? 'unauthenticated' : 'forbidden');
      }
    }
  });

  it('treats an unknown session cookie as an ended session', async () => {
    const res = await send('/findings', 'GET', { cookie: '__Host-dra-posture-session=forged' });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location')!, ORIGIN).searchParams.get('reason')).toBe('ended');
  });

  it('route handlers refuse on their own when the proxy is skipped', async () => {
    const { POST } = await import('@/app/api/v1/role-builder/approvals/route');
    const res = await POST(
      new Request(`${ORIGIN}/api/v1/role-builder/approvals`, { method: 'POST', headers: { host: HOST, origin: ORIGIN }, body: '{}' }),
      undefined,
    );
    expect(res.status).toBe(401);
  });
});

describe('the sign-in redirect', () => {
  it('keeps the Host the browser used, and the https of --public-url behind a TLS proxy', async () => {
    const at = async (host: string) => (await proxy(new NextRequest(`http://${host}/findings`, { method: 'GET', headers: { host } }))).headers.get('location');
    expect(await at('127.0.0.1:3999')).toBe('http://127.0.0.1:3999/sign-in?next=%2Ffindings');
    const before = process.env.DRA_POSTURE_PUBLIC_URL;
    process.env.DRA_POSTURE_PUBLIC_URL = 'https://posture.example.com';
    try {
      // (proxy.ts reads its gate's --public-url at start, so the answer is asked of refusalResponse itself)
      const res = refusalResponse(
        new URL('http://posture.example.com/findings'),
        { pass: false, status: 401, code: 'unauthenticated', message: '' },
        'posture.example.com',
      );
      expect(res.headers.get('location')).toBe('https://posture.example.com/sign-in?next=%2Ffindings');
    } finally {
      if (before === undefined) delete process.env.DRA_POSTURE_PUBLIC_URL;
      else process.env.DRA_POSTURE_PUBLIC_URL = before;
    }
  });
});
