import { expect, gotoAndSettle, screenshot, test } from './fixtures';

test.describe('identity graph', () => {
  test('starts collapsed by namespace, and a group expands', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph', 'Identity graph');
    const canvas = page.locator('.react-flow');
    await expect(canvas).toBeVisible();
    await expect(canvas.getByText('(collapsed)').first()).toBeVisible();
    await expect(canvas.getByText('resourceclaims/binding', { exact: true })).toBeVisible();

    await canvas.locator('.react-flow__node').filter({ hasText: 'ClusterRoles (collapsed)' }).click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await details.getByRole('button', { name: 'Expand this group' }).click();
    await expect(page).toHaveURL(/expand=/);
    await expect(canvas.getByText('custom-allocator', { exact: true })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('search focuses one identity and an edge explains why it exists', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph', 'Identity graph');
    await page.getByLabel('Focus on an identity, binding, role or resource').fill('batch-sched');
    await page
      .getByRole('list', { name: 'Matches' })
      .getByRole('button', { name: /tenant-b\/batch-scheduler/ })
      .click();
    await expect(page).toHaveURL(/focus=ServiceAccount%3Atenant-b%3Abatch-scheduler/);

    const canvas = page.locator('.react-flow');
    await expect(canvas.getByText('tenant-b-batch-scheduler', { exact: true })).toBeVisible();
    await expect(canvas.getByText('custom-allocator', { exact: true })).toBeVisible();
    await expect(canvas.getByText('resourceclaims/binding', { exact: true })).toBeVisible();
    // Paths of other identities are gone.
    await expect(canvas.getByText('gpu-ops-wildcard')).toHaveCount(0);

    // Select the role, then ask why its edge to resourceclaims/binding exists.
    await canvas.locator('.react-flow__node').filter({ hasText: 'custom-allocator' }).click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await expect(details.getByRole('heading', { name: 'custom-allocator' })).toBeVisible();
    await details.getByRole('button', { name: 'Why: this to resourceclaims/binding' }).click();
    const why = page.getByTestId('edge-why');
    await expect(why).toContainText('ClusterRole custom-allocator rule #');
    await expect(why).toContainText('resourceclaims/binding');
    await expect(why).toContainText('On a risky path');
    await screenshot(page, 'graph-focus');

    // The binding → role edge names the binding's roleRef; clicking the edge itself works too.
    await canvas.locator('.react-flow__edge.risky').first().click({ force: true });
    await expect(page.getByTestId('edge-why')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('risky-only view keeps only risky edges', async ({ page }) => {
    await gotoAndSettle(page, '/graph?all=1', 'Identity graph');
    const edges = page.locator('.react-flow__edge');
    await expect(edges.first()).toBeVisible();
    const all = await edges.count();
    await page.getByLabel('Risky paths only').click();
    await expect(page.getByLabel('Risky paths only')).toBeChecked();
    await expect(page).toHaveURL(/risky=1/);
    await expect.poll(async () => page.locator('.react-flow__edge').count()).toBeLessThan(all);
    await expect(page.locator('.react-flow__edge:not(.risky)')).toHaveCount(0);
  });

  test('an unknown focus shows an error, not a crash', async ({ page }) => {
    await page.goto('/graph?focus=User%3A%3Anobody-at-all');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('not in the identity graph');
  });
});
