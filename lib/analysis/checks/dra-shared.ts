import type { PolicyRule, ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import { DRIVER_VERBS, Q } from '@/lib/analysis/context/questions';
import { PROBE_NAME } from '@/lib/analysis/evidence';
import type { CompiledRole, IndexedBinding } from '@/lib/authz/rbac-index';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { type AccessEntry, type AccessQuestion } from '@/lib/analysis/context/access';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import { memoPerSubject, oncePerAnalysis } from '@/lib/analysis/context/memo-per-analysis';
import { mountedHostPaths } from '@/lib/analysis/context/pod-facts';
import { manifestYamlDocs } from '@/lib/k8s/manifest-yaml';
import { nodeLocalDriver } from '@/lib/personas/node-local-driver';
import { clusterRoleBindingYaml, clusterRoleYaml, list, ruleYaml, slug } from './check-helpers';
import { describeRef, describeSubject, toObjectRef, compareStrings } from '@/lib/k8s/refs';
import { servedDrivers } from '@/lib/analysis/fixes/served-drivers';

// Helpers shared by the DRA checks: bound roles, the entries of ordinary identities, driver names and
// the kubelet plugin's least-privilege role for remediations.

export const DRA_GROUP = 'resource.k8s.io';
export const DRA_RESOURCES = new Set(['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices', 'devicetaintrules']);

/** RBAC-granted entries of ordinary identities: not system:masters, not the Node authorizer. */
export function rbacEntries(ctx: AnalysisContext, q: AccessQuestion): AccessEntry[] {
  return ctx.access.rbacWhoCan(q);
}

/** A role that some binding with at least one subject points at; `bindings` is built when first read. */
export interface BoundRole {
  role: CompiledRole;
  readonly bindings: { ref: ObjectRef; subjects: SubjectRef[] }[];
}

/**
 * Roles (with their effective rules) that some binding with at least one subject points at. The
 * checks that walk them read the bindings of the few roles they report: on a large cluster building
 * every role's bindings (45,000 of them) was most of each walk. Listed once per analysis (DRA002,
 * DRA004, DRA009 and NODE004 each walk them; ~13,000 roles sorted by key on the diverse bench
 * cluster); callers do not change the list.
 */
export const boundRoles: (ctx: AnalysisContext) => readonly BoundRole[] = oncePerAnalysis(listBoundRoles);

function listBoundRoles(ctx: AnalysisContext): BoundRole[] {
  const out: BoundRole[] = [];
  const add = (role: CompiledRole) => {
    const raw = ctx.engine.rbac.bindingsByRole.get(role.key);
    if (raw?.some((b) => b.subjects.length > 0)) out.push(new LazyBoundRole(role, raw));
  };
  for (const role of ctx.engine.rbac.clusterRoles.values()) add(role);
  for (const inNs of ctx.engine.rbac.roles.values()) for (const role of inNs.values()) add(role);
  return out.sort((a, b) => compareStrings(a.role.key, b.role.key));
}

/** One object per bound role, its methods on the prototype: a getter and a closure per role (13,000) were most of the list kept. */
class LazyBoundRole implements BoundRole {
  private built?: BoundRole['bindings'];

  constructor(
    readonly role: CompiledRole,
    private readonly raw: readonly IndexedBinding[],
  ) {}

  get bindings(): BoundRole['bindings'] {
    return (this.built ??= this.raw.filter((b) => b.subjects.length > 0).map((b) => ({ ref: toObjectRef(b.ref), subjects: b.subjects.map(canonicalSubject) })));
  }
}

/** A bound role with rules DRA002 or DRA004 report: its wildcard DRA rules and its rules granting unscoped driver verbs. */
export interface DraRuleHits {
  bound: BoundRole;
  /** Indices of the rules isWildcardDraRule holds for (DRA002), when there are any. */
  wildcard?: number[];
  /** The rules unscopedDriverVerbs finds verbs in, with them (DRA004), when there are any. */
  driver?: { i: number; verbs: string[] }[];
}

/**
 * The bound roles with a wildcard DRA rule or unscoped driver verbs, in boundRoles order, found in one
 * walk of their rules once per analysis: DRA002 and DRA004 each walked every rule of every bound role
 * (~65,000 on the diverse bench cluster), few of which hit.
 */
export const draRuleHits: (ctx: AnalysisContext) => readonly DraRuleHits[] = oncePerAnalysis((ctx) => {
  const out: DraRuleHits[] = [];
  for (const bound of boundRoles(ctx)) {
    const rules = bound.role.rules;
    let wildcard: number[] | undefined;
    let driver: { i: number; verbs: string[] }[] | undefined;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i].rule;
      if (isWildcardDraRule(rule)) (wildcard ??= []).push(i);
      const verbs = unscopedDriverVerbs(rule);
      if (verbs.length > 0) (driver ??= []).push({ i, verbs });
    }
    if (wildcard || driver) out.push({ bound, ...(wildcard ? { wildcard } : {}), ...(driver ? { driver } : {}) });
  }
  return out;
});

