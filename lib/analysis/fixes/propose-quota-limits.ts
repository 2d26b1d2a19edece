import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { claimRequestsByNamespace } from '@/lib/analysis/context/claim-requests';
import { list } from '@/lib/analysis/checks/check-helpers';
import {
  addClaimDeviceUsage,
  CLAIM_COUNT_KEY,
  claimUsageByNamespace,
  classDevicesLimiter,
  devicesQuotaKey,
  limitingKeys,
  limitsClaimCount,
  parseDraQuotaKey,
  quotasByNamespace,
} from '@/lib/analysis/quota/quota-usage';
import type { Finding, FixChange } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import type { ResourceQuota } from '@/lib/k8s/types';
import { resourceQuotaProblems } from './validate-objects';
import type { Proposed } from './verify-fix';

// QUOTA001 and QUOTA002: a tenant namespace's claims (or its devices of a DeviceClass) have no limit.
// The fix adds one ResourceQuota per namespace, with a limit the namespace's claims fit in today. It is
// no RBAC question, so it is checked on the quota facts, per issue and without an authorization
// engine (thousands of namespaces on a large cluster): the quota is valid for the API server; with it,
// the namespace's unscoped quotas limit the key the check asks for (quota-usage.ts, the check's own
// test); and the limit leaves room for what the namespace's claims charge today, as the API server
// charges them at admission (dra-facts §6), twice over.
//
// The limits: a rollout makes a pod's new claims before the old pod's claims are deleted, so twice
// what today's claims charge (a template counting as one claim of its own) keeps every workload
// running and rolling; claims at least MIN_CLAIMS. Which limit a tenant should have is the platform
// team's decision: the fix says so.

const MIN_CLAIMS = 10;
const CLAIMS_QUOTA = 'dra-claim-count';
const DEVICES_QUOTA = 'dra-devices';

const namespacesOf = (findings: readonly Finding[]) =>
  [...new Set(findings.flatMap((f) => f.objects.filter((o) => o.kind === 'Namespace').map((o) => o.name)))].sort(compareStrings);

// Per state, read only: each QUOTA001 and QUOTA002 issue read every namespace name of the cluster
// twice (its proposal, then its checks), ~20,000 on the diverse bench cluster.
const namespacesPerState = new WeakMap<ClusterState, ReadonlySet<string>>();

function namespaceNames(ctx: AnalysisContext): ReadonlySet<string> {
  let out = namespacesPerState.get(ctx.state);
  if (!out) namespacesPerState.set(ctx.state, (out = new Set(ctx.state.namespaces.map((n) => n.metadata.name))));
  return out;
}

