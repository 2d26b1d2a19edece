import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { DEMO_PORT, DEMO_URL } from './servers';

// Issue 25, item 2: one request gate (proxy.ts) in front of every route of the built server.
// DNS rebinding: Chromium resolves attacker.example to 127.0.0.1, as a rebinding attacker's DNS
// would after serving its page; that page is same-origin with http://attacker.example:PORT, so only
// the server's Host check can stop it reading the report. Cross-site writes: every hostile header
// set on the write routes that answered 200 before (simulate, role-builder build) and one that did not.

const ATTACKER = `http://attacker.example:${DEMO_PORT}`;

// Chromium's own Local Network Access checks would also stop a page from a public address reaching
// loopback; they are off here so that the test shows the server's defence (browsers without them exist).
const NO_LOCAL_NETWORK_CHECKS = '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessRespectPreflightResults';

test.use({
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP attacker.example 127.0.0.1', NO_LOCAL_NETWORK_CHECKS] },
});

async function readReport(page: import('@playwright/test').Page) {
  return page.evaluate(async () => {
    const res = await fetch('/api/v1/report');
    const text = await res.text();
    return { status: res.status, text: text.slice(0, 2000), findings: text.includes('"findings"') };
  });
}

test.describe('DNS rebinding', () => {
  test("a page on a foreign name that resolves to the server cannot read /api/v1/report, nor load the server's pages", async ({ page }) => {
    // The attacker's own page, as its server sent it before the name was re-pointed at 127.0.0.1.
    await page.route(`${ATTACKER}/`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>attacker</title><p>hi</p>' }),
    );
    await page.goto(`${ATTACKER}/`);
    expect(await page.evaluate(() => location.origin)).toBe(ATTACKER);
    const stolen = await readReport(page);
    // 421 comes from the dashboard itself (its error envelope): the request did reach it, and was refused.
    expect(stolen.status).toBe(421);
    expect(stolen.findings).toBe(false);
    expect(JSON.parse(stolen.text).error.code).toBe('forbidden');

    await page.unrouteAll();
    for (const path of ['/', '/findings', '/sources', '/api/v1/findings']) {
      const res = await page.goto(`${ATTACKER}${path}`);
      expect(res!.status(), path).toBe(421);
    }
  });

  test('the same browser reads the report from the loopback origin (control)', async ({ page }) => {
    await page.goto(`${DEMO_URL}/findings`);
    const own = await readReport(page);
    expect(own.status).toBe(200);
    expect(own.findings).toBe(true);
  });
});

test.describe('cross-site writes', () => {
  const hostile: [string, Record<string, string>][] = [
    ['Origin: https://evil.example', { Origin: 'https://evil.example' }],
    ['Origin: null', { Origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
  ];
  const SIMULATE = {
    user: 'system:node:node-a',
    groups: ['system:nodes'],
    node: 'node-a',
    verb: 'create',
    object: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: default}\n',
  };

  for (const [name, headers] of hostile) {
    test(`refused with 403: ${name}`, async ({ request }) => {
      for (const path of ['/api/v1/simulate', '/api/v1/role-builder/build', '/api/v1/sources/select']) {
        const res = await request.post(`${DEMO_URL}${path}`, { headers: { ...headers, 'Content-Type': 'application/json' }, data: SIMULATE });
        expect(res.status(), path).toBe(403);
        expect((await res.json()).error.code, path).toBe('forbidden');
      }
    });
  }

  test('a same-origin write passes the gate (control)', async ({ request }) => {
    const res = await request.post(`${DEMO_URL}/api/v1/simulate`, { headers: { Origin: DEMO_URL, 'Content-Type': 'application/json' }, data: SIMULATE });
    expect(res.status()).not.toBe(403);
    expect(res.status()).toBeLessThan(500);
  });
});
