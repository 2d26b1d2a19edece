import { describe, expect, it } from 'vitest';
import { smallCluster } from './__fixtures__/small-cluster';
import { buildReport } from './build-report';
import { renderReportHtml } from './render-html';
import type { Report } from './types';

describe('renderReportHtml', () => {
  const options = { generatedAt: '2026-01-02T03:04:05.000Z', toolVersion: '9.9.9' };

  it('has a cover, the chart, every finding and the node, quota and zeroing sections, and no script', () => {
    const report = buildReport(smallCluster());
    const html = renderReportHtml(report, options);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('class="cover"');
    expect(html).toContain('dra-posture 9.9.9');
    expect(html).toMatch(/<svg [^>]*aria-label="Findings by severity: /);
    expect(html.match(/<article class="finding"/g)?.length).toBe(report.findings.length);
    for (const id of ['node-writers', 'quotas', 'zeroing']) expect(html).toContain(`id="${id}"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`Content-Security-Policy" content="default-src 'none'`);
  });

  it('escapes names from the cluster', () => {
    const report = buildReport(smallCluster());
    const hostile: Report = {
      ...report,
      source: { ...report.source, name: '<script>alert(1)</script>' },
      findings: report.findings
        .slice(0, 1)
        .map((f) => ({ ...f, message: '<img src=x onerror=alert(1)>', subjects: [{ kind: 'User', name: '"><svg onload=alert(1)>' }] })),
      deviceClasses: [{ name: "x' onmouseover='alert(1)", driver: null, zeroing: 'missing', usedByNamespaces: ['<b>'] }],
    };
    const html = renderReportHtml(hostile, options);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<svg onload');
    expect(html).not.toContain("x' onmouseover");
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});
