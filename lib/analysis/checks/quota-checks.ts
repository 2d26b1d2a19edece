import type { AnalysisContext } from '@/lib/analysis/context-types';
import { isMastersGroup, isNodeIdentity } from '@/lib/analysis/context/identities';
import type { AccessEntry } from '@/lib/analysis/context/access';
import { Q } from '@/lib/analysis/context/questions';
import { oncePerAnalysis } from '@/lib/analysis/context/memo-per-analysis';
import { claimRequestsByNamespace, specOf, usersByClass, type NamespaceClaimRequests } from '@/lib/analysis/context/claim-requests';
import {
  ALL_MODE_DEVICES,
  atOrAboveWatermark,
  CLAIM_COUNT_KEY,
  devicesQuotaKey,
  limitingKeys,
  limitsClaimCount,
  classDevicesLimiter,
  quotasByNamespace,
  usageDisagrees,
} from '@/lib/analysis/quota/quota-usage';
import type { ObjectRef, ResourceClaim, ResourceClaimTemplate } from '@/lib/k8s/types';
import type { Evidence, QuotaUsage } from '@/lib/analysis/types';
import { manifestYaml } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { grantsEvidence, list } from './check-helpers';
import { compareStrings } from '@/lib/k8s/refs';
import { describeSubject, objectRef, sortSubjects } from '@/lib/k8s/refs';

// DESIGN §4 QUOTA001-QUOTA004 (dra-facts §6). Quota keys are charged from claim specs at admission;
// a quota with scopes never charges claims, so only unscoped quotas count as limits here.

const MAX_EVIDENCE = 10;

// Per state, built once: asking every quota for every namespace was 20,000 × 15,000 steps on the bench cluster.
const limitedKeysByState = new WeakMap<AnalysisContext['state'], Map<string, ReadonlySet<string>>>();
const NO_KEYS: ReadonlySet<string> = new Set();

/** Hard keys of each namespace's unscoped ResourceQuotas. */
function limitedKeysByNamespace(ctx: AnalysisContext): Map<string, ReadonlySet<string>> {
  let byNs = limitedKeysByState.get(ctx.state);
  if (!byNs) {
    byNs = new Map([...quotasByNamespace(ctx.state)].map(([ns, list]) => [ns, limitingKeys(list)]));
    limitedKeysByState.set(ctx.state, byNs);
  }
  return byNs;
}

const NO_CLAIM_REQUESTS: NamespaceClaimRequests = { objects: [], classes: [] };

/** A tenant namespace with the hard keys of its unscoped quotas and its claims' requests. */
interface TenantQuotaView {
  ns: string;
  keys: ReadonlySet<string>;
  requests: NamespaceClaimRequests;
}

/**
 * The tenant namespaces, in ctx.namespaces order, each looked up once in the two indexes for QUOTA001
 * and QUOTA002: both walk every tenant namespace (20,000 on the bench cluster), and the lookups were
 * a good part of each walk.
 */
const tenantQuotaViews = oncePerAnalysis((ctx): TenantQuotaView[] => {
  const keys = limitedKeysByNamespace(ctx);
  const requests = claimRequestsByNamespace(ctx.state);
  const out: TenantQuotaView[] = [];
  for (const ns of ctx.namespaces)
    if (ctx.isTenantNamespace(ns)) out.push({ ns, keys: keys.get(ns) ?? NO_KEYS, requests: requests.get(ns) ?? NO_CLAIM_REQUESTS });
  return out;
});

const requestsPath = (template: boolean) => (template ? 'spec.spec.devices.requests' : 'spec.devices.requests');
const specPath = (o: ResourceClaim | ResourceClaimTemplate) => requestsPath(o.kind === 'ResourceClaimTemplate');

function objRef(o: { kind: string; metadata: { name: string; namespace?: string } }): ObjectRef {
  return objectRef(o.kind, o.metadata.name, o.metadata.namespace);
}

