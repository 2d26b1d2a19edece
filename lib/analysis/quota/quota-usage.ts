import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareQuantities, formatQuantity, parseQuantity, quantityFromInteger, type Quantity } from '@/lib/k8s/quantity';
import type { ResourceClaim, ResourceClaimSpec, ResourceQuota } from '@/lib/k8s/types';
import type { QuotaUsage } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import { pushTo } from '@/lib/k8s/push-to';

// DRA quota usage as the ResourceQuota evaluator computes it (dra-facts §6,
// pkg/quota/v1/evaluator/core/resource_claims.go): from the claim spec, not from the allocation.
//  - count/resourceclaims.resource.k8s.io: 1 per claim;
//  - <class>.deviceclass.resource.k8s.io/devices: ExactCount → count (default 1), All → 32 (worst
//    case), firstAvailable → per class the max over its subrequests, summed across requests; an
//    unknown allocation mode charges nothing; adminAccess requests count like any other;
//  - requests.deviceclass.resource.kubernetes.io/<class> (DRAExtendedResource): the same per-class
//    usage, mirrored. (Upstream subtracts what the owning pod already charged for an extended
//    resource; that part is not modelled.)
// The claim evaluator matches no quota scope: a quota with scopes or a scopeSelector never charges
// claims, so its DRA usage is 0 and its limits are not enforced for claims.

export const CLAIM_COUNT_KEY = 'count/resourceclaims.resource.k8s.io';
export const DEVICES_SUFFIX = '.deviceclass.resource.k8s.io/devices';
export const EXTENDED_PREFIX = 'requests.deviceclass.resource.kubernetes.io/';
/** resourceapi.AllocationResultsMaxSize: what allocationMode All charges. */
export const ALL_MODE_DEVICES = 32;

export type DraQuotaKey = { kind: 'claims' } | { kind: 'devices'; deviceClass: string } | { kind: 'extended'; deviceClass: string };

/** What a ResourceQuota hard key means for DRA, or undefined when it is not a DRA key. */
export function parseDraQuotaKey(key: string): DraQuotaKey | undefined {
  if (key === CLAIM_COUNT_KEY) return { kind: 'claims' };
  if (key.endsWith(DEVICES_SUFFIX) && key.length > DEVICES_SUFFIX.length) return { kind: 'devices', deviceClass: key.slice(0, -DEVICES_SUFFIX.length) };
  if (key.startsWith(EXTENDED_PREFIX) && key.length > EXTENDED_PREFIX.length) return { kind: 'extended', deviceClass: key.slice(EXTENDED_PREFIX.length) };
  return undefined;
}

export function devicesQuotaKey(deviceClass: string): string {
  return `${deviceClass}${DEVICES_SUFFIX}`;
}

export function extendedQuotaKey(deviceClass: string): string {
  return `${EXTENDED_PREFIX}${deviceClass}`;
}

/**
 * Devices a request of this mode/count charges; undefined mode = ExactCount (the API default). An
 * integer, exact as a number (what BigInt makes of it is the same value).
 */
function devicesFor(mode: string | undefined, count: number | undefined): number {
  if (mode === undefined || mode === '' || mode === 'ExactCount') {
    const n = count ?? 1;
    return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
  }
  if (mode === 'All') return ALL_MODE_DEVICES;
  return 0;
}

/**
 * Adds what each request of a claim spec charges, per device class, to `out` with `add`: the one
 * reading of the evaluator's rules, summed exactly (bigint) or, for a namespace's totals, as numbers
 * (no bigint per claim; the caller checks the totals stayed exact).
 */
function addCharges<T>(spec: ResourceClaimSpec | undefined, out: Map<string, T>, add: (sum: T | undefined, devices: number) => T): void {
  for (const request of spec?.devices?.requests ?? []) {
    if (request.firstAvailable && request.firstAvailable.length > 0) {
      const max = new Map<string, number>();
      for (const sub of request.firstAvailable) {
        const n = devicesFor(sub.allocationMode, sub.count);
        const cur = max.get(sub.deviceClassName);
        if (cur === undefined || n > cur) max.set(sub.deviceClassName, n);
      }
      for (const [cls, n] of max) out.set(cls, add(out.get(cls), n));
    } else if (request.exactly) {
      const cls = request.exactly.deviceClassName;
      out.set(cls, add(out.get(cls), devicesFor(request.exactly.allocationMode, request.exactly.count)));
    }
  }
}

