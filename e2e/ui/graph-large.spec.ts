import type { Page } from '@playwright/test';
import { expect, gotoAndSettle, screenshot, test } from './fixtures';
import { LARGE_URL } from './servers';

// The identity graph on the bench's large cluster (e2e/ui/large-server.ts: 20,000 namespaces, ~50,000
// graph nodes). Measured before this design: the default view was 17 collapsed boxes with every edge
// orange, a focus drew 58 boxes with ~3 px text, and "Expand all groups" drew 36,987 boxes in 77 s
// without a warning.

test.use({ baseURL: LARGE_URL, viewport: { width: 1440, height: 900 } });
// A cold page on the large cluster may take a while on a busy machine.
test.setTimeout(120_000);

const boxes = (page: Page) => page.locator('.react-flow__node:not([data-id^="header:"])');

async function canvasZoom(page: Page): Promise<number> {
  return page.locator('.react-flow__viewport').evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);
}

// E2E_LARGE=0 leaves the large server out of a local run (playwright.config.ts); CI always runs it.
test.skip(process.env.E2E_LARGE === '0', 'the large-cluster server is left out (E2E_LARGE=0)');

test.describe('identity graph on the large cluster', () => {
  test('opens on the top risks’ paths: a few dozen boxes, not every edge orange', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph', 'Identity graph');
    await expect(page.getByRole('heading', { name: /^Attack paths of the top/ })).toBeVisible();
    await expect(boxes(page).first()).toBeVisible();
    expect(await boxes(page).count()).toBeLessThanOrEqual(40);
    expect(await page.locator('.react-flow__node.on-path').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('.react-flow__edge.flagged').count()).toBeLessThan(await page.locator('.react-flow__edge').count());
    expect((await canvasZoom(page)) * 12).toBeGreaterThanOrEqual(10);
    // The whole graph's ~50,000 boxes are counted with grouped digits, as every other count.
    await expect(page.getByRole('status').filter({ hasText: 'boxes shown' })).toContainText(/ · \d{1,3}(,\d{3})+ in the whole graph/);
    await screenshot(page, 'graph-large-top-risks');
    expect(consoleErrors).toEqual([]);
  });

  test('"Expand all groups" asks first, with the count of boxes, and draws nothing until agreed', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph?view=overview', 'Identity graph');
    await expect(boxes(page).first()).toBeVisible();
    await page.getByLabel('Expand all groups').click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(/This draws [\d,]+ boxes and may take a minute\. Draw anyway\?/, { timeout: 30_000 });
    const count = Number(/This draws ([\d,]+) boxes/.exec(await dialog.innerText())![1].replace(/,/g, ''));
    expect(count).toBeGreaterThan(1500);
    await expect(page.locator('.react-flow')).toHaveCount(0);
    await screenshot(page, 'graph-large-expand-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).not.toHaveURL(/all=1/);
    await expect(boxes(page).first()).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('search and focus on a wide role: legible, paged, within seconds', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph', 'Identity graph');
    // The role most bound in the generated cluster's diverse RBAC (seeded: the same names every run).
    const started = Date.now();
    await page.getByLabel('Focus on an identity, binding, role or resource').fill('gen-cr-20');
    await page
      .getByRole('list', { name: 'Matches' })
      .getByRole('button', { name: /(^|\W)gen-cr-20$/ })
      .click();
    await expect(page).toHaveURL(/focus=ClusterRole%3A%3Agen-cr-20/);
    await expect(boxes(page).filter({ hasText: 'gen-cr-20' }).first()).toBeVisible();
    const took = Date.now() - started;
    test.info().annotations.push({ type: 'search and focus', description: `${took} ms` });
    expect(await boxes(page).count()).toBeLessThanOrEqual(40);
    await expect(
      boxes(page)
        .filter({ hasText: /^\+ \d+ more/ })
        .first(),
    ).toBeVisible();
    expect((await canvasZoom(page)) * 12).toBeGreaterThanOrEqual(10);
    // Typing, the search's 200 ms pause, search, focus and drawing: well under the old 77 s; 2 s at
    // p50 is the bench's figure (scripts/bench/graph-bench.ts), this bound leaves room for a busy machine.
    expect(took).toBeLessThan(8000);
    await screenshot(page, 'graph-large-focus');
    expect(consoleErrors).toEqual([]);
  });

  test('the top issue’s path from the overview is drawn and highlighted, off-graph steps included', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/', 'Posture overview');
    // The highest-ranked risk with an attack path (on this cluster: a group reading every Secret, a
    // grant the identity graph does not hold, since it holds only grants that reach DRA resources).
    const risks = page.getByRole('list', { name: 'Top risks' }).locator(':scope > li');
    const rank = await risks.evaluateAll((lis) =>
      lis.findIndex((li) => [...li.querySelectorAll('summary')].some((s) => s.textContent?.startsWith('Attack path:'))),
    );
    expect(rank).toBeGreaterThanOrEqual(0);
    const top = risks.nth(rank);
    await top.getByText(/^Attack path:/).click();
    const steps = top.getByRole('list', { name: 'Attack path' });
    await expect(steps).toBeVisible();
    const via = /\(via (\w+) (\S+) → (\w+) (\S+)\)/.exec(await steps.innerText());
    expect(via).not.toBeNull();
    await top.getByRole('link', { name: 'Show the path on the graph →' }).click();
    await expect(page).toHaveURL(/\/graph\?path=[0-9a-f]{16}/);
    await expect(page.getByRole('heading', { name: 'One attack path' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /: 3 steps highlighted/ })).toBeVisible();
    const onPath = page.locator('.react-flow__node.on-path');
    await expect(onPath).toHaveCount(3);
    // The grant's binding and role are the ones the path names, drawn and joined by path edges.
    await expect(onPath.filter({ hasText: via![2].replace(/^.*\//, '') })).toHaveCount(1);
    await expect(onPath.filter({ hasText: via![4] })).toHaveCount(1);
    expect(await page.locator('.react-flow__edge.on-path').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'graph-large-top-issue-path');
    expect(consoleErrors).toEqual([]);
  });

  test('the collapsed overview shows where findings report grants: orange, dashed where only some grants behind an edge are', async ({
    page,
    consoleErrors,
  }) => {
    await gotoAndSettle(page, '/graph?view=overview', 'Identity graph');
    await expect(boxes(page).first()).toBeVisible();
    const edges = page.locator('.react-flow__edge');
    const reported = page.locator('.react-flow__edge.flagged, .react-flow__edge.partly-flagged');
    // ~10,000 grants of this cluster are cited by DRA, NODE and CLAIM findings; each edge between
    // groups mixes them with others, and "orange only when all are" left the overview with none.
    expect(await reported.count()).toBeGreaterThan(0);
    expect(await edges.count()).toBeGreaterThan(0);
    const partly = page.locator('.react-flow__edge.partly-flagged').first();
    await expect(partly).toHaveAttribute('aria-label', /\(findings report [\d,]+ of its [\d,]+ grants\)/);
    await expect(page.getByTestId('graph-legend')).toContainText('dashed orange: some of the grants behind the edge are reported');
    expect(consoleErrors).toEqual([]);
  });
});
