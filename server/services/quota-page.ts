import 'server-only';
import type { Finding, Report } from '@/lib/analysis/types';
import { buildQuotaGapView, claimObjectsPerNamespace, type QuotaGapView } from '@/lib/view/quota-gaps';
import { buildQuotaRows, quotaRowsShown, quotaUsageBands, type QuotaRow, type QuotaUsageBands } from '@/lib/view/quota-view';
import { compareStrings } from '@/lib/k8s/refs';
import { getAnalysis } from './get-report';

// The quota page's data, with its one namespace filter applied to all of it: the gaps, the usage
// bands and chart, the table and the counts (on the bench cluster the filter emptied the chart and
// left the gap list unfiltered).

interface QuotaBasis {
  rows: QuotaRow[];
  gapFindings: Finding[];
  claimsPerNamespace: Map<string, number>;
  /** Namespaces with a DRA quota or a gap, with how many of each: the filter's suggestions. */
  namespaces: { namespace: string; count: number }[];
  /** The unfiltered gap view (the page's default). */
  gaps: QuotaGapView;
}

// Per report: a 20,000-namespace cluster's rows, gaps and namespace list are built once, not per visit.
const bases = new WeakMap<Report, QuotaBasis>();

function basisOf(report: Report, state: Parameters<typeof claimObjectsPerNamespace>[0]): QuotaBasis {
  let b = bases.get(report);
  if (b) return b;
  const rows = buildQuotaRows(report.quotas);
  const gapFindings = report.findings.filter((f) => f.check === 'QUOTA001' || f.check === 'QUOTA002');
  const counts = new Map<string, number>();
  const bump = (ns: string | undefined) => ns && counts.set(ns, (counts.get(ns) ?? 0) + 1);
  for (const r of rows) bump(r.namespace);
  for (const f of gapFindings) bump(f.objects.find((o) => o.kind === 'Namespace')?.name);
  const namespaces = [...counts].map(([namespace, count]) => ({ namespace, count })).sort((x, y) => compareStrings(x.namespace, y.namespace));
  const claimsPerNamespace = claimObjectsPerNamespace(state);
  b = { rows, gapFindings, claimsPerNamespace, namespaces, gaps: buildQuotaGapView(gapFindings, claimsPerNamespace) };
  bases.set(report, b);
  return b;
}

export interface QuotaPageData {
  namespace: string;
  namespaces: { namespace: string; count: number }[];
  /** Quota rows in the namespace (all of them without a filter). */
  total: number;
  near: number;
  mismatched: number;
  bands: QuotaUsageBands;
  chart: QuotaRow[];
  table: QuotaRow[];
  cut: boolean;
  gaps: QuotaGapView;
}

export async function getQuotaPage(namespace: string): Promise<QuotaPageData> {
  const { report, state } = await getAnalysis();
  const b = basisOf(report, state);
  const inScope = namespace ? b.rows.filter((r) => r.namespace === namespace) : b.rows;
  const shown = quotaRowsShown(b.rows, namespace);
  const bands = quotaUsageBands(inScope);
  return {
    namespace,
    namespaces: b.namespaces,
    total: inScope.length,
    near: bands.full + bands.near,
    mismatched: inScope.filter((r) => r.mismatch).length,
    bands,
    chart: shown.chart,
    table: shown.table,
    cut: shown.cut,
    gaps: namespace ? buildQuotaGapView(b.gapFindings, b.claimsPerNamespace, { namespace }) : b.gaps,
  };
}
