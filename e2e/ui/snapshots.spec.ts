import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { cspViolations, expect, gotoAndSettle, screenshot, seriousA11yViolations, test } from './fixtures';

// The Snapshots page: exports of the current source (the HTML report opens and renders offline, the
// bundle verifies with the CLI and loads back as a source), a history of stored snapshots, and the
// drift view between two of them after the source changed.

test.describe.configure({ mode: 'serial' });

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'demo', 'manifests');

/** The demo as one YAML file, without the cluster-wide nodes/status binding of the intel reporter. */
function editedDemoYaml(): Buffer {
  const text = readdirSync(DEMO)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => readFileSync(join(DEMO, f), 'utf8'))
    .join('\n---\n');
  const edited = text.replace(
    /apiVersion: rbac.authorization.k8s.io\/v1\nkind: ClusterRoleBinding\nmetadata:\n {2}name: intel-reporter-node-status\n[\s\S]*?\n---\n/,
    '',
  );
  expect(edited).not.toBe(text);
  return Buffer.from(edited);
}

async function download(page: Page, click: () => Promise<void>): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  expect(await dl.failure()).toBeNull();
  const path = test.info().outputPath(dl.suggestedFilename());
  await dl.saveAs(path);
  return path;
}

async function resetSource(page: Page, baseURL: string): Promise<void> {
  const res = await page.request.post('/api/v1/sources/reset', { headers: { Origin: baseURL } });
  expect(res.status()).toBe(200);
}

test('the page renders, passes axe and is in the navigation', async ({ page, consoleErrors }) => {
  await gotoAndSettle(page, '/snapshots', 'Snapshots');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Snapshots/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Export the current source' })).toBeVisible();
  await screenshot(page, 'snapshots');
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(consoleErrors).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});

