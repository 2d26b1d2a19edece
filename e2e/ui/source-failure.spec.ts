import { expect, PAGES, test } from './fixtures';
import { BROKEN_URL } from './servers';

// Issue 25 item 4: a source that fails (here a --snapshot file that never reads) leaves every page
// rendering under the shell's banner, with the reason and the way to /sources; never an HTTP 500 or
// the generic error boundary; the API says 503 with the reason.

test('every page renders with the banner when the source cannot be read', async ({ page }) => {
  for (const { path, heading } of PAGES) {
    const res = await page.goto(`${BROKEN_URL}${path}`);
    expect(res?.status(), path).toBeLessThan(500);
    const banner = page.getByRole('alert').filter({ hasText: 'the cluster source could not be read' }).first();
    await expect(banner, path).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Choose another source' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
    await expect(page.getByText('This view could not be loaded'), path).toHaveCount(0);
  }
});

test('the API answers 503 with the reason, not 500', async ({ request }) => {
  const res = await request.get(`${BROKEN_URL}/api/v1/report`);
  expect(res.status()).toBe(503);
  const body = await res.json();
  expect(body.error.code).toBe('source_unavailable');
  expect(body.error.message).toMatch(/truncated\.json/);
});
