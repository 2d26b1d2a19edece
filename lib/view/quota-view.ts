import { parseQuantity, quantityToNumber } from '@/lib/k8s/quantity';
import type { QuotaUsage } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';

export interface QuotaRow extends QuotaUsage {
  key: string;
  /** What the resource counts, e.g. "ResourceClaims" or "devices of gpu.nvidia.com". */
  label: string;
  hardValue: number | null;
  usedValue: number | null;
  computedValue: number | null;
  /** computedUsed / hard, 0..∞ (null when hard is 0 or unparsable). */
  ratio: number | null;
  /** The reported status.used and the usage computed from the claims disagree. */
  mismatch: boolean;
}

function num(q: string | null): number | null {
  if (q === null) return null;
  const p = parseQuantity(q);
  return p ? quantityToNumber(p) : null;
}

export function quotaLabel(resource: string): string {
  if (resource === 'count/resourceclaims.resource.k8s.io') return 'ResourceClaims';
  if (resource === 'count/resourceclaimtemplates.resource.k8s.io') return 'ResourceClaimTemplates';
  const m = /^(.+)\.deviceclass\.resource\.k8s\.io\/devices$/.exec(resource);
  if (m) return `devices of ${m[1]}`;
  return resource;
}

export function buildQuotaRows(quotas: readonly QuotaUsage[]): QuotaRow[] {
  return quotas
    .map((q) => {
      const hardValue = num(q.hard);
      const usedValue = num(q.used);
      const computedValue = num(q.computedUsed);
      const basis = computedValue ?? usedValue;
      return {
        ...q,
        key: `${q.namespace}/${q.name}/${q.resource}`,
        label: quotaLabel(q.resource),
        hardValue,
        usedValue,
        computedValue,
        ratio: hardValue && basis !== null ? basis / hardValue : null,
        mismatch: usedValue !== null && computedValue !== null && usedValue !== computedValue,
      };
    })
    .sort((a, b) => compareStrings(a.namespace, b.namespace) || compareStrings(a.name, b.name) || compareStrings(a.resource, b.resource));
}

export function groupByNamespace<T extends { namespace: string }>(rows: readonly T[]): { namespace: string; rows: T[] }[] {
  const by = new Map<string, T[]>();
  for (const r of rows) (by.get(r.namespace) ?? by.set(r.namespace, []).get(r.namespace)!).push(r);
  return [...by].map(([namespace, rows]) => ({ namespace, rows }));
}

/** Bars the usage chart draws at most, and quota rows the table lists at most without a namespace filter. */
export const QUOTA_CHART_ROWS = 25;
export const QUOTA_TABLE_ROWS = 200;

/** Quotas to look at first: reported ≠ computed, then the fullest; ties keep namespace order. */
export function byAttention(rows: readonly QuotaRow[]): QuotaRow[] {
  return [...rows].sort(
    (a, b) =>
      Number(b.mismatch) - Number(a.mismatch) ||
      (b.ratio ?? -1) - (a.ratio ?? -1) ||
      compareStrings(a.namespace, b.namespace) ||
      compareStrings(a.name, b.name) ||
      compareStrings(a.resource, b.resource),
  );
}

/**
 * What the quota page shows of a large cluster's tens of thousands of quota rows: one namespace's
 * quotas when filtered, else every row when they fit, else the rows needing attention first.
 */
export function quotaRowsShown(rows: readonly QuotaRow[], namespace: string): { chart: QuotaRow[]; table: QuotaRow[]; cut: boolean } {
  const ranked = byAttention(rows);
  if (namespace) {
    const inNs = rows.filter((r) => r.namespace === namespace);
    return { chart: byAttention(inNs).slice(0, QUOTA_CHART_ROWS), table: inNs, cut: false };
  }
  const cut = rows.length > QUOTA_TABLE_ROWS;
  return {
    chart: rows.length > QUOTA_CHART_ROWS ? ranked.slice(0, QUOTA_CHART_ROWS) : [...rows],
    table: cut ? ranked.slice(0, QUOTA_TABLE_ROWS) : [...rows],
    cut,
  };
}

export interface QuotaUsageBands {
  full: number;
  near: number;
  high: number;
  below: number;
  unknown: number;
}

/** Quotas per usage band: full (≥ 100%), near (90–99%), high (75–89%), below 75%, and without a ratio. */
export function quotaUsageBands(rows: readonly QuotaRow[]): QuotaUsageBands {
  const bands: QuotaUsageBands = { full: 0, near: 0, high: 0, below: 0, unknown: 0 };
  for (const r of rows) {
    if (r.ratio === null) bands.unknown++;
    else if (r.ratio >= 1) bands.full++;
    else if (r.ratio >= 0.9) bands.near++;
    else if (r.ratio >= 0.75) bands.high++;
    else bands.below++;
  }
  return bands;
}

/** The chart's bars, as percentages of the hard limit (one decimal). */
export function usagePercent(r: Pick<QuotaRow, 'ratio'>): number {
  return r.ratio === null ? 0 : Math.round(r.ratio * 1000) / 10;
}

/**
 * Whether a bar chart of these rows says more than one number: bars of one length (25 quotas at 25%
 * on the bench cluster) carry no comparison, and the page says the number instead.
 */
export function chartCarriesInformation(rows: readonly QuotaRow[]): boolean {
  return new Set(rows.map(usagePercent)).size > 1;
}
