import { expect, gotoAndSettle, test } from './fixtures';

test.describe('nodes', () => {
  test('the writers are grouped by mode and reach, each identity with how it writes and which nodes', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/nodes', 'Nodes');
    const matrix = page.getByRole('region', { name: 'nodes/status writers', exact: true });
    await expect(matrix).toContainText('of the 7 nodes');
    // Few identities in all: every group starts open, and its count is the number of its rows' identities.
    const groups = matrix.getByRole('list', { name: 'Writer groups' });
    const row = (group: string, who: string) =>
      matrix
        .getByRole('table', { name: `Identities: ${group}` })
        .getByRole('row')
        .filter({ hasText: who });
    const intel = row('plain RBAC, all nodes', 'kube-system/intel-reporter');
    await expect(intel.getByText('plain RBAC, all nodes')).toHaveCount(1);
    await expect(intel).toContainText('all 7 nodes');
    await expect(row('legacy impersonation, all nodes', 'support-engineers').getByText('legacy impersonation, all nodes').first()).toBeAttached();
    // The demo's API server runs without NodeRestriction: every kubelet (Group system:nodes) writes every
    // node, and so does the constrained reporter, through the node identity it impersonates.
    const reporter = row('constrained impersonation, all nodes', 'kube-system/gpu-driver-reporter');
    await expect(reporter.getByText('constrained impersonation, all nodes')).toHaveCount(1);
    const kubelets = row('Node authorizer, all nodes', 'system:nodes');
    await expect(kubelets.getByText('Node authorizer, all nodes')).toHaveCount(1);
    await expect(kubelets).toContainText('all 7 nodes');
    const buttons = groups.getByRole('button');
    const count = await buttons.count();
    expect(count).toBeGreaterThan(2);
    for (let i = 0; i < count; i++) {
      await expect(buttons.nth(i)).toHaveAttribute('aria-expanded', 'true');
      const stated = Number((await buttons.nth(i).getByTestId('group-count').innerText()).replace(/,/g, ''));
      const body = matrix.locator(`#${await buttons.nth(i).getAttribute('aria-controls')}`);
      await expect(body.locator('tbody tr')).toHaveCount(stated);
    }
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
    // The picker finds a node by part of its name.
    await page.getByRole('combobox', { name: /Find a node/ }).fill('h100-01');
    await page.getByRole('listbox', { name: 'Matching nodes' }).getByRole('option', { name: 'gpu-h100-01' }).click();
    await expect(page).toHaveURL(/node=gpu-h100-01$/);
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
    await writers.getByRole('row').filter({ hasText: 'intel-reporter' }).getByText('Why').click();
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

  test('a node’s panels API (what a node switch fetches) answers with its writers and blast radius in counts, and 404s unknown nodes', async ({ request }) => {
    const ok = await request.get('/api/v1/nodes/gpu-h100-01/view');
    expect(ok.status()).toBe(200);
    const view = await ok.json();
    expect(view.name).toBe('gpu-h100-01');
    expect(view.blastRadius.node).toBe('gpu-h100-01');
    // The same counts as the full blast radius.
    const full = await (await request.get('/api/v1/nodes/gpu-h100-01/blast-radius')).json();
    expect(view.blastRadius.claimCount).toBe(full.claims.length);
    expect(view.blastRadius.otherNodeCount).toBe(full.otherNodes.length);
    expect(view.blastRadius.identities.map((i: { subject: unknown }) => i.subject)).toEqual(full.identities.map((i: { subject: unknown }) => i.subject));
    expect(view.claimWriters.map((d: { driver: string }) => d.driver)).toContain('gpu.nvidia.com');
    const missing = await request.get('/api/v1/nodes/nope/view');
    expect(missing.status()).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });
});
