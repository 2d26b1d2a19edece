import { expect, gotoAndSettle, test } from './fixtures';

// "Simulate this write" on a who-can row while the server is slow (issue #26: on the large cluster the
// bench lost the answer in 4 of 6 runs). The form showed the page's opening write until the row's
// write arrived; a reader who pressed Simulate in between was answered about the opening write, and
// the late prefill then replaced the form and hid that answer.

const SLOW_MS = 1500;

test('“simulate this write” on a slow server: the form waits for the row’s write, and the answer is about it and stays', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/explorer?mode=who-can&verb=update&resource=resourceclaims%2Fbinding', 'Who-can / can-i explorer');
  const row = page.getByTestId('who-can-results').locator('tbody tr').filter({ hasText: 'tenant-b/batch-scheduler' });
  await expect(row).toBeVisible();
  // From here on every request of the page (renders and API calls, not static files) is slow.
  await page.route(
    (url) => !url.pathname.startsWith('/_next/static/'),
    async (route) => {
      await new Promise((r) => setTimeout(r, SLOW_MS));
      await route.continue();
    },
  );
  await row.getByRole('link', { name: /Simulate this write/ }).click();
  const form = page.getByRole('form', { name: 'Write to simulate' });
  // The reader presses Simulate straight away (Playwright waits while the button is disabled).
  await form.getByRole('button', { name: 'Simulate' }).click();
  const user = 'system:serviceaccount:tenant-b:batch-scheduler';
  await expect(form.getByLabel('Sent by (username)')).toHaveValue(user, { timeout: 10 * SLOW_MS });
  const answer = page.getByTestId('simulation-result');
  await expect(answer).toContainText(`decided as ${user}`, { timeout: 10 * SLOW_MS });
  await expect(answer).toContainText('Accepted');
  // Nothing arriving later takes it away or refills the form.
  await page.waitForTimeout(3 * SLOW_MS);
  await expect(answer).toContainText(`decided as ${user}`);
  await expect(form.getByLabel('Sent by (username)')).toHaveValue(user);
  await expect(page).toHaveURL(/simKind=ServiceAccount/);
  expect(consoleErrors).toEqual([]);
});
