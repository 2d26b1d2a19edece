import { expect, gotoAndSettle, screenshot, test } from './fixtures';

// Issue 13: the overview leads with the top risks (findings grouped by cause, ranked), each with its
// reach in words, a link to its findings and its fix.

test('the overview leads with the top risks; one click lists an issue’s findings, one more shows its fix', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/', 'Posture overview');
  const risks = page.getByRole('list', { name: 'Top risks' }).locator(':scope > li');
  await expect(risks).toHaveCount(5);
  // demo/EXPECTED.md §7: the Intel driver bound to cluster-admin, with a token on its DaemonSet's nodes, ranks first.
  await expect(risks.first()).toContainText('DRA001');
  await expect(risks.first()).toContainText('ClusterRoleBinding intel-driver-admin');
  await expect(risks.first()).toContainText('full control of the cluster (7 nodes, 16 allocated claims, 13 namespaces)');
  // Second, the other takeover: support-engineers may impersonate system:masters (#24).
  await expect(risks.nth(1)).toContainText('NODE002');
  await expect(risks.nth(1)).toContainText('may impersonate Group system:masters');
  await expect(risks.first()).toContainText('token on 2 of 7 nodes through DaemonSet intel-gpu-resource-driver/intel-gpu-resource-driver-kubelet-plugin');

  await risks.first().getByText('The fix').click();
  await expect(risks.first().getByRole('region', { name: /Fix/ }).or(risks.first().locator('pre'))).toContainText('ClusterRole');
  await screenshot(page, 'overview-top-risks');

  const issueId = await risks.nth(3).getAttribute('data-issue');
  await risks
    .nth(3)
    .getByRole('link', { name: /finding/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`issue=${issueId}`));
  await expect(page.getByText(`Showing the findings of issue ${issueId}`)).toBeVisible();
  const rows = page.getByRole('table', { name: 'Findings' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  // Fourth is DRA012: the NVIDIA plugin's unpinned ResourceSlice writes (demo/EXPECTED.md §7).
  await expect(rows.first()).toContainText('DRA012');

  await page.getByRole('button', { name: 'Show every issue' }).click();
  await expect(page).not.toHaveURL(/issue=/);
  await expect.poll(() => rows.count()).toBeGreaterThan(20);
  expect(consoleErrors).toEqual([]);
});

test('the findings page groups by issue: ranked issues, each opened to its findings, with the filters applied', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/findings', 'Findings');
  await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'By issue' }).click();
  await expect(page).toHaveURL(/group=issue/);
  const issues = page.getByRole('list', { name: 'Issues' }).locator(':scope > li');
  await expect(page.getByRole('status')).toContainText('62 findings in 52 issues');
  await expect(issues).toHaveCount(52);
  await expect(issues.first()).toContainText('DRA001');

  // QUOTA004 is one issue for six claims and templates (allocationMode: All).
  const quota004 = issues.filter({ hasText: 'QUOTA004' });
  await expect(quota004).toHaveCount(1);
  await quota004.getByRole('button').first().click();
  await expect(quota004.getByRole('button').first()).toHaveAttribute('aria-expanded', 'true');
  await expect(quota004.getByRole('table', { name: 'Findings' }).locator('tbody tr')).toHaveCount(6);
  await screenshot(page, 'findings-by-issue');

  // Filters narrow the issues and what an issue shows.
  await page
    .getByRole('search', { name: 'Filter findings' })
    .getByRole('button', { name: /^Critical/ })
    .click();
  await expect(page.getByRole('status')).toContainText('3 of 62 findings in 3 issues');
  await expect(issues).toHaveCount(3);
  await page.reload();
  await expect(issues).toHaveCount(3);
  expect(consoleErrors).toEqual([]);
});

test('an attack path from the overview is drawn highlighted on the graph', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/', 'Posture overview');
  const first = page.getByRole('list', { name: 'Top risks' }).locator(':scope > li').first();
  await first.getByText(/^Attack path:/).click();
  const steps = first.getByRole('list', { name: 'Attack path' }).locator('li');
  await expect(steps).toHaveCount(3);
  await expect(steps.first()).toContainText('a compromised node');
  await expect(steps.last()).toContainText('cluster-admin');
  await first.getByRole('link', { name: 'Show the path on the graph →' }).click();
  await expect(page).toHaveURL(/\/graph\?path=[0-9a-f]{16}/);
  await expect(page.getByRole('status').filter({ hasText: 'Attack path of issue' })).toContainText('3 steps highlighted');
  await expect(page.locator('.react-flow__edge.on-path')).toHaveCount(2);
  await expect(page.locator('.react-flow__node.on-path')).toHaveCount(3);
  await screenshot(page, 'graph-attack-path');
  await page.getByRole('button', { name: 'Clear path' }).click();
  // Back to the default view (the top risks' paths): this issue's highlight and its note are gone.
  await expect(page).not.toHaveURL(/[?&]path=/);
  await expect(page.getByRole('status').filter({ hasText: 'Attack path of issue' })).toHaveCount(0);
  await expect(page.getByText(/top \d+ risks/i).first()).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