const addBigint = (sum: bigint | undefined, devices: number): bigint => (sum ?? 0n) + BigInt(devices);

/**
 * addCharges with number sums, written out: the namespace totals read every claim of the cluster, and
 * most requests are a single `exactly` (no callback and no map of maxima for them).
 */
function addNumberCharges(spec: ResourceClaimSpec | undefined, out: Map<string, number>): void {
  const requests = spec?.devices?.requests;
  if (!requests) return;
  for (const request of requests) {
    if (request.firstAvailable && request.firstAvailable.length > 0) addCharges({ devices: { requests: [request] } }, out, addNumber);
    else if (request.exactly) {
      const cls = request.exactly.deviceClassName;
      out.set(cls, (out.get(cls) ?? 0) + devicesFor(request.exactly.allocationMode, request.exactly.count));
    }
  }
}

const addNumber = (sum: number | undefined, devices: number): number => (sum ?? 0) + devices;

/** Per device class, the devices one claim spec charges (the evaluator's Usage). */
export function claimDeviceUsage(spec: ResourceClaimSpec | undefined): Map<string, bigint> {
  return addClaimDeviceUsage(spec, new Map());
}

/** Adds what a claim spec charges, per device class, to `out` (a namespace's totals: no map per claim). */
export function addClaimDeviceUsage(spec: ResourceClaimSpec | undefined, out: Map<string, bigint>): Map<string, bigint> {
  addCharges(spec, out, addBigint);
  return out;
}

export interface NamespaceUsage {
  claims: number;
  /** Per device class, what the claims charge: a bigint, or a number that is exact (a safe integer). */
  devices: ReadonlyMap<string, bigint | number>;
}

/**
 * Each namespace's usage: its claims and, per device class, the devices they charge. The claims are
 * read once in the state's order (visiting them namespace by namespace reads 100,000 objects out of
 * memory order) and summed as numbers (a bigint addition per charge was most of the rest). The
 * charges are non-negative integers, so a total that is a safe integer is exact; a namespace with a
 * larger one is summed again as bigints.
 */
function usageByNamespace(claims: readonly ResourceClaim[]): Map<string, NamespaceUsage> {
  const out = new Map<string, { claims: number; devices: Map<string, number> }>();
  // A cluster's claims come namespace by namespace: the previous claim's totals are reused without a lookup.
  let lastNs: string | undefined;
  let u: { claims: number; devices: Map<string, number> } | undefined;
  for (const claim of claims) {
    const ns = claim.metadata.namespace ?? '';
    if (u === undefined || ns !== lastNs) {
      u = out.get(ns);
      if (!u) out.set(ns, (u = { claims: 0, devices: new Map() }));
      lastNs = ns;
    }
    u.claims++;
    addNumberCharges(claim.spec, u.devices);
  }
  const usage: Map<string, NamespaceUsage> = out;
  for (const [ns, u] of out) {
    for (const n of u.devices.values()) {
      if (Number.isSafeInteger(n)) continue;
      const exact = new Map<string, bigint>();
      for (const claim of claims) if ((claim.metadata.namespace ?? '') === ns) addClaimDeviceUsage(claim.spec, exact);
      usage.set(ns, { claims: u.claims, devices: exact });
      break;
    }
  }
  return usage;
}

// Per state, read only: the quota rows and QUOTA002's fix (which read every claim of ~5,000 namespaces
// again, most of its time) share one reading of the claims.
const usagePerState = new WeakMap<ClusterState, ReadonlyMap<string, NamespaceUsage>>();

/** Each namespace's claims and what they charge per device class (not its templates), once per state. */
export function claimUsageByNamespace(state: ClusterState): ReadonlyMap<string, NamespaceUsage> {
  let out = usagePerState.get(state);
  if (!out) usagePerState.set(state, (out = usageByNamespace(state.resourceClaims)));
  return out;
}

const NO_USAGE: NamespaceUsage = { claims: 0, devices: new Map() };

