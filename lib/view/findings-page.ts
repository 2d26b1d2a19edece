import type { Finding, Severity } from '@/lib/analysis/types';
import { filterFindings, type FindingFacets, type FindingFilters } from './findings-view';

/** Rows sent to the findings list at most: a large cluster has tens of thousands of findings. */
export const FINDINGS_PAGE_LIMIT = 500;

/** A finding as the list shows it: evidence and remediation stay on the detail page. */
export type FindingRow = Omit<Finding, 'evidence' | 'remediation'>;

export interface FindingsPage {
  /** Findings of the source, and how many of them match the filters. */
  total: number;
  matched: number;
  /** At most `limit` matching findings, sorted. */
  findings: FindingRow[];
  limit: number;
  counts: Record<Severity, number>;
  facets: FindingFacets;
}

export function toFindingRow(f: Finding): FindingRow {
  const { evidence: _evidence, remediation: _remediation, ...row } = f;
  return row;
}

/** The filtered, sorted list cut to `limit` rows, with the counts and facets of all findings. */
export function findingsPage(
  all: readonly Finding[],
  filters: FindingFilters,
  summary: { counts: Record<Severity, number>; facets: FindingFacets },
  limit = FINDINGS_PAGE_LIMIT,
): FindingsPage {
  const matched = filterFindings(all, filters);
  return { total: all.length, matched: matched.length, findings: matched.slice(0, limit).map(toFindingRow), limit, ...summary };
}
