import { expect, gotoAndSettle, test } from './fixtures';

test.describe('nodes', () => {
  test('the reporter × node matrix shows writers with mode and scope', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/nodes', 'Nodes');
    const matrix = page.getByRole('table', { name: 'Identities that can write nodes/status, per node' });
    const headers = matrix.locator('thead th');
    await expect(headers).toHaveCount(8); // identity column + 7 demo nodes
    const intel = matrix.locator('tbody tr').filter({ hasText: 'kube-system/intel-reporter' });
    // A writer of every node is drawn once across the row.
    await expect(intel.getByText('plain RBAC, all nodes')).toHaveCount(1);
    await expect(intel).toContainText('7 nodes');
    const support = matrix.locator('tbody tr').filter({ hasText: 'support-engineers' });
    await expect(support.getByText('legacy impersonation, all nodes').first()).toBeAttached();
    // The demo's API server runs without NodeRestriction: every kubelet (Group system:nodes) writes every
    // node, and so does the constrained reporter, through the node identity it impersonates.
    const reporter = matrix.locator('tbody tr').filter({ hasText: 'kube-system/gpu-driver-reporter' });
    await expect(reporter.getByText('constrained impersonation, all nodes')).toHaveCount(1);
    const kubelets = matrix.locator('tbody tr').filter({ hasText: 'system:nodes' });
    await expect(kubelets.getByText('Node authorizer, all nodes')).toHaveCount(1);
    await expect(kubelets).toContainText('7 nodes');
    await expect(page.getByRole('region', { name: 'API server configuration applied' })).toContainText('flags of kube-system/kube-apiserver-cp-01');
    await expect(page.getByLabel('Legend')).toContainText('NodeRestriction is off');
    // Legacy impersonation acts as whichever writer it may impersonate, not necessarily a kubelet.
    await expect(page.getByLabel('Legend')).not.toContainText('can act as any kubelet');
    await expect(page.getByLabel('Legend')).toContainText('acts as an identity that writes status');
    expect(consoleErrors).toEqual([]);
  });

  test('a node the source does not hold is said to be missing, not replaced by another node', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/nodes?node=node-99999', 'Nodes');
    // (Next.js's route announcer is an alert too.)
    const missing = page.getByRole('alert').filter({ hasText: 'No node named' });
    await expect(missing).toContainText('No node named node-99999 in this source');
    await expect(page.getByRole('region', { name: /Blast radius if/ })).toHaveCount(0);
    await expect(page.getByRole('region', { name: /Claim-status writers on/ })).toHaveCount(0);
    // The matrix header leads to the node's panels, below the matrix.
    await page.getByRole('table', { name: 'Identities that can write nodes/status, per node' }).getByRole('link', { name: 'gpu-h100-01' }).click();
    await expect(page).toHaveURL(/node=gpu-h100-01#node-detail$/);
    await expect(page.getByRole('region', { name: /Blast radius if gpu-h100-01 is compromised/ })).toBeVisible();
    await expect(missing).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('picking a node shows its claim-status writers per driver and its blast radius', async ({ page }) => {
    await gotoAndSettle(page, '/nodes', 'Nodes');
    await page.getByRole('navigation', { name: 'Node' }).getByRole('link', { name: 'gpu-h100-01' }).click();
    await expect(page).toHaveURL(/node=gpu-h100-01/);
    const claims = page.getByRole('region', { name: /Claim-status writers on gpu-h100-01/ });
    await expect(claims.getByRole('region', { name: 'Driver gpu.nvidia.com' })).toBeVisible();
    await expect(claims).toContainText('arbitrary-node');
    const radius = page.getByRole('region', { name: /Blast radius if gpu-h100-01 is compromised/ });
    await expect(radius).toContainText('system:node:gpu-h100-01');
    await expect(radius).toContainText('Credentials on node');
    const writers = page.getByRole('region', { name: /nodes\/status writers of gpu-h100-01/ });
    await writers.locator('summary').filter({ hasText: 'intel-reporter' }).click();
    await expect(writers).toContainText('node-status-patch-role');
  });

  test('the blast-radius API answers per node and 404s unknown nodes', async ({ request }) => {
    const ok = await request.get('/api/v1/nodes/gpu-h100-01/blast-radius');
    expect(ok.status()).toBe(200);
    const body = await ok.json();
    expect(body.node).toBe('gpu-h100-01');
    expect(body.identities[0].subject).toEqual({ kind: 'User', name: 'system:node:gpu-h100-01' });
    const missing = await request.get('/api/v1/nodes/nope/blast-radius');
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });
});