test('exports: the HTML report renders offline; the bundle verifies and loads back as a source', async ({ page, baseURL, consoleErrors }) => {
  await gotoAndSettle(page, '/snapshots', 'Snapshots');
  const exportPanel = page.getByRole('region', { name: 'Export the current source' });

  const html = await download(page, () => exportPanel.getByRole('link', { name: 'HTML report' }).click());
  expect(html).toMatch(/\.html$/);
  const csv = readFileSync(await download(page, () => exportPanel.getByRole('link', { name: 'Findings CSV' }).click()), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('id,check,severity,title,subjects,objects,message,evidence,remediation,issue');
  const md = readFileSync(await download(page, () => exportPanel.getByRole('link', { name: 'Markdown' }).click()), 'utf8');
  expect(md.startsWith('# DRA posture report\n')).toBe(true);
  const bundle = await download(page, () => exportPanel.getByRole('link', { name: 'Bundle (.tar)' }).click());

  // The HTML report, opened from disk: cover, chart, ranked issues, findings by issue, node writers, quotas, zeroing.
  const report = await page.context().newPage();
  const blocked: string[] = [];
  report.on('request', (r) => {
    if (!r.url().startsWith('file:')) blocked.push(r.url());
  });
  await report.goto(pathToFileURL(html).href);
  await expect(report.getByRole('heading', { level: 1, name: 'DRA posture report' })).toBeVisible();
  await expect(report.getByRole('img', { name: /Findings by severity: 3 critical, 22 high/ })).toBeVisible();
  for (const h of ['Issues, highest risk first', 'Findings by issue', 'Checks with findings', 'Node writers', 'DRA quotas', 'Device zeroing']) {
    await expect(report.getByRole('heading', { level: 2, name: h, exact: true })).toBeVisible();
  }
  // Issues lead, highest risk first: the first row is the demo's top issue (demo/EXPECTED.md §7).
  await expect(report.locator('#issues tbody tr').first()).toContainText('DRA001');
  await expect(report.locator('article.finding')).toHaveCount(62);
  await expect(report.locator('script')).toHaveCount(0);
  await report.screenshot({ path: 'test-results/screenshots/snapshots-html-cover.png' });
  await report.locator('article.finding').nth(1).screenshot({ path: 'test-results/screenshots/snapshots-html-finding.png' });
  await report.locator('#node-writers').screenshot({ path: 'test-results/screenshots/snapshots-html-nodes.png' });
  expect(blocked).toEqual([]);
  await report.close();

  // The bundle verifies with the CLI...
  const out = execFileSync(process.execPath, [join(ROOT, 'bin', 'dra-posture.mjs'), 'verify', bundle], { encoding: 'utf8' });
  expect(out).toMatch(/verified: 6 entries match the manifest/);
  // ...and is a snapshot source on the Sources page.
  try {
    await page.goto('/sources');
    await page.getByLabel('Snapshot file (JSON, YAML or a .tar bundle)').setInputFiles(bundle);
    await page.getByRole('button', { name: 'Use this snapshot' }).click();
    await expect(page.getByRole('region', { name: 'Data source' })).toContainText('.tar');
    await page.goto('/');
    await expect(page.getByRole('main')).toContainText('62');
  } finally {
    await resetSource(page, baseURL!);
  }
  expect(consoleErrors).toEqual([]);
});

test('two snapshots, a change in between, and the drift view', async ({ page, baseURL, consoleErrors }) => {
  await gotoAndSettle(page, '/snapshots', 'Snapshots');
  const history = page.getByRole('region', { name: 'History' });
  const rows = history.getByTestId('snapshot-row');
  const before = await rows.count();

  await history.getByRole('button', { name: 'Take snapshot' }).click();
  await expect(rows).toHaveCount(before + 1);
  await expect(history.getByRole('status')).toContainText('Took snapshot snap-');

  try {
    await page.goto('/sources');
    await page
      .getByLabel('Snapshot file (JSON, YAML or a .tar bundle)')
      .setInputFiles({ name: 'edited-demo.yaml', mimeType: 'text/yaml', buffer: editedDemoYaml() });
    await page.getByRole('button', { name: 'Use this snapshot' }).click();
    await expect(page.getByRole('region', { name: 'Data source' })).toContainText('edited-demo.yaml');

    await gotoAndSettle(page, '/snapshots', 'Snapshots');
    await history.getByRole('button', { name: 'Take snapshot' }).click();
    await expect(rows).toHaveCount(before + 2);
  } finally {
    await resetSource(page, baseURL!);
  }

  // Defaults compare the two newest, older first.
  const drift = page.getByRole('region', { name: 'Drift' });
  await drift.getByRole('button', { name: 'Compare' }).click();
  const view = drift.getByTestId('drift-view');
  await expect(view).toBeVisible();
  await expect(view.getByRole('heading', { name: 'Resolved findings (1)' })).toBeVisible();
  await expect(view.getByRole('heading', { name: 'New findings (0)' })).toBeVisible();
  await expect(view).toContainText('NODE001');
  await expect(view).toContainText('ServiceAccount kube-system/intel-reporter');
  await expect(view).toContainText('update nodes/status [any node]');
  await expect(view.getByRole('heading', { name: 'Node writer changes (1)' })).toBeVisible();
  await screenshot(page, 'snapshots-drift');
  expect(await seriousA11yViolations(page)).toEqual([]);

  // A stored snapshot's HTML downloads from the history and is the same report.
  const stored = await download(page, () =>
    rows
      .first()
      .getByRole('link', { name: /^HTML report of snap-/ })
      .click(),
  );
  expect(readFileSync(stored, 'utf8')).toContain('edited-demo.yaml');
  expect(consoleErrors).toEqual([]);
});

test('taking a snapshot refuses cross-origin requests and unknown options', async ({ request, baseURL }) => {
  const cross = await request.post('/api/v1/snapshots', { headers: { Origin: 'https://evil.example' } });
  expect(cross.status()).toBe(403);
  const bad = await request.post('/api/v1/snapshots', { headers: { Origin: baseURL!, 'Content-Type': 'application/json' }, data: { path: '/etc/passwd' } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.code).toBe('bad_request');
  const missing = await request.get('/api/v1/snapshots/snap-000000000000/html');
  expect(missing.status()).toBe(404);
  const badPart = await request.get('/api/v1/snapshots/snap-000000000000/exe');
  expect(badPart.status()).toBe(400);
});
