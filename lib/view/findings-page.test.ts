import { describeFinding, findingTitle } from '@/lib/analysis/finding-texts';
import { describe, expect, it } from 'vitest';
import { SAMPLE_REPORT } from './__fixtures__/sample-report';
import { findingsPage } from './findings-page';
import { countBySeverity, DEFAULT_FILTERS, findingFacets } from './findings-view';

describe('findingsPage', () => {
  const all = SAMPLE_REPORT.findings;
  const summary = { counts: countBySeverity(all), facets: findingFacets(all) };

  it('cuts the sorted, filtered list to the limit and counts what matched', () => {
    const page = findingsPage(SAMPLE_REPORT, { ...DEFAULT_FILTERS, severity: ['critical', 'high'] }, summary, 2);
    expect(page.findings.map((f) => f.id)).toEqual(['f-crit', 'f-high-a']);
    expect(page).toMatchObject({ total: 4, matched: 3, limit: 2 });
    expect(page.counts).toBe(summary.counts);
  });

  it('pages through the list: every match on exactly one page, and a page past the end gives the last', () => {
    const filters = { ...DEFAULT_FILTERS, severity: ['critical' as const, 'high' as const] };
    const first = findingsPage(SAMPLE_REPORT, filters, summary, 2);
    const second = findingsPage(SAMPLE_REPORT, { ...filters, page: 2 }, summary, 2);
    expect(first).toMatchObject({ page: 1, pages: 2, offset: 0 });
    expect(second).toMatchObject({ page: 2, pages: 2, offset: 2, matched: 3 });
    expect(second.findings.map((f) => f.id)).toEqual(['f-high-b']);
    const beyond = findingsPage(SAMPLE_REPORT, { ...filters, page: 99 }, summary, 2);
    expect(beyond).toMatchObject({ page: 2, offset: 2 });
    expect(beyond.findings.map((f) => f.id)).toEqual(['f-high-b']);
    const none = findingsPage(SAMPLE_REPORT, { ...filters, check: ['NOPE000'], page: 3 }, summary, 2);
    expect(none).toMatchObject({ page: 1, pages: 1, offset: 0, matched: 0, findings: [] });
  });

  it('rows carry no evidence or remediation (those are on the detail page)', () => {
    const page = findingsPage(SAMPLE_REPORT, DEFAULT_FILTERS, summary);
    expect(page.findings).toHaveLength(4);
    for (const row of page.findings) {
      expect(row).not.toHaveProperty('evidence');
      expect(row).not.toHaveProperty('remediation');
      expect(row.title).toBe(findingTitle(all.find((f) => f.id === row.id)!));
      expect(row.message).toBe(describeFinding(all.find((f) => f.id === row.id)!));
    }
  });

  it('group=issue lists the issues with matching findings, in report order, with how many match', async () => {
    const { buildReport } = await import('@/lib/report/build-report');
    const { loadDemo } = await import('@/server/sources/demo-source');
    const report = buildReport(await loadDemo());
    const s = { counts: countBySeverity(report.findings), facets: findingFacets(report.findings) };
    const page = findingsPage(report, { ...DEFAULT_FILTERS, group: 'issue' }, s);
    expect(page.issues.map((i) => i.id)).toEqual(report.issues.map((i) => i.id));
    expect(page.issues.reduce((n, i) => n + i.matched, 0)).toBe(report.findings.length);
    const critical = findingsPage(report, { ...DEFAULT_FILTERS, group: 'issue', severity: ['critical'] }, s);
    expect(critical.issues.every((i) => i.severity === 'critical')).toBe(true);
    expect(critical.issuesMatched).toBe(new Set(report.findings.filter((f) => f.severity === 'critical').map((f) => f.issueId)).size);
    // Without grouping the page carries no issues.
    expect(findingsPage(report, DEFAULT_FILTERS, s).issues).toEqual([]);
  });
});