/** `base`, or `base-2`, `base-3`… when the namespace already has a quota of that name (a create would be refused). */
function freeName(existing: readonly ResourceQuota[], base: string): string {
  const taken = new Set(existing.map((q) => q.metadata.name));
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}`;
  return name;
}

function quotaObject(namespace: string, name: string, hard: Record<string, string>): ResourceQuota & { spec: { hard: Record<string, string> } } {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace }, spec: { hard } };
}

interface QuotaPlan {
  namespace: string;
  quota: ReturnType<typeof quotaObject>;
  /** What the namespace's claims (and one claim per template) charge today, per key. */
  charged: Record<string, bigint>;
  why: string;
}

/** Checks the plans on the quota facts; the failures, or none. */
function checkPlans(
  ctx: AnalysisContext,
  plans: readonly QuotaPlan[],
  closes: (keys: ReadonlySet<string>, plan: QuotaPlan) => string | undefined,
): { problems: string[]; failures: string[] } {
  const known = namespaceNames(ctx);
  const existing = quotasByNamespace(ctx.state);
  const problems: string[] = [];
  const failures: string[] = [];
  // Thousands of namespaces share a few quota names, keys and limits: each shape is validated once.
  const validated = new Map<string, string[]>();
  for (const plan of plans) {
    if (!known.has(plan.namespace)) problems.push(`namespace ${plan.namespace} is not in the cluster state, so a quota in it would be refused`);
    let shape = plan.quota.metadata.name;
    for (const [key, value] of Object.entries(plan.quota.spec.hard)) shape += `\n${key}=${value}`;
    let found = validated.get(shape);
    if (!found) validated.set(shape, (found = resourceQuotaProblems(plan.quota)));
    if (found.length > 0) problems.push(...resourceQuotaProblems(plan.quota).map((p) => `${plan.namespace}: ${p}`));
    // The check's own test, on the namespace's quotas with the new one.
    const gap = closes(limitingKeys([...(existing.get(plan.namespace) ?? []), plan.quota]), plan);
    if (gap) failures.push(gap);
    for (const [key, used] of Object.entries(plan.charged)) {
      const hard = BigInt(plan.quota.spec.hard[key] ?? '0');
      if (hard < 2n * used) failures.push(`${plan.namespace}: ${key} ${hard} leaves no room for the ${used} its claims charge today`);
    }
  }
  return { problems, failures };
}

function proposal(ctx: AnalysisContext, plans: QuotaPlan[], closes: Parameters<typeof checkPlans>[2], what: string, key: string): Proposed {
  if (plans.length === 0) return { none: 'no tenant namespace of the issue is named by its findings' };
  const { problems, failures } = checkPlans(ctx, plans, closes);
  const changes: FixChange[] = plans.map((p) => ({ action: 'create', object: p.quota as unknown as Record<string, unknown>, why: p.why }));
  const namespaces = plans.map((p) => p.namespace);
  const shown = namespaces.length > 5 ? `${list(namespaces.slice(0, 5))} and ${namespaces.length - 5} more` : list(namespaces);
  return {
    holders: [],
    otherChanges: changes,
    probes: [],
    problems,
    after: () => failures,
    checks: [
      'each ResourceQuota is valid for the API server (its name, fully qualified resource names, whole non-negative limits) and its namespace exists',
      `with it, each namespace's unscoped quotas limit ${key} (the check's own test), so the finding is gone`,
      "each limit is at least twice what the namespace's claims charge today, as the API server charges them at admission (a template counting as one claim): today's claims fit, and a rollout can make new ones",
    ],
    summary: `Add a ResourceQuota limiting ${what} in ${namespaces.length === 1 ? 'namespace' : `each of ${namespaces.length} namespaces,`} ${shown}`,
    leftover:
      'the limits are a starting point, twice what each namespace holds today; set each to what that tenant may hold (a limit below what its pods claim refuses their claims)',
  };
}

/** QUOTA001: a claim-count quota per namespace of the issue. */
export function proposeClaimCountQuota(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const objects = claimRequestsByNamespace(ctx.state);
  const existing = quotasByNamespace(ctx.state);
  const plans = namespacesOf(findings).map((namespace): QuotaPlan => {
    const held = BigInt(objects.get(namespace)?.objects.length ?? 0);
    const hard = 2n * held > BigInt(MIN_CLAIMS) ? 2n * held : BigInt(MIN_CLAIMS);
    return {
      namespace,
      quota: quotaObject(namespace, freeName(existing.get(namespace) ?? [], CLAIMS_QUOTA), { [CLAIM_COUNT_KEY]: String(hard) }),
      charged: { [CLAIM_COUNT_KEY]: held },
      why: `limits the claims of ${namespace} to ${hard} (it holds ${held} ${held === 1n ? 'claim or template' : 'claims and templates'} today)`,
    };
  });
  return proposal(
    ctx,
    plans,
    (keys, plan) => (limitsClaimCount(keys) ? undefined : `${plan.namespace} would still have no ${CLAIM_COUNT_KEY} limit`),
    'the number of ResourceClaims',
    CLAIM_COUNT_KEY,
  );
}

/** QUOTA002: a quota per namespace with a devices limit for each DeviceClass its findings name. */
export function proposeDeviceQuota(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const classesByNs = new Map<string, Set<string>>();
  for (const f of findings) {
    const ns = f.objects.find((o) => o.kind === 'Namespace')?.name;
    const cls = f.objects.find((o) => o.kind === 'DeviceClass')?.name;
    if (ns === undefined || cls === undefined) continue;
    let set = classesByNs.get(ns);
    if (!set) classesByNs.set(ns, (set = new Set()));
    set.add(cls);
  }
  // What each claim charges at admission, as the quota rows summed it (reading the claims of ~5,000
  // namespaces again was most of this fix); a template charges what each claim made from it will.
  const byClaims = claimUsageByNamespace(ctx.state);
  const byTemplates = new Map<string, Map<string, bigint>>();
  for (const t of ctx.state.resourceClaimTemplates) {
    const ns = t.metadata.namespace ?? '';
    if (!classesByNs.has(ns)) continue;
    let charged = byTemplates.get(ns);
    if (!charged) byTemplates.set(ns, (charged = new Map()));
    addClaimDeviceUsage(t.spec?.spec, charged);
  }
  const existing = quotasByNamespace(ctx.state);
  // A few classes across thousands of namespaces: each key string is made once.
  const classKeys = new Map<string, string>();
  const keyOf = (cls: string) => {
    let key = classKeys.get(cls);
    if (key === undefined) classKeys.set(cls, (key = devicesQuotaKey(cls)));
    return key;
  };
  const plans = [...classesByNs.keys()].sort(compareStrings).map((namespace): QuotaPlan => {
    const classes = [...classesByNs.get(namespace)!].sort(compareStrings);
    const claims = byClaims.get(namespace)?.devices;
    const templates = byTemplates.get(namespace);
    const hard: Record<string, string> = {};
    const used: Record<string, bigint> = {};
    for (const cls of classes) {
      const key = keyOf(cls);
      // A number total is a safe integer, so BigInt of it is exact.
      used[key] = BigInt(claims?.get(cls) ?? 0) + (templates?.get(cls) ?? 0n);
      hard[key] = String(used[key] > 0n ? 2n * used[key] : 1n);
    }
    return {
      namespace,
      quota: quotaObject(namespace, freeName(existing.get(namespace) ?? [], DEVICES_QUOTA), hard),
      charged: used,
      why: `limits the devices ${namespace} may claim of ${list(classes.map((c) => `DeviceClass ${c}`))} to twice what its claims and templates charge today`,
    };
  });
  const limits = classDevicesLimiter();
  return proposal(
    ctx,
    plans,
    (keys, plan) => {
      const open = Object.keys(plan.quota.spec.hard).filter((key) => {
        const parsed = parseDraQuotaKey(key);
        return parsed?.kind !== 'devices' || !limits(keys, parsed.deviceClass);
      });
      return open.length > 0 ? `${plan.namespace} would still have no limit on ${list(open)}` : undefined;
    },
    'the devices per DeviceClass',
    '<class>.deviceclass.resource.k8s.io/devices',
  );
}
