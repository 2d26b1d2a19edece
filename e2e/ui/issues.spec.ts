import { expect, gotoAndSettle, screenshot, test } from './fixtures';

// Issue 13: the overview leads with the top risks (findings grouped by cause, ranked), each with its
// reach in words, a link to its findings and its fix.

test('the overview leads with the top risks; one click lists an issue’s findings, one more shows its fix', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/', 'Posture overview');
  const risks = page.getByRole('list', { name: 'Top risks' }).locator(':scope > li');
  await expect(risks).toHaveCount(5);
  // demo/EXPECTED.md §7: the Intel driver bound to cluster-admin, with a token on every node, ranks first.
  await expect(risks.first()).toContainText('DRA001');
  await expect(risks.first()).toContainText('ClusterRoleBinding intel-driver-admin');
  await expect(risks.first()).toContainText('writes status of all 7 nodes');
  await expect(risks.first()).toContainText('token on every node through DaemonSet');

  await risks.first().getByText('The fix').click();
  await expect(risks.first().getByRole('region', { name: /Fix/ }).or(risks.first().locator('pre'))).toContainText('ClusterRole');
  await screenshot(page, 'overview-top-risks');

  const issueId = await risks.nth(2).getAttribute('data-issue');
  await risks
    .nth(2)
    .getByRole('link', { name: /finding/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`issue=${issueId}`));
  await expect(page.getByText(`Showing the findings of issue ${issueId}`)).toBeVisible();
  const rows = page.getByRole('table', { name: 'Findings' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('POD001');

  await page.getByRole('button', { name: 'Show every issue' }).click();
  await expect(page).not.toHaveURL(/issue=/);
  expect(await rows.count()).toBeGreaterThan(20);
  expect(consoleErrors).toEqual([]);
});
