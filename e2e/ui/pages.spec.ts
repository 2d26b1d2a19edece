import { cspViolations, expect, gotoAndSettle, PAGES, screenshot, seriousA11yViolations, test } from './fixtures';

// Every page renders on the demo with no console error or CSP violation, passes axe (no serious or
// critical violation), and is screenshotted for review.

for (const p of PAGES) {
  test(`${p.name} renders without console errors`, async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, p.path, p.heading);
    await expect(page.getByRole('region', { name: 'Data source' })).toContainText('Demo');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await screenshot(page, p.name);
    expect(consoleErrors).toEqual([]);
    expect(await cspViolations(page)).toEqual([]);
  });

  test(`${p.name} has no serious accessibility violations`, async ({ page }) => {
    await gotoAndSettle(page, p.path, p.heading);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
}

test('overview links into every view', async ({ page }) => {
  await gotoAndSettle(page, '/', 'Posture overview');
  const main = page.getByRole('main');
  for (const href of ['/graph', '/nodes', '/quotas', '/devices', '/findings']) {
    await expect(main.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  await expect(main.getByRole('link', { name: /critical findings/i })).toBeVisible();
  // The quota card leads with what needs attention most: the demo's tenant without a claim quota
  // (QUOTA001), then its one quota at 94% (tenant-b's gpu.intel.com devices).
  const quotas = main.locator('a[href="/quotas"]').first();
  await expect(quotas.locator('span.font-medium')).toHaveText('1 tenant without a claim quota');
  await expect(quotas).toContainText('1 quota at 90% or more');
});

test('an unknown page shows the not-found view', async ({ page }) => {
  const res = await page.goto('/no-such-page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
});

test('the pages and the API show one analysis (Next bundles them separately; a second would double the wait and the memory)', async ({ page, request }) => {
  const api = await request.get('/api/v1/report');
  expect(api.status()).toBe(200);
  const at = api.headers()['x-dra-posture-analysed-at'];
  expect(Date.parse(at)).toBeGreaterThan(0);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Data source' }).locator('time')).toHaveAttribute('datetime', at);
});
