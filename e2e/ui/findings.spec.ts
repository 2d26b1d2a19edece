import { expect, gotoAndSettle, screenshot, test } from './fixtures';

test.describe('findings list', () => {
  test('filters by severity and keeps the filter in the URL', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/findings', 'Findings');
    const rows = page.getByRole('table', { name: 'Findings' }).locator('tbody tr');
    const total = await rows.count();
    expect(total).toBeGreaterThan(20);

    await page.getByRole('button', { name: /^Critical/ }).click();
    await expect(page).toHaveURL(/severity=critical/);
    await expect(page.getByRole('button', { name: /^Critical/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(rows.locator('td:first-child').filter({ hasNotText: 'Critical' })).toHaveCount(0);
    const critical = await rows.count();
    expect(critical).toBeGreaterThan(0);
    expect(critical).toBeLessThan(total);

    // The URL alone reproduces the view.
    await page.reload();
    await expect(page.getByRole('button', { name: /^Critical/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(rows).toHaveCount(critical);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(rows).toHaveCount(total);
    expect(consoleErrors).toEqual([]);
  });

  test('filters by check, namespace and subject, and sorts', async ({ page }) => {
    await gotoAndSettle(page, '/findings', 'Findings');
    const rows = page.getByRole('table', { name: 'Findings' }).locator('tbody tr');

    await page.getByLabel('Check', { exact: true }).selectOption('DRA007');
    await expect(page).toHaveURL(/check=DRA007/);
    await expect(rows.locator('td:nth-child(2)').filter({ hasNotText: 'DRA007' })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'tenant-b/batch-scheduler' })).toHaveCount(1);

    await page.getByLabel('Check', { exact: true }).selectOption('');
    // A searchable field, not a dropdown of every namespace: a partial name suggests, a full one filters.
    const namespace = page.getByLabel('Namespace', { exact: true });
    await namespace.fill('tenant-');
    await expect(page).not.toHaveURL(/namespace=/);
    await expect(page.locator('#filter-namespace-options option[value="tenant-c"]')).toBeAttached();
    await namespace.fill('no-such-namespace');
    await expect(page.getByText('No finding names a namespace “no-such-namespace”')).toBeVisible();
    await namespace.fill('tenant-c');
    await expect(page).toHaveURL(/namespace=tenant-c/);
    await expect(rows.locator('td:nth-child(5)').filter({ hasNotText: 'tenant-c' })).toHaveCount(0);
    await expect(rows.first()).toBeVisible();

    await namespace.fill('');
    await expect(page).not.toHaveURL(/namespace=/);
    // The subject filter is a searchable field too (5,421 subjects on the large cluster).
    const subject = page.getByLabel('Subject', { exact: true });
    await subject.fill('gpu-o');
    await expect(page.locator('#filter-subject-options option[value="Group gpu-ops"]')).toBeAttached();
    await expect(page).not.toHaveURL(/subject=/);
    await subject.fill('Group gpu-ops');
    await expect(page).toHaveURL(/subject=Group/);
    await expect(rows.locator('td:nth-child(4)').filter({ hasNotText: 'gpu-ops' })).toHaveCount(0);
    await expect(rows.first()).toBeVisible();

    await subject.fill('');
    await expect(page).not.toHaveURL(/subject=/);
    await page.getByLabel('Sort by', { exact: true }).selectOption('check');
    await expect(page).toHaveURL(/sort=check/);
    await expect
      .poll(async () => {
        const checks = await rows.locator('td:nth-child(2)').allTextContents();
        return checks.length > 20 && checks.join() === [...checks].sort().join();
      })
      .toBe(true);
  });

  test('text search narrows the list', async ({ page }) => {
    await gotoAndSettle(page, '/findings?q=impersonat', 'Findings');
    const rows = page.getByRole('table', { name: 'Findings' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    await expect(page.getByRole('searchbox')).toHaveValue('impersonat');
    await page.getByRole('searchbox').fill('no finding mentions this');
    await expect(page.getByText('No finding matches these filters')).toBeVisible();
  });
});

test.describe('finding detail', () => {
  test('shows evidence binding → role → rule and remediation YAML with a copy button', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/findings?check=DRA007', 'Findings');
    await page.getByRole('table', { name: 'Findings' }).locator('tbody tr').filter({ hasText: 'tenant-b/batch-scheduler' }).getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('resourceclaims/binding');
    const evidence = page.getByRole('region', { name: 'Evidence' });
    await expect(evidence).toContainText('tenant-b-batch-scheduler');
    await expect(evidence).toContainText('custom-allocator');
    await expect(evidence).toContainText(/rule #\d+/);
    await expect(evidence).toContainText('resourceclaims/binding');
    const remediation = page.getByRole('region', { name: 'Remediation' });
    await expect(remediation).toBeVisible();
    await expect(page.getByRole('region', { name: 'Subjects' })).toContainText('tenant-b/batch-scheduler');
    await screenshot(page, 'finding-detail');
    expect(consoleErrors).toEqual([]);
  });

  test('remediation YAML can be copied', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await gotoAndSettle(page, '/findings?check=DRA001', 'Findings');
    await page.getByRole('table', { name: 'Findings' }).locator('tbody a').first().click();
    const copy = page.getByRole('button', { name: /Copy yaml/i });
    await expect(copy).toBeVisible();
    await copy.click();
    await expect(copy).toContainText('copied');
    const text = await page.evaluate(() => navigator.clipboard.readText());
    expect(text).toContain('kind: ClusterRole');
  });

  test('an unknown finding id is a 404', async ({ page, request }) => {
    const res = await page.goto('/findings/does-not-exist');
    expect(res?.status()).toBe(404);
    const api = await request.get('/api/v1/findings/does-not-exist');
    expect(api.status()).toBe(404);
    expect(await api.json()).toEqual({ error: { code: 'not_found', message: 'no finding with id "does-not-exist"' } });
  });
});
