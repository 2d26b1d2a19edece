import { cspViolations, expect, test } from './fixtures';
import { DEMO_URL } from './servers';

// reliability-security.md §5: per-request nonce CSP, static headers, API responses uncacheable and inert.

const csp = (h: Record<string, string>) => h['content-security-policy'] ?? '';
const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1];

test.describe('security headers', () => {
  test('pages carry a nonce CSP and the static headers', async ({ page }) => {
    const res = await page.goto('/');
    const h = res!.headers();
    const policy = csp(h);
    expect(policy).toMatch(/script-src 'self' 'nonce-[\w+/=]{16,}' 'strict-dynamic'/);
    for (const d of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'self'"]) expect(policy).toContain(d);
    expect(policy).not.toContain('unsafe-eval');
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['referrer-policy']).toBe('no-referrer');
    expect(h['permissions-policy']).toContain('camera=()');
    expect(h['x-powered-by']).toBeUndefined();
    expect(h['cache-control']).toContain('no-store');
    // Every script the server sent carries the nonce (scripts Next's loader inserts later run under
    // 'strict-dynamic' without one, so the live DOM is not the thing to read), and nothing was blocked.
    const nonce = nonceOf(policy)!;
    const scripts = [...(await res!.text()).matchAll(/<script\b[^>]*>/g)].map((m) => /\snonce="([^"]*)"/.exec(m[0])?.[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const n of scripts) expect(n).toBe(nonce);
    expect(await cspViolations(page)).toEqual([]);
  });

  test('the nonce differs across loads', async ({ request }) => {
    const a = nonceOf(csp((await request.get('/findings')).headers()));
    const b = nonceOf(csp((await request.get('/findings')).headers()));
    expect(a).toBeTruthy();
    expect(b).toBeTruthy();
    expect(a).not.toBe(b);
  });

  test('API responses are uncacheable, sniff-proof and sandboxed', async ({ request }) => {
    for (const path of ['/api/v1/report', '/api/v1/who-can?verb=get&resource=pods', '/api/v1/findings/nope', '/api/v1/nope']) {
      const r = await request.get(path);
      const h = r.headers();
      expect(h['cache-control'], path).toContain('no-store');
      expect(h['x-content-type-options'], path).toBe('nosniff');
      expect(h['content-type'], path).toContain('application/json');
      expect(csp(h), path).toContain("default-src 'none'");
      expect(h['x-powered-by'], path).toBeUndefined();
    }
  });

  test('API errors are a small JSON envelope without stack traces', async ({ request }) => {
    const cases: [string, number, string][] = [
      ['/api/v1/who-can?verb=get', 400, 'bad_request'],
      ['/api/v1/who-can?verb=%3Cscript%3E&resource=pods', 400, 'bad_request'],
      ['/api/v1/who-can?verb=get&resource=pods&evil=1', 400, 'bad_request'],
      ['/api/v1/can-i?verb=get&resource=pods', 400, 'bad_request'],
      ['/api/v1/graph?focus=User%3A%3Anobody', 404, 'not_found'],
      ['/api/v1/findings/nope', 404, 'not_found'],
      ['/api/v1/no/such/route', 404, 'not_found'],
    ];
    for (const [path, status, code] of cases) {
      const r = await request.get(path);
      expect(r.status(), path).toBe(status);
      const body = await r.json();
      expect(Object.keys(body), path).toEqual(['error']);
      expect(body.error.code, path).toBe(code);
      expect(body.error.message.length, path).toBeLessThanOrEqual(200);
      expect(JSON.stringify(body), path).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
    }
  });

  test('the report API is the CLI report contract', async ({ request }) => {
    const r = await request.get('/api/v1/report');
    expect(r.status()).toBe(200);
    const report = await r.json();
    expect(report.schemaVersion).toBe(2);
    expect(report.source.kind).toBe('demo');
    expect(Object.keys(report.summary)).toEqual(['critical', 'high', 'medium', 'low', 'info']);
    expect(report.findings.length).toBeGreaterThan(0);
    const one = await request.get(`/api/v1/findings/${report.findings[0].id}`);
    // One finding: the report's, with its words (the check's title, its own message and fix).
    const detailed = await one.json();
    expect(detailed).toMatchObject(report.findings[0]);
    expect(Object.keys(detailed).sort()).toEqual([...Object.keys(report.findings[0]), 'title', 'message', 'remediation'].sort());
    expect(detailed.message.length).toBeGreaterThan(20);
  });

  test('the dashboard cannot be framed', async ({ page }) => {
    await page.setContent(`<iframe id="f" src="${DEMO_URL}/"></iframe>`);
    await page.waitForTimeout(1500);
    const framed = page.frames().find((f) => f.url().startsWith(DEMO_URL));
    const content = framed ? await framed.content().catch(() => '') : '';
    expect(content).not.toContain('Posture overview');
  });
});
