import { expect, gotoAndSettle, test } from './fixtures';

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

  test('bad questions get a clear error', async ({ page, request }) => {
    await page.goto('/explorer?mode=who-can&verb=up%3Cdate&resource=pods');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('verb');
    const res = await request.get('/api/v1/can-i?verb=get&resource=pods');
    expect(res.status()).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'bad_request', message: 'user: user is required' } });
  });
});
