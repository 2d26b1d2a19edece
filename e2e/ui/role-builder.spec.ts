import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, screenshot, seriousA11yViolations, test } from './fixtures';

// The role builder on its own `next start` (a temp store, the demo source): walk two personas, check
// the YAML, approve and reject, restart the server, and find both decisions in the history.

const PORT = Number(process.env.E2E_PORT_BASE ?? 3100) + 5;
const URL = `http://127.0.0.1:${PORT}`;
let dir: string;
let server: ChildProcess | undefined;

async function startServer(source: Record<string, string> = { DRA_POSTURE_SOURCE: 'demo', DRA_POSTURE_SNAPSHOT: '' }): Promise<void> {
  server = spawn('npx', ['next', 'start', '-H', '127.0.0.1', '-p', String(PORT)], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...source, DRA_POSTURE_STORE: join(dir, 'store.sqlite') },
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${URL}/api/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`next start on ${PORT} did not become healthy`);
}

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child?.pid) return;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid, 'SIGTERM'); // the process group of the npx we started
  await exited;
  // next-server may outlive npx for a moment: wait until the port is free before anything restarts.
  for (let i = 0; i < 60; i++) {
    try {
      await fetch(`${URL}/api/healthz`);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server on ${PORT} did not stop`);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dra-roles-e2e-'));
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  rmSync(dir, { recursive: true, force: true });
});

test('node-local driver: guided steps, reasoned YAML, validation, approval; then a tenant by keyboard, rejected; both survive a restart', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${URL}/roles`);
  await expect(page.getByRole('heading', { level: 1, name: 'Least-privilege role builder' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Role builder' })).toHaveAttribute('aria-current', 'page');

  // 1. Persona
  await page.getByRole('radio', { name: /Node-local driver/ }).check();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'roles-1-persona');
  await page.getByRole('button', { name: 'Next' }).click();

  // 2. Identity: an empty name is refused where it is made
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'identity.namespace' })).toContainText('namespace is required');
  await page.getByLabel('Namespace').fill('dra-example-driver');
  await page.getByLabel('ServiceAccount name').fill('example-kubelet-plugin');
  await expect(page.getByRole('radio', { name: 'User' })).toBeDisabled();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'roles-2-identity');
  await page.getByRole('button', { name: 'Next' }).click();

  // 3. Drivers: required for this persona
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'drivers:' })).toContainText('needs at least one driver name');
  await page.getByLabel('Driver names').fill('gpu.example.com');
  await page.getByRole('button', { name: 'Next' }).click();

  // 4. Scope
  await expect(page.getByText(/ClusterRole \+ ClusterRoleBinding: 5 rule\(s\)/)).toBeVisible();
  await screenshot(page, 'roles-4-scope');
  await page.getByRole('button', { name: 'Build and review' }).click();

  // 5. Review
  const yaml = page.getByRole('region', { name: 'YAML' }).locator('pre');
  await expect(yaml).toContainText('resources: [ resourceclaims/driver ]');
  await expect(yaml).toContainText('verbs: [ associated-node:update, associated-node:patch ]');
  await expect(yaml).toContainText('resourceNames: [ gpu.example.com ]');
  await expect(yaml).toContainText('# status.devices writes for its own driver only');
  await expect(yaml).toContainText('kind: ValidatingAdmissionPolicy');
  await expect(yaml).toContainText('apiVersion: v1\nkind: ServiceAccount');
  await expect(yaml).not.toContainText('arbitrary-node');
  await expect(page.getByText('validated: least privilege holds')).toBeVisible();
  await expect(page.getByText('Version note:').first()).toBeVisible();
  const validation = page.getByRole('region', { name: 'Validation by the engine' });
  await expect(validation).toContainText('associated-node:update resourceclaims/driver for gpu.example.com');
  await expect(validation).toContainText('No check fires with this identity as subject.');
  await expect(page.getByRole('region', { name: 'Diff against today' })).toContainText('holds no RBAC grants today');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download YAML' }).click();
  expect((await download).suggestedFilename()).toBe('node-local-driver-dra-example-driver-example-kubelet-plugin.yaml');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'roles-5-review');

  // Who could apply it: system:masters holds everything; listed before any decision.
  await expect(page.getByTestId('appliers')).toContainText('Group system:masters');

  // Approve: a name is required
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Enter your name' })).toBeVisible();
  await page.getByLabel('Your name').fill('Grace Hopper');
  await page.getByLabel('Comment').fill('matches the chart');
  await page.getByRole('button', { name: 'Approve' }).click();
  const status = page.getByRole('status').filter({ hasText: 'Approved by Grace Hopper' });
  await expect(status).toBeVisible();
  await expect(page.getByRole('region', { name: 'Approval' }).locator('pre[aria-label="Approved YAML"]')).toContainText(
    'dra-posture.io/approved-by: Grace Hopper',
  );
  // Grace Hopper is no Kubernetes identity of the demo: she could not apply it herself.
  await expect(page.getByTestId('approver-check')).toContainText('As Kubernetes user Grace Hopper, you could not apply it');
  await screenshot(page, 'roles-6-approved');

  // A tenant group, by keyboard only.
  await page.goto(`${URL}/roles`);
  await page.getByRole('radio', { name: /Node-local driver/ }).focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown'); // node-local → multi-node → driver-controller → tenant
  await expect(page.getByRole('radio', { name: /^Tenant/ })).toBeChecked();
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: '2. Which identity gets the role?' })).toBeFocused();
  await page.getByRole('radio', { name: 'Group' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('radio', { name: 'Group' })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Group name')).toBeFocused();
  await page.keyboard.type('team-b');
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter'); // drivers: none needed
  await page.getByLabel('Namespace for namespaced rules').focus();
  await page.keyboard.type('tenant-b');
  await page.getByRole('button', { name: 'Build and review' }).focus();
  await page.keyboard.press('Enter');
  // Focus lands on the review's heading, not on the page body.
  await expect(page.getByRole('heading', { level: 2, name: /^Tenant for Group team-b/ })).toBeFocused();
  const tenantYaml = page.getByRole('region', { name: 'YAML' }).locator('pre');
  await expect(tenantYaml).toContainText('kind: Role\nmetadata:\n  name: group-team-b-tenant\n  namespace: tenant-b');
  await expect(tenantYaml).toContainText('resources: [ resourceclaims ]');
  await expect(tenantYaml).toContainText('resources: [ deviceclasses ]\n    verbs: [ get, list, watch ]');
  await expect(tenantYaml).toContainText('kind: Group');
  await expect(tenantYaml).not.toContainText('apiVersion: v1\nkind: ServiceAccount');
  await page.getByLabel('Your name').focus();
  await page.keyboard.type('Ada Lovelace');
  await page.keyboard.press('Tab');
  await page.keyboard.type('tenant-b should not read every class');
  await page.getByRole('button', { name: 'Reject' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Rejected by Ada Lovelace' })).toBeVisible();

  // Restart the server: the decisions are in the store file, not in memory.
  await stopServer();
  await startServer();
  await page.goto(`${URL}/roles/history`);
  await expect(page.getByRole('heading', { level: 1, name: 'Role approvals' })).toBeVisible();
  const rows = page.getByRole('region', { name: /Decisions/ }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('rejected');
  await expect(rows.nth(0)).toContainText('Ada Lovelace');
  await expect(rows.nth(0)).toContainText('Group team-b');
  await expect(rows.nth(1)).toContainText('approved');
  await expect(rows.nth(1)).toContainText('Grace Hopper');
  await expect(rows.nth(1)).toContainText('ServiceAccount dra-example-driver/example-kubelet-plugin');
  await expect(rows.nth(1)).toContainText('matches the chart');

  // The approved export checks as valid; one edited byte makes it invalid.
  const exportDownload = page.waitForEvent('download');
  await rows.nth(1).getByRole('button', { name: 'Download' }).click();
  const approvedPath = await (await exportDownload).path();
  const { readFileSync } = await import('node:fs');
  const approved = readFileSync(approvedPath!, 'utf8');
  expect(approved).toContain('dra-posture.io/approved-by: Grace Hopper');
  await page.getByRole('textbox', { name: 'Exported YAML' }).fill(approved);
  await expect(page.getByRole('status').filter({ hasText: 'approved by' })).toContainText('valid: approved by Grace Hopper');
  await page.getByRole('textbox', { name: 'Exported YAML' }).fill(approved.replace('associated-node:patch', 'arbitrary-node:patch'));
  await expect(page.getByRole('status').filter({ hasText: 'invalid' })).toContainText('invalid: the YAML was changed after approval');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'roles-7-history');
  expect(consoleErrors).toEqual([]);
});

test('an existing over-granted identity: the validation fails and the diff lists what to remove; custom rules refuse wildcards', async ({
  page,
  consoleErrors,
}) => {
  await page.goto(`${URL}/roles`);
  await page.getByRole('radio', { name: /Node-local driver/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Namespace').fill('gpu-operator');
  await page.getByLabel('ServiceAccount name').fill('dra-driver-nvidia-gpu-service-account-kubeletplugin');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Driver names').fill('gpu.nvidia.com');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Build and review' }).click();

  await expect(page.getByText(/\d+ validation problem\(s\)/)).toBeVisible();
  await expect(page.getByText('The service account exists: the bundle does not create it.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'YAML' }).locator('pre')).not.toContainText('apiVersion: v1\nkind: ServiceAccount');
  const validation = page.getByRole('region', { name: 'Validation by the engine' });
  await expect(validation.getByRole('listitem').filter({ hasText: 'arbitrary-node:update resourceclaims/driver for gpu.nvidia.com' })).toContainText(
    'Expected refused: RBAC: allowed by ClusterRoleBinding "nv-status-writer"',
  );
  await expect(validation).toContainText('DRA005');
  const diff = page.getByRole('region', { name: 'Diff against today' });
  await expect(diff.getByRole('region', { name: /Held today, not in the bundle/ })).toContainText(
    'ClusterRole nv-status-writer rule #1 via ClusterRoleBinding nv-status-writer',
  );
  await expect(diff.getByRole('region', { name: /In the bundle, not held today/ })).toContainText(
    'associated-node:update,associated-node:patch resourceclaims/driver',
  );
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'roles-8-existing-identity');

  await page.goto(`${URL}/roles`);
  await page.getByRole('radio', { name: /^Custom/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'User' }).check();
  await page.getByLabel('User name').fill('dana');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Rules, one per line').fill('get,list resourceclaims.resource.k8s.io # follow claims\n* secrets');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'customRules' })).toContainText('rule line 2: wildcards (*) are not allowed');
  await page.getByLabel('Rules, one per line').fill('get,list resourceclaims.resource.k8s.io # follow claims');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Namespace for namespaced rules').fill('tenant-a');
  await expect(page.getByText(/Role \+ RoleBinding in tenant-a: 1 rule\(s\)/)).toBeVisible();
  await page.getByRole('button', { name: 'Build and review' }).click();
  await expect(page.getByRole('region', { name: 'YAML' }).locator('pre')).toContainText('# follow claims');
  await expect(page.getByText('validated: least privilege holds')).toBeVisible();

  // The approved plugin with a second driver: a different YAML, so Grace Hopper's approval no longer covers it.
  await page.goto(`${URL}/roles`);
  await page.getByRole('radio', { name: /Node-local driver/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Namespace').fill('dra-example-driver');
  await page.getByLabel('ServiceAccount name').fill('example-kubelet-plugin');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Driver names').fill('gpu.example.com, net.example.com');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Build and review' }).click();
  await expect(page.getByRole('region', { name: 'YAML' }).locator('pre')).toContainText('resourceNames: [ gpu.example.com, net.example.com ]');
  const approval = page.getByRole('region', { name: 'Approval' });
  await expect(approval.getByRole('listitem').filter({ hasText: 'Grace Hopper' })).toContainText('invalid');
  await expect(approval.getByRole('listitem').filter({ hasText: 'Grace Hopper' })).toContainText('the YAML has changed since');
  await screenshot(page, 'roles-9-superseded');
  expect(consoleErrors).toEqual([]);
});

test('hostile names from the cluster (subjects, role names) render as text in the builder', async ({ page, consoleErrors }) => {
  const USER = '<script>window.__xss=3</script>';
  const ROLE = '<img src=x onerror=window.__xss=1>';
  await stopServer();
  await startServer({ DRA_POSTURE_SNAPSHOT: 'e2e/fixtures/hostile', DRA_POSTURE_SOURCE: '' });
  await page.goto(`${URL}/roles`);
  await page.getByRole('radio', { name: /Auditor/ }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('radio', { name: 'User' }).check();
  await page.getByLabel('User name').fill(USER);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Build and review' }).click();
  await expect(page.getByRole('region', { name: 'YAML' }).locator('pre')).toContainText(
    `kind: User\n    apiGroup: rbac.authorization.k8s.io\n    name: ${USER}`,
  );
  await expect(page.getByRole('region', { name: 'Diff against today' })).toContainText(`ClusterRole ${ROLE}`);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.locator('main img, main svg[onload], main script:not([nonce])').count()).toBe(0);
  await screenshot(page, 'roles-10-hostile');
  expect(consoleErrors).toEqual([]);
});