/** cluster-admin and the bootstrap `system:*` ClusterRoles. */
export function isBootstrapOrClusterAdmin(role: CompiledRole): boolean {
  return role.ref.kind === 'ClusterRole' && (role.ref.name === 'cluster-admin' || role.ref.name.startsWith('system:'));
}

export function boundText(bindings: { ref: ObjectRef; subjects: SubjectRef[] }[]): string {
  return bindings.map((b) => `${describeRef(b.ref)} (${b.subjects.map(describeSubject).join(', ')})`).join('; ');
}

/** Driver names a service account serves: plugin sub-directories its driver pods mount, or driver names its grants list. */
export function driverNamesOf(ctx: AnalysisContext, sa: SubjectRef): string[] {
  return [...knownDriverNames(ctx, sa)];
}

// Asked by DRA005, DRA009 and the attack paths for the same accounts; each answer read every driver pod.
const knownDriverNames = memoPerSubject(readDriverNames);

function readDriverNames(ctx: AnalysisContext, sa: SubjectRef): string[] {
  const names = new Set<string>();
  const pods = sa.kind === 'ServiceAccount' ? ctx.podsOfServiceAccount(sa.namespace ?? '', sa.name) : [];
  for (const pod of pods) {
    if (!ctx.isDriverPod(pod)) continue;
    for (const m of mountedHostPaths(pod)) {
      const sub = /^\/var\/lib\/kubelet\/plugins\/([^/]+)/.exec(m.path);
      if (sub) names.add(sub[1]);
    }
  }
  for (const e of ctx.access.entriesFor(ctx.access.whoCan(Q.claimDriver), sa)) for (const n of e.names) if (n !== '*') names.add(n);
  return [...names].sort();
}

/**
 * The driver names a remediation scopes to: those given, else the ones the holder's pods show it serves
 * (servedDrivers: registration socket, arguments, the slices on its nodes), else the cluster's only
 * driver; a placeholder only when the facts say nothing.
 */
export function driverNamesHint(ctx: AnalysisContext, names: string[], holder?: SubjectRef): string[] {
  if (names.length > 0) return names;
  const served = holder ? servedDrivers(ctx, holder) : [];
  if (served.length > 0) return served;
  const known = ctx.knownDrivers;
  return [known.length === 1 ? known[0] : '<driver-name>'];
}

/** Least-privilege ClusterRole + binding of a node-local DRA kubelet plugin: the node-local-driver persona's rules. */
export function kubeletPluginRoleYaml(sa: SubjectRef, drivers: string[]): string {
  const name = `${slug(sa)}-dra-kubelet-plugin`;
  const identity = { kind: 'ServiceAccount' as const, namespace: sa.namespace ?? '', name: sa.name, create: false };
  const { cluster } = nodeLocalDriver.rules({ persona: 'node-local-driver', identity, drivers });
  return manifestYamlDocs(
    clusterRoleYaml(
      name,
      cluster.map(({ rule }) => ruleYaml(rule)),
    ),
    clusterRoleBindingYaml(name, name, sa),
  );
}