export interface QuotaAnalysis {
  quotas: QuotaUsage[];
  /** Quotas whose DRA limits the evaluator ignores (scopes), and other caveats, as sentences. */
  notes: string[];
}

/** Every DRA hard key of every ResourceQuota: hard, reported used (status.used) and computed usage. */
export function computeQuotaUsage(state: ClusterState): QuotaUsage[] {
  return analyseQuotas(state).quotas;
}

export function analyseQuotas(state: ClusterState): QuotaAnalysis {
  const usageByNs = claimUsageByNamespace(state);

  const quotas: QuotaUsage[] = [];
  const notes: string[] = [];
  // A large cluster's quotas repeat a few limits, usages and totals: each text is canonicalised and
  // each total formatted once, and the rows share the strings (kept with the report).
  const canonicalOf = new Map<unknown, string>();
  const canonicalText = (text: unknown) => {
    let found = canonicalOf.get(text);
    if (found === undefined) canonicalOf.set(text, (found = canonical(text)));
    return found;
  };
  const formatted = new Map<bigint | number, string>();
  const formatTotal = (n: bigint | number) => {
    let found = formatted.get(n);
    if (found === undefined) formatted.set(n, (found = formatQuantity(quantityFromInteger(n))));
    return found;
  };
  // Quotas repeat a few hard keys: each is parsed once (null: not a DRA key).
  const parsedKeys = new Map<string, DraQuotaKey | null>();
  const parseKey = (key: string) => {
    let found = parsedKeys.get(key);
    if (found === undefined) parsedKeys.set(key, (found = parseDraQuotaKey(key) ?? null));
    return found;
  };
  // The quotas in row order (a stable sort, as the rows' was): each quota's rows come out sorted, and
  // sorting 15,000 quotas is cheaper than their rows. Only quotas sharing a namespace and name (not
  // in a real cluster) interleave their rows, and then the rows are sorted as well.
  const ordered = [...state.resourceQuotas].sort(
    (a, b) => compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name),
  );
  let shared = false;
  let previous: ResourceQuota | undefined;
  for (const rq of ordered) {
    if (previous && (previous.metadata.namespace ?? '') === (rq.metadata.namespace ?? '') && previous.metadata.name === rq.metadata.name) shared = true;
    previous = rq;
    const ns = rq.metadata.namespace ?? '';
    const hardMap = rq.spec?.hard ?? rq.status?.hard ?? {};
    const keys = Object.keys(hardMap)
      .filter((k) => parseKey(k) !== null)
      .sort();
    if (keys.length === 0) continue;
    const scoped = quotaScopes(rq);
    if (scoped) {
      notes.push(
        `ResourceQuota ${ns}/${rq.metadata.name} has ${scoped}: ResourceClaims match no quota scope, so its DRA limits (${keys.join(', ')}) never charge claims`,
      );
    }
    const usage = usageByNs.get(ns) ?? NO_USAGE;
    for (const key of keys) {
      const parsed = parseKey(key)!;
      let computed: bigint | number = 0;
      if (!scoped) computed = parsed.kind === 'claims' ? usage.claims : (usage.devices.get(parsed.deviceClass) ?? 0);
      const used = rq.status?.used?.[key];
      quotas.push({
        namespace: ns,
        name: rq.metadata.name,
        resource: key,
        hard: canonicalText(hardMap[key]),
        used: used === undefined || used === null ? null : canonicalText(used),
        computedUsed: formatTotal(computed),
      });
    }
  }
  if (shared) quotas.sort((a, b) => compareStrings(a.namespace, b.namespace) || compareStrings(a.name, b.name) || compareStrings(a.resource, b.resource));
  notes.sort();
  const result = { quotas, notes };
  return result;
}

