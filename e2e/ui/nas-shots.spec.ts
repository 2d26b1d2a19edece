import { gotoAndSettle, screenshot, test } from './fixtures';
import { LARGE_URL } from './servers';

for (const [w, h] of [[1440, 900], [390, 844]]) {
  test(`shots ${w}`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: w, height: h });
    await gotoAndSettle(page, '/nodes', 'Nodes');
    await screenshot(page, `nas-demo-${w}`);
    await gotoAndSettle(page, `${LARGE_URL}/nodes`, 'Nodes');
    await screenshot(page, `nas-large-${w}`);
    await page.getByRole('button', { name: /plain RBAC, all nodes/ }).click();
    await page.getByRole('table', { name: 'Identities: plain RBAC, all nodes' }).waitFor();
    await screenshot(page, `nas-large-open-${w}`);
  });
}
