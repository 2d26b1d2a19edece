import { join } from 'node:path';
import { expect, test } from './fixtures';

// Uploading a snapshot switches every view to it; a broken file is refused with a clear error and
// changes nothing; the route refuses cross-origin requests.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'upload');

test.describe.configure({ mode: 'serial' });

test('a good snapshot becomes the source; a broken one is refused and changes nothing', async ({ page, consoleErrors }) => {
  await page.goto('/sources');
  await expect(page.getByRole('heading', { name: 'Sources', level: 1 })).toBeVisible();
  await page.getByLabel('Snapshot file (JSON, YAML or a .tar bundle)').setInputFiles(join(FIXTURES, 'good.yaml'));
  await page.getByRole('button', { name: 'Use this snapshot' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Now showing snapshot good.yaml' })).toBeVisible();
  const banner = page.getByRole('region', { name: 'Data source' });
  await expect(banner).toContainText('Snapshot');
  await expect(banner).toContainText('good.yaml');

  // The findings now come from the uploaded file.
  await page.goto('/findings');
  await expect(page.locator('option[value="Group//uploaded-ops"]')).toHaveCount(1);
  await expect(page.locator('option[value="Group//gpu-ops"]')).toHaveCount(0);

  await page.goto('/sources');
  await page.getByLabel('Snapshot file (JSON, YAML or a .tar bundle)').setInputFiles(join(FIXTURES, 'bad.json'));
  await page.getByRole('button', { name: 'Use this snapshot' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Not loaded' });
  await expect(alert).toContainText('bad.json');
  await expect(alert).toContainText('rules[0].verbs');
  await expect(page.getByRole('region', { name: 'Data source' })).toContainText('good.yaml');

  await page.getByRole('button', { name: 'Back to the configured source' }).click();
  await expect(page.getByRole('region', { name: 'Data source' })).toContainText('Demo');
  // The failed upload answers 400 (logged by the browser as a failed resource); nothing else.
  expect(consoleErrors.filter((e) => !e.includes('400'))).toEqual([]);
});

test('the upload route refuses cross-origin and Origin: null requests', async ({ request, baseURL }) => {
  for (const origin of ['https://evil.example', 'null']) {
    const res = await request.post('/api/v1/sources/upload?name=x.json', { headers: { Origin: origin, 'Content-Type': 'application/json' }, data: '{}' });
    expect(res.status()).toBe(403);
    expect((await res.json()).error.code).toBe('forbidden');
  }
  const ok = await request.post('/api/v1/sources/reset', { headers: { Origin: baseURL! } });
  expect(ok.status()).toBe(200);
});
