import type { Finding, FindingTexts, Issue, Report, Severity } from '@/lib/analysis/types';
import { findingTextOf } from '@/lib/analysis/finding-texts';
import { filterFindings, type FindingFacets, type FindingFilters } from './findings-view';

/** Rows in one page of the findings list: a large cluster has tens of thousands of findings. */
export const FINDINGS_PAGE_LIMIT = 100;

/** A finding as the list shows it, with its title and message: evidence and remediation stay on the detail page. */
export type FindingRow = Omit<Finding, 'evidence'> & { title: string; message: string };

export interface FindingsPage {
  /** Findings of the source, and how many of them match the filters. */
  total: number;
  matched: number;
  /** The page's matching findings (at most `limit`), sorted; the first is the `offset`-th match (0-based). */
  findings: FindingRow[];
  limit: number;
  offset: number;
  /** The page sent (the one asked for, or the last one when it asked beyond it) and how many there are. */
  page: number;
  pages: number;
  /** With `group=issue`: the issues with matching findings, highest risk first (at most ISSUE_GROUP_LIMIT). */
  issues: IssueGroup[];
  /** How many issues have matching findings. */
  issuesMatched: number;
  counts: Record<Severity, number>;
  facets: FindingFacets;
}

/** Issue groups sent at most (the rest are counted). */
export const ISSUE_GROUP_LIMIT = 200;

/** An issue as the grouped list shows it; its findings are fetched when it is expanded. */
export type IssueGroup = Omit<Issue, 'findingIds' | 'remediation'> & { findings: number; matched: number };

export function toFindingRow(f: Finding, texts?: FindingTexts): FindingRow {
  const { evidence: _evidence, ...row } = f;
  const { title, message } = findingTextOf(f, texts);
  return { ...row, title, message };
}

/** One page of `limit` rows of the filtered, sorted list, with the counts and facets of all findings. */
export function findingsPage(
  report: Pick<Report, 'findings' | 'issues'>,
  filters: FindingFilters,
  summary: { counts: Record<Severity, number>; facets: FindingFacets },
  limit = FINDINGS_PAGE_LIMIT,
  texts?: FindingTexts,
): FindingsPage {
  const all = report.findings;
  const matched = filterFindings(all, filters);
  let issues: IssueGroup[] = [];
  let issuesMatched = 0;
  if (filters.group === 'issue') {
    const perIssue = new Map<string, number>();
    for (const f of matched) perIssue.set(f.issueId, (perIssue.get(f.issueId) ?? 0) + 1);
    const hit = report.issues.filter((i) => perIssue.has(i.id));
    issuesMatched = hit.length;
    issues = hit
      .slice(0, ISSUE_GROUP_LIMIT)
      .map(({ findingIds, remediation: _remediation, ...rest }) => ({ ...rest, findings: findingIds.length, matched: perIssue.get(rest.id)! }));
  }
  const pages = Math.max(1, Math.ceil(matched.length / limit));
  const page = Math.min(filters.page, pages);
  const offset = (page - 1) * limit;
  return {
    total: all.length,
    matched: matched.length,
    findings: matched.slice(offset, offset + limit).map((f) => toFindingRow(f, texts)),
    limit,
    offset,
    page,
    pages,
    issues,
    issuesMatched,
    ...summary,
  };
}
