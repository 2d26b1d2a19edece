import { join } from 'node:path';
import { podListYaml } from '../../server/sources/__fixtures__/pod-list-yaml';
import { expect, test } from './fixtures';

// Uploading a snapshot switches every view to it; a broken file is refused with a clear error and
// changes nothing; the route refuses cross-origin requests; a large upload is parsed off the event
// loop (in a worker thread the built server must find), so other requests keep being answered.
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
  // The subject filter suggests the subjects of the uploaded file's findings, not the demo's.
  await page.getByLabel('Subject', { exact: true }).fill('ops');
  await expect(page.locator('#filter-subject-options option[value="Group uploaded-ops"]')).toHaveCount(1);
  await expect(page.locator('#filter-subject-options option[value="Group gpu-ops"]')).toHaveCount(0);

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

test('the server keeps answering while a large upload is parsed, and the upload, bad at its end, changes nothing', async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  // ~6 MB of YAML that takes seconds to parse; its last pod is invalid, so it is refused only after
  // all of it was parsed, and the shared demo server keeps its source.
  const yaml = podListYaml(25_000, '- apiVersion: v1\n  kind: Pod\n  metadata: {name: last, namespace: ns-0}\n  spec: {containers: 7}\n');
  const before = (await (await request.get('/api/v1/report')).json()).source;
  let uploading = true;
  const t0 = Date.now();
  const uploaded = request
    .post('/api/v1/sources/upload?name=large.yaml', { headers: { Origin: baseURL!, 'Content-Type': 'application/yaml' }, data: yaml, timeout: 120_000 })
    .finally(() => (uploading = false));
  const small: { path: string; ms: number; status: number }[] = [];
  for (let i = 0; uploading; i++) {
    const path = i % 3 === 2 ? '/api/v1/report' : '/api/healthz';
    const started = Date.now();
    const res = await request.get(path);
    await res.body();
    small.push({ path, ms: Date.now() - started, status: res.status() });
    await new Promise((r) => setTimeout(r, 100));
  }
  const res = await uploaded;
  const took = Date.now() - t0;
  expect(res.status()).toBe(400);
  const error = (await res.json()).error;
  expect(error.code).toBe('invalid_snapshot');
  expect(error.message).toMatch(/^large\.yaml: document 1, item 25000 \(Pod "ns-0\/last"\): spec\.containers/);
  expect((await (await request.get('/api/v1/report')).json()).source).toEqual(before);
  expect(took, 'the upload parsed too fast for this test to tell where it ran').toBeGreaterThan(1500);
  expect(small.filter((s) => s.status !== 200 || s.ms >= 1000)).toEqual([]);
  expect(small.length).toBeGreaterThanOrEqual(5);
});
