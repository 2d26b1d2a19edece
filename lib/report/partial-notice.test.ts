import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report';
import { partialNotice } from './partial-notice';
import { renderReportHtml } from './render-html';
import { renderReportMarkdown } from './render-markdown';
import { smallCluster } from './__fixtures__/small-cluster';

// A partial report says so first, in every rendering: which kinds were not read, which checks are unknown.
describe('partialNotice', () => {
  const partial = () => {
    const state = smallCluster();
    state.roleBindings = [];
    state.source.unreadKinds = [{ kind: 'RoleBinding', reason: 'cannot list rolebindings: forbidden by RBAC' }];
    return buildReport(state);
  };

  it('is absent for a complete report', () => {
    const report = buildReport(smallCluster());
    expect(partialNotice(report)).toBeUndefined();
    expect(renderReportMarkdown(report)).not.toContain('Partial data');
  });

  it('names the unread kinds and the unknown checks', () => {
    const report = partial();
    const notice = partialNotice(report)!;
    expect(notice.headline).toMatch(/could not read RoleBinding in full, so \d+ checks are unknown, not passed/);
    expect(notice.checks).toEqual(report.checksUnknown!.map((c) => c.id));
    expect(notice.checks).toContain('DRA001');
  });

  it('comes before the summary in the Markdown and HTML reports', () => {
    const report = partial();
    const md = renderReportMarkdown(report);
    expect(md.indexOf('Partial data')).toBeGreaterThan(-1);
    expect(md.indexOf('Partial data')).toBeLessThan(md.indexOf('## Summary'));
    expect(md).toContain('DRA001');
    const html = renderReportHtml(report, { generatedAt: '2026-11-26T00:00:00Z', toolVersion: 'test' });
    expect(html.indexOf('id="partial"')).toBeGreaterThan(-1);
    expect(html.indexOf('id="partial"')).toBeLessThan(html.indexOf('<h2>Summary</h2>'));
  });
});
