import { expect, gotoAndSettle, screenshot, test } from './fixtures';
import { sourceObjects } from './source-objects';
import { expectExamplesNameSourceObjects } from './explorer-examples-check';

test.describe('who-can / can-i explorer', () => {
  test('who-can answers with the granting binding and role', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
    await page.getByLabel('Verb').fill('update');
    await page.getByLabel('Resource').fill('resourceclaims/binding');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect(page).toHaveURL(/verb=update/);
    const results = page.getByTestId('who-can-results');
    await expect(results).toContainText('subjects can');
    const row = results.locator('tbody tr').filter({ hasText: 'tenant-b/batch-scheduler' });
    await expect(row).toContainText('tenant-b-batch-scheduler');
    await expect(row).toContainText('custom-allocator');
    await expect(results.locator('tbody tr').filter({ hasText: 'system:masters' }).first()).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('can-i answers yes/no with the reason', async ({ page }) => {
    await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
    await page.getByRole('link', { name: /Can tenant-b\/batch-scheduler update/ }).click();
    const result = page.getByTestId('can-i-result');
    await expect(result).toContainText('yes');
    await expect(result).toContainText('custom-allocator');

    await page.getByText('Can this identity…').click();
    await page.getByLabel('User (username)').fill('system:serviceaccount:tenant-a:default');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect(page.getByTestId('can-i-result')).toContainText('no');
  });

  test('a subresource from the URL shows in the Resource field and stays visible when the question changes', async ({ page }) => {
    await gotoAndSettle(page, '/explorer?mode=who-can&verb=update&resource=resourceclaims&subresource=driver&namespace=tenant-a', 'Who-can / can-i explorer');
    await expect(page.getByLabel('Resource')).toHaveValue('resourceclaims/driver');
    await expect(page.getByTestId('who-can-results')).toContainText('update resourceclaims.resource.k8s.io/driver in namespace tenant-a');
    // Changing the resource drops the subresource: nothing the user cannot see is kept.
    await page.getByLabel('Resource').fill('resourceclaimtemplates');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect(page).toHaveURL(/resource=resourceclaimtemplates(&|$)/);
    await expect(page).not.toHaveURL(/subresource=/);
    await expect(page.getByTestId('who-can-results')).toContainText('update resourceclaimtemplates.resource.k8s.io in namespace tenant-a');
  });

  test('examples and the simulator’s opening write name objects of the loaded source', async ({ page, request, consoleErrors }) => {
    const objects = await sourceObjects(request);
    await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
    await expectExamplesNameSourceObjects(page, objects);
    expect(consoleErrors).toEqual([]);
  });

  test('a simulated write naming a node the source does not have is answered with a warning', async ({ page, request }) => {
    const objects = await sourceObjects(request);
    const missing = 'gpu-h100-99';
    expect(objects.nodes).not.toContain(missing);
    await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
    const form = page.getByRole('form', { name: 'Write to simulate' });
    const object = await form.getByLabel('Object (YAML or JSON)').inputValue();
    await form.getByLabel('Object (YAML or JSON)').fill(object.replace(/nodeName: \S+/, `nodeName: ${missing}`));
    await form.getByRole('button', { name: 'Simulate' }).click();
    const warning = page.getByTestId('simulation-missing');
    await expect(warning).toBeVisible();
    await expect(warning).toContainText(`node ${missing} (spec.nodeName)`);
    // The source's own write says nothing of the kind.
    await form.getByLabel('Object (YAML or JSON)').fill(object);
    await form.getByRole('button', { name: 'Simulate' }).click();
    await expect(page.getByTestId('simulation-result')).toContainText('decided as');
    await expect(warning).toHaveCount(0);
  });

  test('a who-can answer is filtered by text, with a count', async ({ page, request }) => {
    const api = await request.get('/api/v1/who-can?verb=get&resource=nodes');
    const subjects = ((await api.json()) as { subjects: { subject: { kind: string; namespace?: string; name: string } }[] }).subjects;
    expect(subjects.length).toBeGreaterThan(10);
    const inKubeSystem = subjects.filter((s) => s.subject.namespace === 'kube-system').length;
    expect(inKubeSystem).toBeGreaterThan(0);
    await gotoAndSettle(page, '/explorer?mode=who-can&verb=get&resource=nodes', 'Who-can / can-i explorer');
    const results = page.getByTestId('who-can-results');
    await expect(results.getByTestId('who-can-count')).toHaveText(`Showing ${Math.min(20, subjects.length)} of ${subjects.length}`);
    await results.getByLabel('Filter subjects').fill('kube-system/');
    await expect(results.getByTestId('who-can-count')).toHaveText(`Showing ${inKubeSystem} of ${inKubeSystem} matching (${subjects.length} in all)`);
    await expect(results.locator('tbody tr')).toHaveCount(inKubeSystem);
    for (const row of await results.locator('tbody tr').all()) await expect(row).toContainText('kube-system');
    await results.getByLabel('Filter subjects').fill('no-such-subject');
    await expect(results).toContainText('No subject matches “no-such-subject”');
  });

  test('“simulate this write” on a who-can row fills the simulator with that subject and the question’s write', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/explorer?mode=who-can&verb=update&resource=resourceclaims%2Fbinding', 'Who-can / can-i explorer');
    const row = page.getByTestId('who-can-results').locator('tbody tr').filter({ hasText: 'tenant-b/batch-scheduler' });
    await row.getByRole('link', { name: /Simulate this write/ }).click();
    await expect(page).toHaveURL(/simKind=ServiceAccount/);
    const form = page.getByRole('form', { name: 'Write to simulate' });
    await expect(form.getByLabel('Sent by (username)')).toHaveValue('system:serviceaccount:tenant-b:batch-scheduler');
    await expect(form.getByLabel(/^Operation/)).toHaveValue('update');
    await expect(form.getByLabel('Part (e.g. status)')).toHaveValue('status');
    await expect(form.getByLabel('Object (YAML or JSON)')).toHaveValue(/kind: ResourceClaim/);
    await expect(form.getByTestId('simulate-note')).toContainText('resourceclaims/binding');
    // The question is still answered above it.
    await expect(page.getByTestId('who-can-results')).toContainText('tenant-b/batch-scheduler');
    await form.getByRole('button', { name: 'Simulate' }).click();
    const answer = page.getByTestId('simulation-result');
    await expect(answer).toContainText('Accepted');
    await expect(answer).toContainText('changes status.allocation or status.reservedFor');
    await expect(page.getByTestId('simulation-missing')).toHaveCount(0);
    await screenshot(page, 'explorer-simulate-this-write');
    expect(consoleErrors).toEqual([]);
  });

  test('bad questions get a clear error', async ({ page, request }) => {
    await page.goto('/explorer?mode=who-can&verb=up%3Cdate&resource=pods');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('verb');
    const res = await request.get('/api/v1/can-i?verb=get&resource=pods');
    expect(res.status()).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'bad_request', message: 'user: user is required' } });
  });
});
