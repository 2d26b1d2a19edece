import 'server-only';
import type { Report, Severity } from '@/lib/analysis/types';
import { findingsPage, type FindingsPage } from '@/lib/view/findings-page';
import { countBySeverity, findingFacets, type FindingFacets, type FindingFilters } from '@/lib/view/findings-view';
import { getAnalysis } from './get-report';

// The findings list is filtered on the server: the browser gets one page of rows, not the report.
// Facets and counts cover every finding, so they are computed once per report.
const summaries = new WeakMap<Report, { counts: Record<Severity, number>; facets: FindingFacets }>();

export async function getFindingsPage(filters: FindingFilters): Promise<FindingsPage> {
  const { report, texts } = await getAnalysis();
  let summary = summaries.get(report);
  if (!summary) {
    summary = { counts: countBySeverity(report.findings), facets: findingFacets(report.findings) };
    summaries.set(report, summary);
  }
  return findingsPage(report, filters, summary, undefined, texts);
}