/**
 * Where the objects' specs name a class (one field evidence per request or subrequest, in order),
 * capped at MAX_EVIDENCE and a note: the fields past it are counted, not made (a namespace
 * can name a class in thousands of requests, and QUOTA002 reports every namespace of a large cluster).
 */
export function classFields(objects: readonly (ResourceClaim | ResourceClaimTemplate)[], deviceClass: string): Evidence[] {
  const out: Evidence[] = [];
  let more = 0;
  for (const o of objects) {
    const requests = specOf(o)?.devices?.requests;
    if (!requests) continue;
    // One ref per object, shared by its fields (most objects name a class once).
    let object: ObjectRef | undefined;
    const template = o.kind === 'ResourceClaimTemplate';
    for (let i = 0; i < requests.length; i++) {
      const r = requests[i];
      if (r.exactly?.deviceClassName === deviceClass) {
        if (out.length < MAX_EVIDENCE) out.push({ type: 'field', object: (object ??= objRef(o)), path: exactlyClassPath(template, i), value: deviceClass });
        else more++;
      }
      const subs = r.firstAvailable;
      if (subs)
        for (let j = 0; j < subs.length; j++) {
          if (subs[j].deviceClassName !== deviceClass) continue;
          if (out.length < MAX_EVIDENCE)
            out.push({ type: 'field', object: (object ??= objRef(o)), path: `${specPath(o)}[${i}].firstAvailable[${j}].deviceClassName`, value: deviceClass });
          else more++;
        }
    }
  }
  if (more > 0) out.push(moreNote(more, 'requests'));
  // Sized to fit: kept with the report, and a list grown by push keeps room for 17.
  return out.slice();
}

// The paths of the first requests' classes, made once: QUOTA002's evidence (tens of thousands of
// fields on a large cluster, kept with the report) names the same few paths again and again.
const SHARED_PATHS = 8;
const exactlyPaths = [false, true].map((template) => Array.from({ length: SHARED_PATHS }, (_, i) => `${requestsPath(template)}[${i}].exactly.deviceClassName`));

function exactlyClassPath(template: boolean, i: number): string {
  return i < SHARED_PATHS ? exactlyPaths[template ? 1 : 0][i] : `${requestsPath(template)}[${i}].exactly.deviceClassName`;
}

const moreNote = (n: number, what: string): Evidence => ({ type: 'note', text: `and ${n} more ${what}` });

/**
 * The grants' evidence, then a metadata.namespace field per object, at most MAX_EVIDENCE of them and
 * a note counting the rest. The fields past the cap are counted, not made: a namespace can hold
 * thousands of claims, and QUOTA001 reports thousands of namespaces.
 */
export function cappedWithFields(grants: Evidence[], objects: readonly (ResourceClaim | ResourceClaimTemplate)[], ns: string): Evidence[] {
  const total = grants.length + objects.length;
  const shown = total <= MAX_EVIDENCE ? total : MAX_EVIDENCE;
  const out = grants.length <= shown ? grants : grants.slice(0, shown);
  for (let i = 0; out.length < shown; i++) out.push({ type: 'field', object: objRef(objects[i]), path: 'metadata.namespace', value: ns });
  if (total > MAX_EVIDENCE) out.push(moreNote(total - MAX_EVIDENCE, 'objects'));
  return out;
}

/** A fix's ResourceQuota manifest, written whole (what quotaYamlWriter writes in two parts). */
export function quotaYaml(namespace: string, hard: Record<string, string>): string {
  return manifestYaml({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'dra-quota', namespace }, spec: { hard } });
}

/**
 * quotaYaml for a check that writes one per finding (QUOTA001, QUOTA002: tens of thousands on a large
 * cluster) with the spec of each `id` written once and the head of each namespace once (in `heads`,
 * which the checks of one analysis share): a mapping's top-level entries are written one after the
 * other, so the head (which names the namespace) and the spec joined are the whole text.
 */
