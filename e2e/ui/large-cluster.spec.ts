import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SnapshotListResponse } from '@/lib/compliance/snapshot-api';
import { largeClusterFile } from '../../scripts/bench/large-cluster-file';
import { expectExamplesNameSourceObjects } from './explorer-examples-check';
import { expect, gotoAndSettle, test } from './fixtures';
import { expectNoSidewaysScroll } from './page-width';
import { LARGE_URL } from './servers';
import { objectsOfList } from './source-objects';

// Issue 26 on the bench's large cluster (e2e/ui/large-server.ts: 10,000 nodes, 20,000 namespaces,
// 200,000 pods, diverse RBAC): the auditor's exports (which failed with "Maximum call stack size
// exceeded" at this size), snapshots taken and compared, the explorer's examples, and the phone
// layout. Nodes and graph have their own large specs.

test.use({ baseURL: LARGE_URL });
test.setTimeout(240_000);

// E2E_LARGE=0 leaves the large server out of a local run (playwright.config.ts); CI always runs it.
test.skip(process.env.E2E_LARGE === '0', 'the large-cluster server is left out (E2E_LARGE=0)');

test.describe('the large cluster', () => {
  test('the current report downloads as Markdown and as a bundle', async ({ request }) => {
    const md = await request.get('/api/v1/snapshots/current/markdown', { timeout: 180_000 });
    expect(md.status()).toBe(200);
    const text = await md.text();
    expect(text).toContain('## Summary');
    expect(text).toContain('## Issues, highest risk first');
    // Every node is in the node section: 10,000 generated plus the demo's own.
    expect(text.length).toBeGreaterThan(1_000_000);

    const bundle = await request.get('/api/v1/snapshots/current/bundle', { timeout: 180_000 });
    expect(bundle.status()).toBe(200);
    const bytes = await bundle.body();
    // A tar (ustar magic at offset 257) holding the whole cluster.
    expect(bytes.subarray(257, 262).toString('latin1')).toBe('ustar');
    expect(bytes.length).toBeGreaterThan(50_000_000);
  });

  test('two snapshots: each click answered while its bundle is stored, compared at once, then stored whole', async ({ page, request, consoleErrors }) => {
    // Two bundles of ~700 MiB are stored one after the other (15–35 s each on a loaded machine).
    test.setTimeout(480_000);
    await gotoAndSettle(page, '/snapshots', 'Snapshots');
    const history = page.getByRole('region', { name: 'History' });
    const rows = history.getByTestId('snapshot-row');
    const before = await rows.count();
    const take = history.getByRole('button', { name: 'Take snapshot' });

    // The row is there, marked as being taken, long before its bundle could be stored.
    await take.click();
    await expect(rows).toHaveCount(before + 1, { timeout: 10_000 });
    await expect(rows.first()).toContainText('Being taken');
    await expect(rows.first()).toContainText(/take-[0-9a-f]{12}/);
    await expect(history.getByRole('status')).toContainText(/Taking snapshot take-[0-9a-f]{12}: it can be compared now/);
    await expect(take).toBeEnabled();
    await take.click();
    await expect(rows).toHaveCount(before + 2, { timeout: 10_000 });

    // Compared by their digests while their bundles are stored: the same cluster, so nothing changed.
    const drift = page.getByRole('region', { name: 'Drift' });
    await drift.getByRole('button', { name: 'Compare' }).click();
    const view = drift.getByTestId('drift-view');
    await expect(view).toBeVisible({ timeout: 15_000 });
    await expect(view.getByText('Nothing changed')).toBeVisible();
    await expect(view).toContainText(/From (take|snap)-[0-9a-f]{12} \(.*\) to take-[0-9a-f]{12} \(/);

    // Both bundles stored whole (takes run one at a time), the page updating itself.
    await expect(history.getByRole('status')).toContainText(/Took snapshot snap-[0-9a-f]{12}\./, { timeout: 420_000 });
    await expect(history.getByText('Being taken')).toHaveCount(0);
    await expect(rows).toHaveCount(before + 2);
    const list = (await (await request.get('/api/v1/snapshots')).json()) as SnapshotListResponse;
    const [newest, older] = list.snapshots;
    expect(list.takes!.slice(0, 2).map((t) => [t.status, t.storedId])).toEqual([
      ['stored', newest!.id],
      ['stored', older!.id],
    ]);
    for (const s of [newest!, older!]) {
      expect(s.size).toBeGreaterThan(100 * 1024 * 1024);
      expect(s.findings).toBeGreaterThan(10_000);
      await expect(rows.filter({ hasText: s.id }).getByRole('link', { name: `Bundle (${(s.size / 1024 / 1024).toFixed(1)} MiB) of ${s.id}` })).toBeVisible();
    }
    // A stored snapshot's report reads back from its stored bundle.
    const md = await request.get(`/api/v1/snapshots/${newest!.id}/markdown`, { timeout: 180_000 });
    expect(md.status()).toBe(200);
    expect(await md.text()).toContain('## Issues, highest risk first');

    // Compared again as stored snapshots: the digests kept with them say the same.
    await drift.getByRole('button', { name: 'Compare' }).click();
    await expect(view).toContainText(`From ${older!.id} (${older!.takenAt}) to ${newest!.id} (${newest!.takenAt})`, { timeout: 30_000 });
    await expect(view.getByText('Nothing changed')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('the explorer’s examples and the simulator’s write name objects of this cluster', async ({ page, consoleErrors }) => {
    // The snapshot the large server serves (e2e/ui/large-server.ts): reading it beats exporting 300 MiB.
    const file = await largeClusterFile('diverse', join(import.meta.dirname, '..', '..', 'test-results', 'large-cluster'));
    const objects = objectsOfList(readFileSync(file, 'utf8'));
    expect(objects.nodes.size).toBeGreaterThan(10_000);
    await gotoAndSettle(page, '/explorer', 'Who-can / can-i explorer');
    const named = await expectExamplesNameSourceObjects(page, objects);
    // The node example asks about that node of this cluster and is answered.
    const node = new URL(named.node[0]!, 'http://x').searchParams.get('name')!;
    await page
      .getByRole('region', { name: 'Examples' })
      .getByRole('link', { name: `Who can patch the status of node ${node}?` })
      .click();
    await expect(page.getByTestId('who-can-results')).toContainText(`patch nodes/status named ${node}`, { timeout: 30_000 });
    expect(consoleErrors).toEqual([]);
  });

  test('the overview groups the digits of its counts (tens of thousands of findings, bindings, quotas)', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/', 'Posture overview');
    const grouped = /\d{1,3}(,\d{3})+/;
    await expect(page.getByText(/^[\d,]+ findings from \d+ checks$/)).toHaveText(new RegExp(`^${grouped.source} findings from`));
    const families = page.getByRole('list', { name: 'Findings by check family' });
    await expect(families.getByRole('link', { name: /^Quota/ })).toHaveText(new RegExp(`${grouped.source}$`));
    const views = page.getByRole('link', { name: /^Identity graph/ }).filter({ hasText: 'bindings' });
    await expect(views).toContainText(new RegExp(`${grouped.source} bindings`));
    expect(consoleErrors).toEqual([]);
  });

  test('a device class lists its findings once per check; thousands of one check link to exactly those', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/devices', 'Devices');
    const card = page.getByRole('region', { name: 'gpu.example.com', exact: true });
    const links = card.getByRole('link').filter({ hasText: /^(Critical|High|Medium|Low|Info)/ });
    const texts = await links.allInnerTexts();
    // One entry per check and severity: no check repeated (there were 20 QUOTA002 badges, then "and 3,343 more").
    const checks = texts.map((t) => /[A-Z]+\d{3}/.exec(t)![0]);
    expect(new Set(checks).size).toBe(checks.length);
    const quota = links.filter({ hasText: 'QUOTA002' });
    const count = Number(/([\d,]+) findings/.exec(await quota.innerText())![1].replace(/,/g, ''));
    expect(count).toBeGreaterThan(1000);
    await quota.click();
    await expect(page).toHaveURL(/\/findings\?/);
    await expect(page.getByText(/^[\d,]+ of [\d,]+ findings · /)).toContainText(`${count.toLocaleString('en-US')} of `);
    expect(consoleErrors).toEqual([]);
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });
    for (const { path, heading } of [
      { path: '/', heading: 'Posture overview' },
      { path: '/findings', heading: 'Findings' },
      { path: '/nodes', heading: 'Nodes' },
      { path: '/quotas', heading: 'Quotas' },
    ]) {
      test(`${path} fits the screen with 20,000 namespaces`, async ({ page, consoleErrors }) => {
        await gotoAndSettle(page, path, heading);
        await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
        await expectNoSidewaysScroll(page);
        expect(consoleErrors).toEqual([]);
      });
    }
  });
});
