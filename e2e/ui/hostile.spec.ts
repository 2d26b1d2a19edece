import { HOSTILE_URL } from './servers';
import { cspViolations, expect, screenshot, test } from './fixtures';

// Kubernetes names are attacker-controlled: a snapshot whose RBAC names, subjects and annotation
// values are HTML/script payloads (e2e/fixtures/hostile) must render them as literal text.

test.use({ baseURL: HOSTILE_URL });

const ROLE = '<img src=x onerror=window.__xss=1>';
const BINDING = '"><svg onload=window.__xss=2>';
const USER = '<script>window.__xss=3</script>';
const GROUP = '<img src=y onerror=window.__xss=4>';
const ANNOTATION = '<img src=z onerror=window.__xss=5>';

async function expectInert(page: import('@playwright/test').Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.locator('main img, main svg[onload], main script:not([nonce])').count()).toBe(0);
  expect(await cspViolations(page)).toEqual([]);
}

test.describe('hostile names render as text', () => {
  test('overview, findings and finding detail', async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Data source' })).toContainText('hostile <b>snapshot</b>');
    await expectInert(page);

    await page.goto('/findings');
    const table = page.getByRole('table', { name: 'Findings' });
    await expect(table.getByText(USER).first()).toBeVisible();
    await expect(table.getByText(GROUP).first()).toBeVisible();
    await expectInert(page);

    await table.locator('tbody tr').filter({ hasText: USER }).first().getByRole('link').click();
    const evidence = page.getByRole('region', { name: 'Evidence' });
    await expect(evidence.getByText(ROLE).first()).toBeVisible();
    await expect(evidence.getByText(BINDING).first()).toBeVisible();
    await screenshot(page, 'hostile-finding');
    await expectInert(page);
    expect(consoleErrors).toEqual([]);
  });

  test('identity graph, labels, details and edge reasons', async ({ page, consoleErrors }) => {
    await page.goto('/graph?all=1');
    const canvas = page.locator('.react-flow');
    await expect(canvas.getByText(ROLE, { exact: true })).toBeVisible();
    await expect(canvas.getByText(BINDING, { exact: true })).toBeVisible();
    await expect(canvas.getByText(USER, { exact: true })).toBeVisible();
    await canvas.locator('.react-flow__node').filter({ hasText: ROLE }).click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await expect(details.getByRole('heading', { name: ROLE })).toBeVisible();
    await details.getByRole('button', { name: /^Why:/ }).first().click();
    await expect(page.getByTestId('edge-why')).toContainText(BINDING);
    await page.mouse.move(400, 400);
    await screenshot(page, 'hostile-graph');
    await expectInert(page);

    // Search and focus with a hostile name (the id travels through the URL).
    await page.getByLabel('Focus on an identity, binding, role or resource').fill('<img');
    await page.getByRole('list', { name: 'Matches' }).getByRole('button').first().click();
    await expect(page).toHaveURL(/focus=/);
    await expect(page.getByText('Focused on')).toBeVisible();
    await expectInert(page);
    expect(consoleErrors).toEqual([]);
  });

  test('nodes, devices and the explorer', async ({ page, consoleErrors }) => {
    await page.goto('/nodes');
    // In the node's writers and in the grouped writer matrix: both tables name the identity as text.
    await expect(
      page
        .getByRole('table', { name: /of gpu-1$/ })
        .getByText(USER)
        .first(),
    ).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: /^Identities: / })
        .getByText(USER)
        .first(),
    ).toBeVisible();
    await expectInert(page);

    await page.goto('/devices');
    await expect(page.getByText(ANNOTATION, { exact: false }).first()).toBeVisible();
    await expectInert(page);

    await page.goto('/explorer?mode=who-can&verb=create&resource=resourceslices');
    const results = page.getByTestId('who-can-results');
    await expect(results.getByText(ROLE).first()).toBeVisible();
    // Exact: the row's "Simulate this write as …" link also names the group (for screen readers).
    await expect(results.getByText(GROUP, { exact: true })).toBeVisible();
    await expectInert(page);

    await page.goto(`/explorer?mode=can-i&verb=create&resource=deviceclasses&user=${encodeURIComponent(USER)}`);
    await expect(page.getByTestId('can-i-result')).toContainText('yes');
    await expect(page.getByTestId('can-i-result').getByText(USER).first()).toBeVisible();
    await expectInert(page);
    expect(consoleErrors).toEqual([]);
  });
});
