import type { Finding } from '@/lib/analysis/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';

// Quota gaps (QUOTA001: a tenant namespace without a claim-count quota; QUOTA002: a namespace using a
// DeviceClass without a devices quota for it) are the quota page's real risk: on the bench cluster
// 52,142 namespace/class pairs, listed ~17,800 px down under 25 identical usage bars. Here they are
// grouped (one group for the claim count, one per DeviceClass) with counts, each group's namespaces
// ranked by how many claims and templates they hold (what an unlimited tenant already has), cut to
// the first few for the page.

export interface GapNamespace {
  namespace: string;
  /** The finding to open for this gap. */
  findingId: string;
  /** ResourceClaims and ResourceClaimTemplates in the namespace. */
  claims: number;
}

export interface QuotaGapGroup {
  /** 'claims' for QUOTA001, else the DeviceClass of QUOTA002. */
  key: string;
  check: 'QUOTA001' | 'QUOTA002';
  deviceClass?: string;
  /** Namespaces with this gap (after the namespace filter). */
  total: number;
  /** The first of them, most claims first. */
  namespaces: GapNamespace[];
}

export interface QuotaGapView {
  groups: QuotaGapGroup[];
  /** Gap findings in all (after the namespace filter). */
  total: number;
  /** Namespaces with at least one gap (after the namespace filter). */
  namespaces: number;
}

/** Namespaces a group carries to the page at most: the rest are in the findings list. */
export const GAP_NAMESPACES_CARRIED = 100;

/** Claims and templates per namespace, counted once. */
export function claimObjectsPerNamespace(state: Pick<ClusterState, 'resourceClaims' | 'resourceClaimTemplates'>): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of [...state.resourceClaims, ...state.resourceClaimTemplates]) {
    const ns = o.metadata.namespace ?? '';
    out.set(ns, (out.get(ns) ?? 0) + 1);
  }
  return out;
}

const namespaceOf = (f: Finding) => f.objects.find((o) => o.kind === 'Namespace')?.name;
const classOf = (f: Finding) => f.objects.find((o) => o.kind === 'DeviceClass')?.name;

/**
 * The gap findings grouped for the page: the claim-count group first, then one group per DeviceClass
 * with the most namespaces first; within a group the namespaces holding the most claims first.
 * `namespace` (when set) keeps only that namespace's gaps.
 */
export function buildQuotaGapView(
  findings: readonly Finding[],
  claimsPerNamespace: ReadonlyMap<string, number>,
  options: { namespace?: string; carried?: number } = {},
): QuotaGapView {
  const carried = options.carried ?? GAP_NAMESPACES_CARRIED;
  const groups = new Map<string, { check: QuotaGapGroup['check']; deviceClass?: string; items: GapNamespace[] }>();
  const namespaces = new Set<string>();
  let total = 0;
  for (const f of findings) {
    if (f.check !== 'QUOTA001' && f.check !== 'QUOTA002') continue;
    const ns = namespaceOf(f);
    if (!ns || (options.namespace && ns !== options.namespace)) continue;
    const cls = f.check === 'QUOTA002' ? classOf(f) : undefined;
    if (f.check === 'QUOTA002' && !cls) continue;
    const key = cls ?? 'claims';
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { check: f.check, ...(cls ? { deviceClass: cls } : {}), items: [] }));
    g.items.push({ namespace: ns, findingId: f.id, claims: claimsPerNamespace.get(ns) ?? 0 });
    namespaces.add(ns);
    total++;
  }
  const out: QuotaGapGroup[] = [...groups].map(([key, g]) => ({
    key,
    check: g.check,
    ...(g.deviceClass ? { deviceClass: g.deviceClass } : {}),
    total: g.items.length,
    namespaces: topNamespaces(g.items, carried),
  }));
  out.sort((a, b) => Number(b.check === 'QUOTA001') - Number(a.check === 'QUOTA001') || b.total - a.total || compareStrings(a.key, b.key));
  return { groups: out, total, namespaces: namespaces.size };
}

const byClaims = (a: GapNamespace, b: GapNamespace) => b.claims - a.claims || compareStrings(a.namespace, b.namespace);

/** The first `n` by claims then name, without sorting a 20,000-namespace group whole. */
function topNamespaces(items: GapNamespace[], n: number): GapNamespace[] {
  if (items.length <= n * 4) return items.sort(byClaims).slice(0, n);
  const top: GapNamespace[] = [];
  for (const item of items) {
    if (top.length === n && byClaims(item, top[n - 1]) >= 0) continue;
    let i = top.length;
    while (i > 0 && byClaims(item, top[i - 1]) < 0) i--;
    top.splice(i, 0, item);
    if (top.length > n) top.pop();
  }
  return top;
}
