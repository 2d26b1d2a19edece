import { describe, expect, it } from 'vitest';
import { CHECK_LIST } from '@/lib/analysis/checks/registry';
import { loadDemo } from '@/server/sources/demo-source';
import { buildReport } from './build-report';
import { renderReportJunit } from './render-junit';
import type { Report } from '@/lib/analysis/types';

function count(xml: string, re: RegExp): number {
  return xml.match(re)?.length ?? 0;
}

describe('report -o junit', () => {
  it('one test case per check; a check with findings fails, below --fail-on it only prints them', async () => {
    const report = buildReport(await loadDemo());
    const all = renderReportJunit(report);
    expect(count(all, /<testcase /g)).toBe(CHECK_LIST.length);
    const withFindings = new Set(report.findings.map((f) => f.check));
    expect(count(all, /<failure /g)).toBe(withFindings.size);
    expect(all).toContain(`failures="${withFindings.size}"`);

    const critical = renderReportJunit(report, { failOn: 'critical' });
    const criticalChecks = new Set(report.findings.filter((f) => f.severity === 'critical').map((f) => f.check));
    expect(criticalChecks.size).toBeGreaterThan(0);
    expect(criticalChecks.size).toBeLessThan(withFindings.size);
    expect(count(critical, /<failure /g)).toBe(criticalChecks.size);
    expect(count(critical, /<system-out>/g)).toBeGreaterThan(0);
  });

  it('escapes what XML cannot hold as text', async () => {
    const report = buildReport(await loadDemo());
    const f = report.findings[0];
    const odd: Report = { ...report, findings: [{ ...f, evidence: [{ type: 'note', text: 'a <b> & "c" \u0007 end' }] }] };
    const xml = renderReportJunit(odd);
    expect(xml).toContain('a &#60;b&#62; &#38; &#34;c&#34; \ufffd end');
    expect(xml).not.toMatch(/[\u0000-\u0008]/);
  });
});
