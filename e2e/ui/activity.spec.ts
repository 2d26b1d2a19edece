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

test('an audit log uploaded on the Sources page joins the report until it is forgotten', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/sources', 'Sources');
  const panel = page.getByRole('region', { name: 'Upload an audit log' });
  await panel.getByLabel('Audit log (JSON lines, EventList, or .gz)').setInputFiles({
    name: 'two-events.log',
    mimeType: 'text/plain',
    buffer: Buffer.from(
      [
        { verb: 'update', user: 'system:serviceaccount:gpu:probe', node: 'gpu-dev-01', sub: 'status', code: 422 },
        { verb: 'get', user: 'mallory', node: '', sub: '', code: 200 },
      ]
        .map((e, i) =>
          JSON.stringify({
            kind: 'Event',
            apiVersion: 'audit.k8s.io/v1',
            level: 'Metadata',
            auditID: `id-${i}`,
            stage: 'ResponseComplete',
            requestURI: '/apis/resource.k8s.io/v1/namespaces/tenant-a/resourceclaims/c',
            verb: e.verb,
            user: { username: e.user, groups: ['system:authenticated'], ...(e.node ? { extra: { 'authentication.kubernetes.io/node-name': [e.node] } } : {}) },
            objectRef: {
              resource: 'resourceclaims',
              namespace: 'tenant-a',
              name: 'c',
              apiGroup: 'resource.k8s.io',
              apiVersion: 'v1',
              ...(e.sub ? { subresource: e.sub } : {}),
            },
            responseStatus:
              e.code === 200
                ? { metadata: {}, code: 200 }
                : {
                    metadata: {},
                    status: 'Failure',
                    message: 'status.devices: Forbidden: changing status.devices requires associated-node:update permission on resourceclaims/driver',
                    code: e.code,
                  },
            requestReceivedTimestamp: `2026-11-2${i}T08:00:00.000000Z`,
            stageTimestamp: `2026-11-2${i}T08:00:00.100000Z`,
            annotations: { 'authorization.k8s.io/decision': 'allow' },
          }),
        )
        .join('\n') + '\nnot an event\n',
    ),
  });
  await panel.getByRole('button', { name: 'Read this audit log' }).click();
  await expect(panel.getByRole('status')).toContainText('Read two-events.log: 2 events, 1 malformed line(s)');
  await gotoAndSettle(page, '/activity', 'Activity');
  await expect(page.getByTestId('activity-window')).toContainText('2026-11-20T08:00:00.100Z');
  await expect(page.getByRole('region', { name: 'Malformed lines' })).toContainText('two-events.log');
  await expect(page.getByRole('region', { name: 'Audit alerts' }).getByRole('row').filter({ hasText: 'AUDIT004' })).toContainText('probe');
  await screenshot(page, 'activity-uploaded');

  await gotoAndSettle(page, '/sources', 'Sources');
  await page.getByRole('region', { name: 'Upload an audit log' }).getByRole('button', { name: 'Forget it' }).click();
  await expect(page.getByRole('region', { name: 'Upload an audit log' }).getByRole('status')).toContainText('no longer included');
  // Back to the log the server was started with.
  await gotoAndSettle(page, '/activity', 'Activity');
  await expect(page.getByTestId('activity-window')).not.toContainText('2026-11-20T08:00:00.100Z');
  expect(consoleErrors).toEqual([]);
});
