import type { AttackPath, Finding, Issue, Report } from '@/lib/analysis/types';

// The Markdown and HTML reports lead with the ranked issues and show at most a page of findings per
// issue (the JSON report keeps every finding): on a large cluster one issue can hold 10,000 findings.

export const FINDINGS_PER_ISSUE = 20;

export interface IssuePage {
  rank: number;
  issue: Issue;
  findings: Finding[];
  /** Findings of the issue not shown. */
  more: number;
  attackPath?: AttackPath;
}

export function issuePages(report: Pick<Report, 'issues' | 'findings' | 'attackPaths'>, perIssue = FINDINGS_PER_ISSUE): IssuePage[] {
  const byId = new Map(report.findings.map((f) => [f.id, f]));
  const paths = new Map(report.attackPaths.map((p) => [p.issueId, p]));
  return report.issues.map((issue, i) => {
    const shown = issue.findingIds
      .slice(0, perIssue)
      .map((id) => byId.get(id))
      .filter((f): f is Finding => f !== undefined);
    return { rank: i + 1, issue, findings: shown, more: issue.findingIds.length - shown.length, attackPath: paths.get(issue.id) };
  });
}
