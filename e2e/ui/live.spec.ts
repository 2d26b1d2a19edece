import type { Report } from '@/lib/analysis/types';
import { cspViolations, expect, gotoAndSettle, PAGES, screenshot, seriousA11yViolations, test } from './fixtures';
import { DEMO_URL, LIVE_URL } from './servers';

// Every page against a real kube-apiserver seeded with the demo manifests, read live through the
// server's kubeconfig (e2e/ui/live-server.ts).

test.describe('live cluster', () => {
  test.use({ baseURL: LIVE_URL });

  for (const p of PAGES) {
    test(`${p.name} renders from the live cluster`, async ({ page, consoleErrors }) => {
      await gotoAndSettle(page, p.path, p.heading);
      const source = page.getByRole('region', { name: 'Data source' });
      await expect(source).toContainText('Live');
      await expect(source).toContainText('Read from the cluster by this server.');
      await expect(source).toContainText(/Kubernetes v1\.36/);
      await expect(source).not.toContainText('Stale');
      await screenshot(page, `live-${p.name}`);
      expect(consoleErrors).toEqual([]);
      expect(await cspViolations(page)).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  }

  test('the live report has every finding of the demo report', async ({ request }) => {
    const live = (await (await request.get(`${LIVE_URL}/api/v1/report`)).json()) as Report;
    const demo = (await (await request.get(`${DEMO_URL}/api/v1/report`)).json()) as Report;
    expect(live.source.kind).toBe('live');
    expect(demo.findings.length).toBeGreaterThan(10);
    // The same objects give the same stable finding IDs. The live server also holds its bootstrap
    // RBAC and system namespaces, which may add findings, never remove the demo's.
    const liveIds = new Set(live.findings.map((f) => f.id));
    const missing = demo.findings.filter((f) => !liveIds.has(f.id)).map((f) => `${f.check} ${f.id}`);
    expect(missing).toEqual([]);
    // Node writers: the same nodes; every all-node writer of the demo is one of the live cluster's.
    expect(live.nodes.map((n) => n.name)).toEqual(demo.nodes.map((n) => n.name));
    const key = (w: Report['allNodes']['statusWriters'][number]) => `${w.mode} ${w.subject.kind} ${w.subject.namespace ?? ''} ${w.subject.name}`;
    const liveAll = new Set(live.allNodes.statusWriters.map(key));
    expect(demo.allNodes.statusWriters.map(key).filter((k) => !liveAll.has(k))).toEqual([]);
  });
});

// Runs after the page tests above (one worker, file order) and puts the configured source back.
test.describe('source switcher with live contexts', () => {
  test.use({ baseURL: LIVE_URL });
  test.afterAll(async ({ request }) => {
    await request.post(`${LIVE_URL}/api/v1/sources/reset`, { headers: { Origin: LIVE_URL } });
  });

  test('lists the contexts by name and host only', async ({ request, page }) => {
    const body = await (await request.get('/api/v1/sources/contexts')).json();
    expect(body.contexts.map((c: { name: string }) => c.name)).toEqual(['admin', 'unreachable']);
    for (const c of body.contexts) {
      expect(Object.keys(c).sort()).toEqual(['current', 'name', 'server']);
      expect(c.server).toMatch(/^127\.0\.0\.1:\d+$/);
    }
    const html = await (await page.request.get('/sources')).text();
    for (const secret of ['token', 'client-certificate', 'client-key', 'BEGIN CERTIFICATE', 'insecure-skip-tls-verify']) expect(html).not.toContain(secret);
  });

  test('live → demo → live context; an unreachable context is refused and changes nothing', async ({ page, consoleErrors }) => {
    const source = page.getByRole('region', { name: 'Data source' });
    const panel = page.getByRole('region', { name: 'Demo or a live context' });
    await gotoAndSettle(page, '/sources', 'Sources');
    await expect(source).toContainText('Live');

    await panel.getByRole('button', { name: 'Use the demo cluster' }).click();
    await expect(panel.getByRole('status')).toContainText('Now showing the bundled demo cluster');
    await expect(source).toContainText('Demo');

    await panel.getByRole('button', { name: 'Use context unreachable' }).click();
    await expect(panel.getByRole('alert')).toContainText('context "unreachable" (127.0.0.1:9) cannot be read', { timeout: 30_000 });
    await expect(panel.getByRole('alert')).toContainText('the current source is unchanged');
    await page.reload();
    await expect(source).toContainText('Demo');

    await panel.getByRole('button', { name: 'Use context admin' }).click();
    await expect(panel.getByRole('status')).toContainText('Now showing context admin');
    await expect(source).toContainText('Live');
    await screenshot(page, 'live-sources-switched');
    await gotoAndSettle(page, '/nodes', 'Nodes');
    await expect(source).toContainText('Live');

    await gotoAndSettle(page, '/sources', 'Sources');
    await panel.getByRole('button', { name: 'Back to the configured source' }).click();
    await expect(panel.getByRole('status')).toContainText('Back to the source the server was started with');
    await expect(source).toContainText('Live');
    expect(consoleErrors.filter((e) => !e.includes('503'))).toEqual([]);
  });
});
