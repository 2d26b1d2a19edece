import type { Page } from '@playwright/test';
import { expect, gotoAndSettle, screenshot, test } from './fixtures';

/** The entity boxes drawn (not the column headers). */
const boxes = (page: Page) => page.locator('.react-flow__node:not([data-id^="header:"])');

/** The zoom the canvas is drawn at (React Flow's viewport transform). */
async function canvasZoom(page: Page): Promise<number> {
  return page.locator('.react-flow__viewport').evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a);
}

test.describe('identity graph', () => {
  test('opens on the attack paths of the top risks, says what it shows, and switches to the collapsed overview', async ({ page, consoleErrors }) => {
    // The overview's first top risk, and the boxes its own attack-path view highlights.
    await gotoAndSettle(page, '/', 'Posture overview');
    const first = page.getByRole('list', { name: 'Top risks' }).locator(':scope > li').first();
    const issueId = (await first.getAttribute('data-issue'))!;
    await page.goto(`/graph?path=${issueId}`);
    const pathBoxes = page.locator('.react-flow__node.on-path');
    await expect(pathBoxes.first()).toBeVisible();
    const pathTitles = (await pathBoxes.locator('span.truncate.font-medium[title]').evaluateAll((els) => els.map((e) => e.getAttribute('title')))).sort();
    expect(pathTitles.length).toBeGreaterThanOrEqual(3);

    await gotoAndSettle(page, '/graph', 'Identity graph');
    const legend = page.getByTestId('graph-legend');
    await expect(legend.getByRole('heading', { name: /^Attack paths of the top/ })).toBeVisible();
    const drawnRisks = legend.getByRole('list', { name: 'Top risks drawn' }).getByRole('listitem');
    await expect(drawnRisks.first().getByRole('link').first()).toHaveAttribute('href', `/findings?issue=${issueId}`);
    // Every box of the top risk's path is drawn and labelled #1; edges of the path are highlighted.
    const rankOne = boxes(page).filter({ has: page.locator('[data-path-ranks~="1"]') });
    const rankOneTitles = (await rankOne.locator('span.truncate.font-medium[title]').evaluateAll((els) => els.map((e) => e.getAttribute('title')))).sort();
    expect(rankOneTitles).toEqual(pathTitles);
    expect(await page.locator('.react-flow__edge.on-path').count()).toBeGreaterThanOrEqual(2);
    await expect(legend.getByRole('list', { name: 'Colours' })).toContainText('orange: a grant a finding reports');
    await screenshot(page, 'graph-top-risks');

    await legend.getByRole('button', { name: 'Show the collapsed overview' }).click();
    await expect(page).toHaveURL(/view=overview/);
    const canvas = page.locator('.react-flow');
    await expect(canvas.getByText('(collapsed)').first()).toBeVisible();
    await expect(canvas.getByText('resourceclaims/binding', { exact: true })).toBeVisible();
    // Orange is for grants a finding reports: some edges, not every edge that leads to a sensitive write.
    const reported = await page.locator('.react-flow__edge.flagged').count();
    expect(reported).toBeGreaterThan(0);
    expect(reported).toBeLessThan(await page.locator('.react-flow__edge.risky').count());
    await canvas.locator('.react-flow__node').filter({ hasText: 'ClusterRoles (collapsed)' }).click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await details.getByRole('button', { name: 'Expand this group' }).click();
    await expect(page).toHaveURL(/expand=/);
    await expect(canvas.getByText('custom-allocator', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Show the top risks’ paths' }).click();
    await expect(page.getByRole('heading', { name: /^Attack paths of the top/ })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  // The demo's whole graph is ~100 boxes, below the 1,500 a view may draw without asking: the
  // confirmAbove query parameter lowers the threshold for this page (it can only lower it).
  test('expanding everything asks first, saying how many boxes, and draws exactly that many only when agreed', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph?view=overview&confirmAbove=40', 'Identity graph');
    await expect(boxes(page).first()).toBeVisible();
    await page.getByLabel('Expand all groups').click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText(/This draws [\d,]+ boxes and may take a minute\. Draw anyway\?/);
    const count = Number(/This draws ([\d,]+) boxes/.exec(await dialog.innerText())![1].replace(/,/g, ''));
    expect(count).toBeGreaterThan(40);
    // Nothing is drawn while it asks.
    await expect(page.locator('.react-flow')).toHaveCount(0);
    await screenshot(page, 'graph-expand-confirm');

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).not.toHaveURL(/all=1/);
    await expect(boxes(page).filter({ hasText: '(collapsed)' }).first()).toBeVisible();

    await page.getByLabel('Expand all groups').click();
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: `Draw ${count} boxes` })
      .click();
    await expect(page).toHaveURL(new RegExp(`draw=${count}`));
    await expect(boxes(page)).toHaveCount(count);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('a focus with many neighbours stays legible: long columns paged behind "+ N more", opened on demand, text 10 px or more', async ({
    page,
    consoleErrors,
  }) => {
    // Every role that touches resourceclaims, the bindings to them and their subjects.
    await gotoAndSettle(page, '/graph?focus=Resource%3A%3Aresourceclaims', 'Identity graph');
    await expect(boxes(page).first()).toBeVisible();
    expect(await boxes(page).count()).toBeLessThanOrEqual(40);
    const more = boxes(page).filter({ hasText: /^\+ \d+ more/ });
    expect(await more.count()).toBeGreaterThanOrEqual(1);
    // The smallest text of a box is 12 px at zoom 1.
    expect((await canvasZoom(page)) * 12).toBeGreaterThanOrEqual(10);
    await expect(page.getByRole('status').filter({ hasText: 'boxes shown' })).toContainText('more behind');
    await screenshot(page, 'graph-focus-paged');

    const hiddenTotal = async () =>
      (
        await boxes(page)
          .filter({ hasText: /^\+ \d+ more/ })
          .allInnerTexts()
      )
        .map((t) => Number(/\+ (\d+) more/.exec(t)![1]))
        .reduce((a, b) => a + b, 0);
    const before = await hiddenTotal();
    await more.first().click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await details.getByRole('button', { name: /^Show \d+ more$/ }).click();
    await expect(page).toHaveURL(/show=/);
    // More boxes of that column are drawn; fewer stand behind "+ N more".
    await expect.poll(hiddenTotal).toBeLessThan(before);
    expect((await canvasZoom(page)) * 12).toBeGreaterThanOrEqual(10);
    expect(consoleErrors).toEqual([]);
  });

  test('search focuses one identity and an edge explains why it exists', async ({ page, consoleErrors }) => {
    await gotoAndSettle(page, '/graph', 'Identity graph');
    await page.getByLabel('Focus on an identity, binding, role or resource').fill('batch-sched');
    await page
      .getByRole('list', { name: 'Matches' })
      .getByRole('button', { name: /tenant-b\/batch-scheduler/ })
      .click();
    await expect(page).toHaveURL(/focus=ServiceAccount%3Atenant-b%3Abatch-scheduler/);

    const canvas = page.locator('.react-flow');
    await expect(canvas.getByText('tenant-b-batch-scheduler', { exact: true })).toBeVisible();
    await expect(canvas.getByText('custom-allocator', { exact: true })).toBeVisible();
    await expect(canvas.getByText('resourceclaims/binding', { exact: true })).toBeVisible();
    // Paths of other identities are gone.
    await expect(canvas.getByText('gpu-ops-wildcard')).toHaveCount(0);

    // Select the role, then ask why its edge to resourceclaims/binding exists.
    await canvas.locator('.react-flow__node').filter({ hasText: 'custom-allocator' }).click();
    const details = page.getByRole('complementary', { name: 'Details' });
    await expect(details.getByRole('heading', { name: 'custom-allocator' })).toBeVisible();
    await details.getByRole('button', { name: 'Why: this to resourceclaims/binding' }).click();
    const why = page.getByTestId('edge-why');
    await expect(why).toContainText('ClusterRole custom-allocator rule #');
    await expect(why).toContainText('resourceclaims/binding');
    await expect(why).toContainText('On a risky path');
    await screenshot(page, 'graph-focus');

    // The binding → role edge names the binding's roleRef; clicking the edge itself works too.
    await canvas.locator('.react-flow__edge.risky').first().click({ force: true });
    await expect(page.getByTestId('edge-why')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('risky-only view keeps only risky edges', async ({ page }) => {
    await gotoAndSettle(page, '/graph?all=1', 'Identity graph');
    const edges = page.locator('.react-flow__edge');
    await expect(edges.first()).toBeVisible();
    const all = await edges.count();
    await page.getByLabel('Risky paths only').click();
    await expect(page.getByLabel('Risky paths only')).toBeChecked();
    await expect(page).toHaveURL(/risky=1/);
    await expect.poll(async () => page.locator('.react-flow__edge').count()).toBeLessThan(all);
    await expect(page.locator('.react-flow__edge:not(.risky)')).toHaveCount(0);
  });

  test('an unknown focus shows an error, not a crash', async ({ page }) => {
    await page.goto('/graph?focus=User%3A%3Anobody-at-all');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('not in the identity graph');
  });
});