/** Why the service account is a DRA component: the driver workloads it runs, else what it can write. */
export function componentText(ctx: AnalysisContext, sa: SubjectRef): string {
  const r = ctx.componentReasons(sa);
  if (r.driverWorkloads.length > 0) return `runs DRA driver pods (${r.driverWorkloads.map(describeRef).join(', ')})`;
  return r.capabilities.length > 0 ? list(r.capabilities) : 'is a DRA component';
}

// Loops, and a resource's part before '/' cut only when it has one: DRA002 tests every rule of every
// bound role (13,000 roles on the diverse bench cluster), and most reach no DRA group.
export function reachesDra(rule: PolicyRule): boolean {
  let group = false;
  for (const g of rule.apiGroups ?? []) if (g === DRA_GROUP || g === '*') group = true;
  if (!group) return false;
  for (const r of rule.resources ?? []) {
    if (isWildcardResource(r)) return true;
    const slash = r.indexOf('/');
    if (DRA_RESOURCES.has(slash < 0 ? r : r.slice(0, slash))) return true;
  }
  return false;
}

const isWildcardResource = (r: string) => r === '*' || r.startsWith('*/');

export function isWildcardDraRule(rule: PolicyRule): boolean {
  if (!reachesDra(rule)) return false;
  if ((rule.verbs ?? []).includes('*')) return true;
  for (const r of rule.resources ?? []) if (isWildcardResource(r)) return true;
  return false;
}

export function narrowedDraRule(rule: PolicyRule): { [k: string]: string[] } {
  const explicit = (rule.resources ?? []).filter((r) => r !== '*' && !r.startsWith('*/') && DRA_RESOURCES.has(r.split('/')[0]));
  const resources = explicit.length > 0 ? explicit : ['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices'];
  const verbs = (rule.verbs ?? []).includes('*') ? ['get', 'list', 'watch'] : [...rule.verbs];
  return { apiGroups: [DRA_GROUP], resources, verbs };
}

const DRIVER_PROBES = DRIVER_VERBS.map((verb) => ({
  verb,
  group: DRA_GROUP,
  resource: 'resourceclaims',
  subresource: 'driver',
  namespace: 'ns',
  name: PROBE_NAME,
}));

// Verbs a rule grants on resourceclaims/driver for every driver name, by naming the subresource (`resourceclaims/driver` or `*/driver`).
export function unscopedDriverVerbs(rule: PolicyRule): string[] {
  // DRA004 tries every rule of every bound role (~65,000 rules on the diverse bench cluster) and almost
  // none names the subresource: those are answered without the lists below.
  if (!namesDriverSubresource(rule)) return [];
  const named = (rule.resources ?? []).filter(isDriverSubresource);
  const narrowed: PolicyRule = { ...rule, resources: named };
  return DRIVER_PROBES.filter((p) => ruleAllowsResource(narrowed, p)).map((p) => p.verb);
}

const isDriverSubresource = (r: string) => r === 'resourceclaims/driver' || r === '*/driver';

/** Whether a rule names resourceclaims/driver (itself, or any resource's `/driver` subresource). */
function namesDriverSubresource(rule: PolicyRule): boolean {
  for (const r of rule.resources ?? []) if (isDriverSubresource(r)) return true;
  return false;
}

export function isTenantIdentity(ctx: AnalysisContext, subject: SubjectRef): boolean {
  const ns = tenantNamespace(subject);
  return ns !== undefined && ctx.isTenantNamespace(ns);
}

export function tenantNamespace(subject: SubjectRef): string | undefined {
  const s = canonicalSubject(subject);
  if (s.kind === 'ServiceAccount') return s.namespace;
  if (s.kind === 'Group' && s.name.startsWith('system:serviceaccounts:')) return s.name.slice('system:serviceaccounts:'.length);
  return undefined;
}
