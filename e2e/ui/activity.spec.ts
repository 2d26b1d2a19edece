import { AUDIT_URL } from './servers';
import { cspViolations, expect, gotoAndSettle, screenshot, seriousA11yViolations, test } from './fixtures';

// The Activity page on the audit log the integration test captured from a real kube-apiserver
// (e2e/fixtures/audit/integration-audit.log), read beside the demo cluster.

test.use({ baseURL: AUDIT_URL });

const PLUGIN = 'system:serviceaccount:dra-example-driver:dra-example-driver-service-account';

test('Activity shows the window, the denied driver write with its reason, impersonation and the alerts', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/activity', 'Activity');
  await expect(page.getByTestId('activity-window')).toContainText(/Window 20\d\d-/);
  await expect(page.getByTestId('activity-window')).toContainText('Request bodies were logged');

  const writes = page.getByRole('region', { name: 'DRA writes per identity and node' });
  const pluginRow = writes.getByRole('row').filter({ hasText: PLUGIN }).filter({ hasText: 'claim-driver' });
  await expect(pluginRow).toHaveCount(1);
  await expect(pluginRow).toContainText('gpu-h100-01');
  await expect(pluginRow).toContainText('resourceclaims/driver');

  const imp = page.getByRole('region', { name: 'Impersonated requests' });
  await expect(imp.getByRole('row').filter({ hasText: 'system:node:gpu-h100-02' })).toContainText('other node');
  await expect(imp.getByRole('row').filter({ hasText: 'system:node:gpu-h100-01' })).toContainText('own-node');

  const alerts = page.getByRole('region', { name: 'Audit alerts' });
  for (const check of ['AUDIT001', 'AUDIT003', 'AUDIT004', 'AUDIT005']) await expect(alerts.getByRole('row').filter({ hasText: check }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Unused grants' }).getByRole('row').filter({ hasText: PLUGIN }).first()).toBeVisible();
  await screenshot(page, 'activity-audit');

  // An alert opens its finding.
  await alerts.getByRole('row').filter({ hasText: 'AUDIT004' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/resourceclaims\/driver/i);
  expect(consoleErrors).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});

test('Activity on the audit log has no serious accessibility violations', async ({ page }) => {
  await gotoAndSettle(page, '/activity', 'Activity');
  expect(await seriousA11yViolations(page)).toEqual([]);
});
