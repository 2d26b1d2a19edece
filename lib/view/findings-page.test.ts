import { describe, expect, it } from 'vitest';
import { SAMPLE_REPORT } from './__fixtures__/sample-report';
import { findingsPage } from './findings-page';
import { countBySeverity, DEFAULT_FILTERS, findingFacets } from './findings-view';

describe('findingsPage', () => {
  const all = SAMPLE_REPORT.findings;
  const summary = { counts: countBySeverity(all), facets: findingFacets(all) };

  it('cuts the sorted, filtered list to the limit and counts what matched', () => {
    const page = findingsPage(all, { ...DEFAULT_FILTERS, severity: ['critical', 'high'] }, summary, 2);
    expect(page.findings.map((f) => f.id)).toEqual(['f-crit', 'f-high-a']);
    expect(page).toMatchObject({ total: 4, matched: 3, limit: 2 });
    expect(page.counts).toBe(summary.counts);
  });

  it('rows carry no evidence or remediation (those are on the detail page)', () => {
    const page = findingsPage(all, DEFAULT_FILTERS, summary);
    expect(page.findings).toHaveLength(4);
    for (const row of page.findings) {
      expect(row).not.toHaveProperty('evidence');
      expect(row).not.toHaveProperty('remediation');
      expect(row.title).toBe(all.find((f) => f.id === row.id)!.title);
    }
  });
});
