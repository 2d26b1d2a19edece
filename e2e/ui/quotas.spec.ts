import type { Report } from '@/lib/analysis/types';
import { expect, gotoAndSettle, screenshot, test } from './fixtures';

// Issue 26: the quota page at scale. Quota gaps (namespace/class pairs without a quota) come first,
// and the one namespace filter narrows everything on the page: gaps, chart, table and counts.

const gapNamespace = (f: Report['findings'][number]) => f.objects.find((o) => o.kind === 'Namespace')?.name;

async function gapsOf(request: import('@playwright/test').APIRequestContext) {
  const report = (await (await request.get('/api/v1/report')).json()) as Report;
  return { report, gaps: report.findings.filter((f) => f.check === 'QUOTA001' || f.check === 'QUOTA002') };
}

test.describe('quotas', () => {
  test('quota gaps come first, grouped, with the counts of the report', async ({ page, request, consoleErrors }) => {
    const { gaps } = await gapsOf(request);
    expect(gaps.length).toBeGreaterThan(0);
    await gotoAndSettle(page, '/quotas', 'Quotas');
    // Panel headings in page order: the gaps before the usage chart and the table.
    const panels = await page
      .getByRole('main')
      .locator('h2[id]')
      .evaluateAll((els) => els.map((e) => e.id));
    expect(panels.indexOf('quota-gaps-heading')).toBeGreaterThanOrEqual(0);
    expect(panels.indexOf('quota-gaps-heading')).toBeLessThan(panels.indexOf('quota-chart-heading'));
    expect(panels.indexOf('quota-gaps-heading')).toBeLessThan(panels.indexOf('quota-table-heading'));
    const list = page.getByTestId('quota-gaps');
    const groups = list.getByTestId('quota-gap-group');
    // One group for the claim count (QUOTA001) and one per DeviceClass (QUOTA002).
    const classes = new Set(gaps.filter((f) => f.check === 'QUOTA002').map((f) => f.objects.find((o) => o.kind === 'DeviceClass')!.name));
    const claimGroup = gaps.some((f) => f.check === 'QUOTA001') ? 1 : 0;
    await expect(groups).toHaveCount(classes.size + claimGroup);
    for (const cls of classes) {
      const n = gaps.filter((f) => f.check === 'QUOTA002' && f.objects.some((o) => o.kind === 'DeviceClass' && o.name === cls)).length;
      await expect(groups.filter({ hasText: `DeviceClass ${cls}` })).toContainText(`${n} namespace${n === 1 ? '' : 's'}`);
    }
    await expect(page.getByText('Quota gaps', { exact: true }).locator('..')).toContainText(String(gaps.length));
    expect(consoleErrors).toEqual([]);
  });

  test('the namespace filter narrows the gaps, the chart and the table together', async ({ page, request }) => {
    const { report, gaps } = await gapsOf(request);
    // A namespace with both quotas and gaps, from the report.
    const ns = [...new Set(report.quotas.map((q) => q.namespace))].find((n) => gaps.some((f) => gapNamespace(f) === n));
    expect(ns).toBeDefined();
    const gapsHere = gaps.filter((f) => gapNamespace(f) === ns);
    const otherGapNamespaces = new Set(gaps.map(gapNamespace).filter((n) => n !== ns));
    expect(otherGapNamespaces.size).toBeGreaterThan(0);

    await gotoAndSettle(page, '/quotas', 'Quotas');
    const chart = page.getByRole('region', { name: 'Usage against hard limit' });
    // Unfiltered, the chart shows other namespaces' quotas too.
    const otherQuotaNamespaces = [...new Set(report.quotas.map((q) => q.namespace))].filter((n) => n !== ns);
    expect(otherQuotaNamespaces.length).toBeGreaterThan(0);
    await expect(
      chart
        .locator('svg text')
        .filter({ hasText: `${otherQuotaNamespaces[0]} ·` })
        .first(),
    ).toBeAttached();

    await page.getByRole('search', { name: 'Filter quotas' }).getByLabel('Namespace').fill(ns!);
    await expect(page).toHaveURL(new RegExp(`namespace=${ns}`));
    await expect(page.getByRole('heading', { name: `Quota gaps of namespace ${ns}` })).toBeVisible();

    // Gaps: only this namespace's, as many as the report has.
    const chips = page.getByTestId('quota-gaps').getByRole('link');
    await expect(chips).toHaveCount(gapsHere.length);
    for (const chip of await chips.all()) await expect(chip).toContainText(ns!);
    // Chart: only this namespace's quotas (its bars' labels are "<namespace> · <what>").
    const labels = chart.locator('svg text').filter({ hasText: ' · ' });
    await expect(labels.first()).toBeAttached();
    for (const t of await labels.allTextContents()) expect(t.startsWith(`${ns} ·`)).toBe(true);
    // Table: one namespace group.
    await expect(page.getByRole('region', { name: `Quotas of namespace ${ns}` }).getByRole('rowheader')).toHaveText([ns!]);
    await expect(page.getByText('DRA quotas', { exact: true }).locator('..')).toContainText(String(report.quotas.filter((q) => q.namespace === ns).length));
    await screenshot(page, 'quotas-filtered');

    await page.getByRole('link', { name: 'All namespaces' }).click();
    await expect(page).not.toHaveURL(/namespace=/);
    await expect(page.getByTestId('quota-gaps').getByRole('link')).toHaveCount(gaps.length);
  });
});