export function quotaYamlWriter(
  hardOf: (id: string) => Record<string, string>,
  heads: Map<string, string> = new Map(),
): (namespace: string, id: string) => string {
  const specs = new Map<string, string>();
  return (namespace, id) => {
    let spec = specs.get(id);
    if (spec === undefined) specs.set(id, (spec = manifestYaml({ spec: { hard: hardOf(id) } })));
    let head = heads.get(namespace);
    if (head === undefined)
      heads.set(namespace, (head = `${manifestYaml({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'dra-quota', namespace } })}\n`));
    return head + spec;
  };
}

/** The manifest heads of quotaYamlWriter by namespace, shared by QUOTA001 and QUOTA002 (a namespace often has a finding of each). */
const quotaHeads = oncePerAnalysis((): Map<string, string> => new Map());

// ---------------------------------------------------------------- QUOTA001

/**
 * Tenant-side creators of claims and templates: granted by a RoleBinding in the namespace (not
 * also everywhere); not admins, nodes or system identities. Asked per namespace: the whole
 * cluster's answer was 80,000 entries (80 MiB) on the bench cluster, of which each namespace reads
 * its own two, and asking each namespace the whole question built everyone allowed everywhere again.
 */
function creatorsIn(ctx: AnalysisContext, namespace: string): AccessEntry[] {
  // No list joined and filtered per namespace: most namespaces have a creator or two.
  const out: AccessEntry[] = [];
  for (const e of ctx.access.grantedInNamespace(Q.claimCreate, namespace)) if (isTenantCreator(ctx, e)) out.push(e);
  for (const e of ctx.access.grantedInNamespace(Q.templateCreate, namespace)) if (isTenantCreator(ctx, e)) out.push(e);
  return out;
}

function isTenantCreator(ctx: AnalysisContext, e: AccessEntry): boolean {
  return e.via === 'rbac' && !isMastersGroup(e.subject) && !isNodeIdentity(e.subject) && !ctx.isAdminEquivalent(e.subject) && !ctx.isSystemIdentity(e.subject);
}