/** What scopes a ResourceQuota (in words), or undefined when it is unscoped. */
export function quotaScopes(rq: ResourceQuota): string | undefined {
  const spec = rq.spec as (ResourceQuota['spec'] & { scopeSelector?: { matchExpressions?: unknown[] } }) | undefined;
  const parts: string[] = [];
  if (spec?.scopes && spec.scopes.length > 0) parts.push(`scopes ${spec.scopes.join(', ')}`);
  if (spec?.scopeSelector?.matchExpressions && spec.scopeSelector.matchExpressions.length > 0) parts.push('a scopeSelector');
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/** Quantity text as written, canonicalised when it parses ("10" stays "10", "1k" stays "1k"). */
function canonical(text: unknown): string {
  const s = typeof text === 'number' ? String(text) : typeof text === 'string' ? text : '';
  const q = parseQuantity(s);
  return q ? formatQuantity(q) : s;
}

// Per state, read only: the quota checks and the quota fixes (each QUOTA001 and QUOTA002 issue, twice)
// read every namespace's quotas, ~15,000 quotas in 20,000 namespaces on the diverse bench cluster.
const quotasPerState = new WeakMap<ClusterState, ReadonlyMap<string, readonly ResourceQuota[]>>();

/** Each namespace's ResourceQuotas, in the state's order, grouped once per state. */
export function quotasByNamespace(state: ClusterState): ReadonlyMap<string, readonly ResourceQuota[]> {
  let out = quotasPerState.get(state);
  if (!out) {
    const grouped = new Map<string, ResourceQuota[]>();
    for (const rq of state.resourceQuotas) pushTo(grouped, rq.metadata.namespace ?? '', rq);
    quotasPerState.set(state, (out = grouped));
  }
  return out;
}

/**
 * The hard keys that limit a namespace's claims: those of its unscoped ResourceQuotas (the claim
 * evaluator matches no scope, so a scoped quota never charges claims). Its spec.hard, else the
 * status.hard the quota controller copied from it.
 */
export function limitingKeys(quotas: Iterable<ResourceQuota>): Set<string> {
  const keys = new Set<string>();
  for (const rq of quotas) {
    if (quotaScopes(rq)) continue;
    for (const k of Object.keys(rq.spec?.hard ?? rq.status?.hard ?? {})) keys.add(k);
  }
  return keys;
}

/** Whether the keys limit the number of claims (QUOTA001's gap closed). */
export function limitsClaimCount(keys: ReadonlySet<string>): boolean {
  return keys.has(CLAIM_COUNT_KEY);
}

/** Whether the keys limit a DeviceClass's devices, by the devices key or its DRAExtendedResource mirror (QUOTA002's gap closed). */
export function limitsClassDevices(keys: ReadonlySet<string>, deviceClass: string): boolean {
  return keys.has(devicesQuotaKey(deviceClass)) || keys.has(extendedQuotaKey(deviceClass));
}

/**
 * limitsClassDevices with each class's two keys made once: QUOTA002 asks it for every class of every
 * tenant namespace (tens of thousands of pairs), and each new key string is hashed again to be looked up.
 */
export function classDevicesLimiter(): (keys: ReadonlySet<string>, deviceClass: string) => boolean {
  const keysOf = new Map<string, readonly [string, string]>();
  return (keys, deviceClass) => {
    let own = keysOf.get(deviceClass);
    if (!own) keysOf.set(deviceClass, (own = [devicesQuotaKey(deviceClass), extendedQuotaKey(deviceClass)]));
    return keys.has(own[0]) || keys.has(own[1]);
  };
}

/** Whether used >= watermark × hard, exactly (watermark given as a decimal fraction). */
export function atOrAboveWatermark(used: string, hard: string, watermark: number): boolean {
  const u = parseQuantity(used);
  const h = parseQuantity(hard);
  if (!u || !h) return false;
  const w = parseQuantity(String(watermark));
  if (!w) return false;
  // used >= w * hard  ⇔  used * 10^ws >= w.num * hard  (all exact)
  const scaledUsed = { num: u.num * 10n ** BigInt(w.scale), scale: u.scale, format: u.format } as Quantity;
  const scaledHard = { num: h.num * w.num, scale: h.scale, format: h.format } as Quantity;
  return compareQuantities(scaledUsed, scaledHard) >= 0;
}

/** The two usage figures differ (both present and not equal as quantities). */
export function usageDisagrees(q: QuotaUsage): boolean {
  if (q.used === null) return false;
  const a = parseQuantity(q.used);
  const b = parseQuantity(q.computedUsed);
  if (!a || !b) return q.used !== q.computedUsed;
  return compareQuantities(a, b) !== 0;
}