export const quota001: Check = {
  id: 'QUOTA001',
  run(ctx) {
    const out: FindingDraft[] = [];
    const yaml = quotaYamlWriter(() => ({ [CLAIM_COUNT_KEY]: '10' }), quotaHeads(ctx));
    for (const { ns, keys, requests } of tenantQuotaViews(ctx)) {
      if (limitsClaimCount(keys)) continue;
      const here = requests.objects;
      const creators = creatorsIn(ctx, ns);
      if (here.length === 0 && creators.length === 0) continue;
      const subjects = sortSubjects(creators.map((e) => e.subject));
      const claims = here.filter((o) => o.kind === 'ResourceClaim').length;
      const templates = here.length - claims;
      const parts: string[] = [];
      if (here.length > 0) parts.push(`has ${plural(claims, 'ResourceClaim')} and ${plural(templates, 'ResourceClaimTemplate')}`);
      if (subjects.length > 0) parts.push(`lets ${list(subjects.map(describeSubject))} create them`);
      const grants = creators.flatMap((e) => e.grants.filter((g) => g.binding.kind === 'RoleBinding' && g.binding.namespace === ns));
      out.push({
        subjects: [],
        objects: [objectRef('Namespace', ns)],
        message: `Tenant namespace ${ns} ${parts.join(', and ')}, but no ResourceQuota limits ${CLAIM_COUNT_KEY}: the tenant can create claims (and pin devices) without bound.`,
        evidence: cappedWithFields(grantsEvidence(ctx, dedupeGrants(grants)), here, ns),
        remediation: `Add a ResourceQuota in ${ns} that limits the number of claims (and the devices per DeviceClass):\n${yaml(ns, '')}`,
      });
    }
    return out;
  },
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function dedupeGrants<T extends { binding: { kind: string; name: string; namespace?: string }; role: { kind: string; name: string }; ruleIndex: number }>(
  grants: T[],
): T[] {
  const m = new Map<string, T>();
  for (const g of grants) m.set(`${g.binding.kind}/${g.binding.namespace ?? ''}/${g.binding.name}/${g.role.kind}/${g.role.name}/${g.ruleIndex}`, g);
  return [...m.entries()].sort((a, b) => compareStrings(a[0], b[0])).map(([, g]) => g);
}

// ---------------------------------------------------------------- QUOTA002

export const quota002: Check = {
  id: 'QUOTA002',
  run(ctx) {
    const out: FindingDraft[] = [];
    const limits = classDevicesLimiter();
    const yaml = quotaYamlWriter((cls) => ({ [devicesQuotaKey(cls)]: '4' }), quotaHeads(ctx));
    // One ref per class and per namespace, shared by the findings (kept with the report).
    const classRefs = new Map<string, ObjectRef>();
    for (const { ns, keys, requests } of tenantQuotaViews(ctx)) {
      const { objects: here, classes } = requests;
      if (classes.length === 0) continue;
      const open = classes.filter((cls) => !limits(keys, cls));
      // Which objects name a class is read only for a namespace with a finding.
      if (open.length === 0) continue;
      const byClass = usersByClass(here);
      const nsRef = objectRef('Namespace', ns);
      for (const cls of open) {
        const users = byClass.get(cls)!;
        let classRef = classRefs.get(cls);
        if (!classRef) classRefs.set(cls, (classRef = objectRef('DeviceClass', cls)));
        out.push({
          subjects: [],
          objects: [nsRef, classRef],
          message: `Tenant namespace ${ns} requests devices of DeviceClass ${cls} (${list(users.map((o) => `${o.kind} ${o.metadata.name}`))}) but no ResourceQuota limits ${devicesQuotaKey(cls)}: nothing caps how many ${cls} devices it can hold.`,
          evidence: classFields(users, cls),
          remediation: `Add the per-class device limit to the namespace's ResourceQuota (allocationMode All charges ${ALL_MODE_DEVICES}):\n${yaml(ns, cls)}`,
        });
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------- QUOTA003

function percent(used: string, hard: string): string {
  const u = Number(used);
  const h = Number(hard);
  if (!Number.isFinite(u) || !Number.isFinite(h) || h === 0) return '';
  return ` (${Math.round((u / h) * 100)}%)`;
}

export const quota003: Check = {
  id: 'QUOTA003',
  run(ctx) {
    const watermark = ctx.settings.quotaHighWatermark;
    const atWatermark = usageAtWatermark(watermark);
    const byQuota = new Map<string, QuotaUsage[]>();
    for (const q of ctx.quotas.quotas) {
      const hits = (q.used !== null && atWatermark(q.used, q.hard)) || atWatermark(q.computedUsed, q.hard);
      if (!hits) continue;
      const key = `${q.namespace}/${q.name}`;
      let list = byQuota.get(key);
      if (!list) byQuota.set(key, (list = []));
      list.push(q);
    }
    const out: FindingDraft[] = [];
    for (const rows of byQuota.values()) {
      const { namespace, name } = rows[0];
      const parts = rows.map((q) => {
        const shown = q.used ?? q.computedUsed;
        let text = `${q.resource} ${shown}/${q.hard}${percent(shown, q.hard)}`;
        if (q.used === null) text += ' (no status.used reported; computed from the claims)';
        else if (usageDisagrees(q))
          text += ` (status.used reports ${q.used}, the claims add up to ${q.computedUsed}: the quota status is stale or claims were charged differently)`;
        return text;
      });
      out.push({
        subjects: [],
        objects: [objectRef('ResourceQuota', name, namespace)],
        message: `ResourceQuota ${namespace}/${name} is at or above ${Math.round(watermark * 100)}% of its hard limit: ${parts.join('; ')}. New claims in ${namespace} will soon be refused.`,
        evidence: rows.flatMap((q): Evidence[] => {
          const ev: Evidence[] = [{ type: 'field', object: objectRef('ResourceQuota', name, namespace), path: `spec.hard[${q.resource}]`, value: q.hard }];
          if (q.used !== null)
            ev.push({ type: 'field', object: objectRef('ResourceQuota', name, namespace), path: `status.used[${q.resource}]`, value: q.used });
          ev.push({ type: 'note', text: `${q.resource}: usage computed from the claims' specs is ${q.computedUsed}` });
          return ev;
        }),
        remediation: `Raise the hard limit of ResourceQuota ${namespace}/${name} if the usage is expected, or release unused claims (allocationMode All requests charge ${ALL_MODE_DEVICES} devices each; prefer ExactCount).`,
      });
    }
    return out;
  },
};

/**
 * Whether a usage is at the watermark of a hard limit, answered once per pair of texts: the quotas
 * of a large cluster repeat a few limits and usages, and each exact comparison parses three
 * quantities into bigints.
 */
export function usageAtWatermark(watermark: number): (used: string, hard: string) => boolean {
  const byHard = new Map<string, Map<string, boolean>>();
  return (used, hard) => {
    let byUsed = byHard.get(hard);
    if (!byUsed) byHard.set(hard, (byUsed = new Map()));
    let hit = byUsed.get(used);
    if (hit === undefined) byUsed.set(used, (hit = atWatermark(used, hard, watermark)));
    return hit;
  };
}

function atWatermark(used: string, hard: string, watermark: number): boolean {
  // A hard limit of 0 forbids the resource: only flag it when something is charged.
  if (hard === '0') return used !== '0';
  return atOrAboveWatermark(used, hard, watermark);
}

// ---------------------------------------------------------------- QUOTA004

export const quota004: Check = {
  id: 'QUOTA004',
  run(ctx) {
    const out: FindingDraft[] = [];
    // Only the objects with an All request are sorted (a stable sort keeps the same order): sorting
    // every claim of a large cluster by three strings was most of this check.
    const objects = [...ctx.state.resourceClaimTemplates, ...ctx.state.resourceClaims]
      .filter(requestsAllDevices)
      .sort(
        (a, b) =>
          compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
          compareStrings(a.kind, b.kind) ||
          compareStrings(a.metadata.name, b.metadata.name),
      );
    for (const o of objects) {
      const evidence: Evidence[] = [];
      const classes: string[] = [];
      specOf(o)?.devices?.requests?.forEach((r, i) => {
        if (r.exactly?.allocationMode === 'All') {
          evidence.push({ type: 'field', object: objRef(o), path: `${specPath(o)}[${i}].exactly.allocationMode`, value: 'All' });
          classes.push(r.exactly.deviceClassName);
        }
        r.firstAvailable?.forEach((s, j) => {
          if (s.allocationMode === 'All') {
            evidence.push({ type: 'field', object: objRef(o), path: `${specPath(o)}[${i}].firstAvailable[${j}].allocationMode`, value: 'All' });
            classes.push(s.deviceClassName);
          }
        });
      });
      if (evidence.length === 0) continue;
      const uniq = [...new Set(classes)].sort();
      out.push({
        subjects: [],
        objects: [objRef(o)],
        message: `${o.kind} ${o.metadata.namespace}/${o.metadata.name} requests all devices (allocationMode: All) of ${list(uniq.map((c) => `DeviceClass ${c}`))}; quota charges ${ALL_MODE_DEVICES} devices per such request (${uniq.map((c) => devicesQuotaKey(c)).join(', ')}), whatever is actually allocated.`,
        evidence,
        remediation: `Use allocationMode: ExactCount with the number of devices needed, or size the namespace's ${uniq.map((c) => devicesQuotaKey(c)).join(', ')} quota for ${ALL_MODE_DEVICES} devices per claim.`,
      });
    }
    return out;
  },
};

/** Whether a request or subrequest of the spec has allocationMode All. */
function requestsAllDevices(o: ResourceClaim | ResourceClaimTemplate): boolean {
  for (const r of specOf(o)?.devices?.requests ?? []) {
    if (r.exactly?.allocationMode === 'All') return true;
    if (r.firstAvailable?.some((s) => s.allocationMode === 'All')) return true;
  }
  return false;
}

export const QUOTA_CHECKS: Check[] = [quota001, quota002, quota003, quota004];
