import type { WhoCanGrant } from '@/lib/authz/who-can';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import type { CompiledRole } from '@/lib/authz/rbac-index';
import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence } from '@/lib/report/types';
import { bindingRef, entriesFor, mergeGrants, plainRule, PROBE_NAME, type AccessEntry, type AccessQuestion } from '@/lib/analysis/context/access';
import { access, analysisPods, componentReasons } from '@/lib/analysis/context/build-analysis-context';
import { canonicalSubject, isMastersGroup, isNodeIdentity, usernameOf } from '@/lib/analysis/context/identities';
import { mountedHostPaths, podServiceAccount } from '@/lib/analysis/context/pod-facts';
import { DRIVER_VERBS, Q } from '@/lib/analysis/context/questions';
import type { Check, FindingDraft } from './check-types';
import {
  clusterRoleBindingYaml,
  clusterRoleYaml,
  describeGrants,
  describeRef,
  describeRule,
  describeSubject,
  grantObjects,
  grantsEvidence,
  knownDrivers,
  list,
  namesText,
  ruleYaml,
  slug,
  sortRefs,
  sortSubjects,
  whereText,
  yamlDocs,
} from './check-helpers';

const DRA_GROUP = 'resource.k8s.io';
const DRA_RESOURCES = new Set(['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices', 'devicetaintrules']);

// ---------------------------------------------------------------- shared

/** RBAC-granted entries of ordinary identities: not system:masters, not the Node authorizer. */
function rbacEntries(ctx: AnalysisContext, q: AccessQuestion): AccessEntry[] {
  return access(ctx, q).filter((e) => e.via === 'rbac' && !isMastersGroup(e.subject) && !isNodeIdentity(e.subject));
}

/** Roles (with their effective rules) that some binding with at least one subject points at. */
export function boundRoles(ctx: AnalysisContext): { role: CompiledRole; bindings: { ref: ObjectRef; subjects: SubjectRef[] }[] }[] {
  const out: { role: CompiledRole; bindings: { ref: ObjectRef; subjects: SubjectRef[] }[] }[] = [];
  const roles: CompiledRole[] = [...ctx.engine.rbac.clusterRoles.values()];
  for (const inNs of ctx.engine.rbac.roles.values()) roles.push(...inNs.values());
  for (const role of roles) {
    const bindings = (ctx.engine.rbac.bindingsByRole.get(role.key) ?? [])
      .filter((b) => b.subjects.length > 0)
      .map((b) => ({ ref: bindingRef(b.ref), subjects: b.subjects.map(canonicalSubject) }));
    if (bindings.length > 0) out.push({ role, bindings });
  }
  return out.sort((a, b) => (a.role.key < b.role.key ? -1 : a.role.key > b.role.key ? 1 : 0));
}

/** cluster-admin and the bootstrap `system:*` ClusterRoles. */
function isBootstrapOrClusterAdmin(role: CompiledRole): boolean {
  return role.ref.kind === 'ClusterRole' && (role.ref.name === 'cluster-admin' || role.ref.name.startsWith('system:'));
}

function ruleEvidence(role: CompiledRole, binding: ObjectRef, ruleIndex: number): Evidence {
  const ev: Evidence = { type: 'grant', binding, role: bindingRef(role.ref), ruleIndex, rule: plainRule(role.rules[ruleIndex].rule) };
  if (role.rules[ruleIndex].from) ev.aggregatedFrom = role.rules[ruleIndex].from;
  return ev;
}

function boundText(bindings: { ref: ObjectRef; subjects: SubjectRef[] }[]): string {
  return bindings.map((b) => `${describeRef(b.ref)} (${b.subjects.map(describeSubject).join(', ')})`).join('; ');
}

/** Driver names a service account serves: plugin sub-directories its driver pods mount, or driver names its grants list. */
function driverNamesOf(ctx: AnalysisContext, sa: SubjectRef): string[] {
  const names = new Set<string>();
  for (const pod of ctx.driverPods) {
    if ((pod.metadata.namespace ?? '') !== sa.namespace || podServiceAccount(pod) !== sa.name) continue;
    for (const m of mountedHostPaths(pod)) {
      const sub = /^\/var\/lib\/kubelet\/plugins\/([^/]+)/.exec(m.path);
      if (sub) names.add(sub[1]);
    }
  }
  for (const e of entriesFor(access(ctx, Q.claimDriver), sa)) for (const n of e.names) if (n !== '*') names.add(n);
  return [...names].sort();
}

function driverNamesHint(ctx: AnalysisContext, names: string[]): string[] {
  if (names.length > 0) return names;
  const known = knownDrivers(ctx);
  return [known.length === 1 ? known[0] : '<driver-name>'];
}

/** Least-privilege ClusterRole + binding of a node-local DRA kubelet plugin (dra-example-driver shape). */
function kubeletPluginRoleYaml(sa: SubjectRef, drivers: string[]): string {
  const name = `${slug(sa)}-dra-kubelet-plugin`;
  return yamlDocs(
    clusterRoleYaml(name, [
      { apiGroups: [DRA_GROUP], resources: ['resourceslices'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
      { apiGroups: [DRA_GROUP], resources: ['resourceclaims'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [DRA_GROUP], resources: ['resourceclaims/status'], verbs: ['update', 'patch'] },
      { apiGroups: [DRA_GROUP], resources: ['resourceclaims/driver'], resourceNames: drivers, verbs: ['associated-node:update', 'associated-node:patch'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
    ]),
    clusterRoleBindingYaml(name, name, sa),
  );
}

/** Why the service account is a DRA component: the driver workloads it runs, else what it can write. */
function componentText(ctx: AnalysisContext, sa: SubjectRef): string {
  const r = componentReasons(ctx, sa);
  if (r.driverWorkloads.length > 0) return `runs DRA driver pods (${r.driverWorkloads.map(describeRef).join(', ')})`;
  return r.capabilities.length > 0 ? list(r.capabilities) : 'is a DRA component';
}

// ---------------------------------------------------------------- DRA001

export const dra001: Check = {
  id: 'DRA001',
  severity: 'critical',
  title: 'DRA component identity is cluster-admin equivalent',
  description:
    'A DRA component identity (a service account that writes ResourceSlices or ResourceClaim status/binding/driver, or runs DRA driver pods) holds * verbs on * resources in * groups cluster-wide.',
  run(ctx) {
    const admin = rbacEntries(ctx, Q.adminProbe);
    const out: FindingDraft[] = [];
    for (const sa of ctx.draComponents) {
      if (!ctx.isAdminEquivalent(sa)) continue;
      const entries = entriesFor(admin, sa);
      const grants = mergeGrants(entries);
      const via = entries.filter((e) => e.subject.kind === 'Group').map((e) => `group ${e.subject.name}`);
      const drivers = driverNamesHint(ctx, driverNamesOf(ctx, sa));
      out.push({
        subjects: [sa],
        objects: grantObjects(grants),
        message:
          `${describeSubject(sa)} ${componentText(ctx, sa)}, and holds * verbs on * resources in * groups cluster-wide` +
          `${via.length > 0 ? ` (as a member of ${list(via)})` : ''} through ${describeGrants(ctx, grants)}. ` +
          `A compromise of this DRA component (on any node it runs on) is a compromise of the whole cluster.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Remove ${describeSubject(sa)} from ${list(grants.map((g) => describeRef(g.binding)))} (delete the binding if it exists only for this driver) ` +
          (componentReasons(ctx, sa).driverWorkloads.length > 0
            ? `and bind a least-privilege ClusterRole instead, as a node-local kubelet plugin needs:\n${kubeletPluginRoleYaml(sa, drivers)}`
            : `and bind a ClusterRole with only the DRA rules it uses (${componentText(ctx, sa)}); build one with \`dra-posture build-role\`.`),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA002

function reachesDra(rule: PolicyRule): boolean {
  if (!(rule.apiGroups ?? []).some((g) => g === DRA_GROUP || g === '*')) return false;
  return (rule.resources ?? []).some((r) => r === '*' || r.startsWith('*/') || DRA_RESOURCES.has(r.split('/')[0]));
}

function isWildcardDraRule(rule: PolicyRule): boolean {
  if (!reachesDra(rule)) return false;
  return (rule.verbs ?? []).includes('*') || (rule.resources ?? []).some((r) => r === '*' || r.startsWith('*/'));
}

function narrowedDraRule(rule: PolicyRule): { [k: string]: string[] } {
  const explicit = (rule.resources ?? []).filter((r) => r !== '*' && !r.startsWith('*/') && DRA_RESOURCES.has(r.split('/')[0]));
  const resources = explicit.length > 0 ? explicit : ['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices'];
  const verbs = (rule.verbs ?? []).includes('*') ? ['get', 'list', 'watch'] : [...rule.verbs];
  return { apiGroups: [DRA_GROUP], resources, verbs };
}

export const dra002: Check = {
  id: 'DRA002',
  severity: 'high',
  title: 'Bound role grants wildcard verbs or resources in resource.k8s.io',
  description:
    'A bound role other than cluster-admin and the bootstrap system:* roles grants * verbs or * resources in resource.k8s.io (or in * groups); a wildcard also matches the synthetic resourceclaims/binding and resourceclaims/driver subresources.',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const { role, bindings } of boundRoles(ctx)) {
      if (isBootstrapOrClusterAdmin(role)) continue;
      const idx = role.rules.map((r, i) => (isWildcardDraRule(r.rule) ? i : -1)).filter((i) => i >= 0);
      if (idx.length === 0) continue;
      const roleRef = bindingRef(role.ref);
      const rulesText = idx.map((i) => `rule #${i} (${describeRule(role.rules[i].rule)})`).join('; ');
      const replacement = idx.map((i) => narrowedDraRule(role.rules[i].rule));
      out.push({
        subjects: sortSubjects(bindings.flatMap((b) => b.subjects)),
        objects: sortRefs([roleRef, ...bindings.map((b) => b.ref)]),
        message:
          `${describeRef(roleRef)} grants wildcard access in resource.k8s.io: ${rulesText}. It is bound by ${boundText(bindings)}. ` +
          `A wildcard also matches resourceclaims/binding (forge allocations) and resourceclaims/driver (write any driver's device status), and every DRA resource added later.`,
        evidence: bindings.flatMap((b) => idx.map((i) => ruleEvidence(role, b.ref, i))),
        remediation:
          `Replace ${idx.map((i) => `rule #${i}`).join(', ')} of ${describeRef(roleRef)} with explicit resources and verbs; ` +
          `start from read-only access and add only the write verbs its holders use, e.g.:\n` +
          yamlDocs({ rules: replacement }),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA003

export const dra003: Check = {
  id: 'DRA003',
  severity: 'high',
  title: 'Tenant or non-DRA identity can write DeviceClasses or ResourceSlices',
  description:
    'An identity of a tenant namespace, or a subject that is neither a DRA component nor a system identity, can create/update/patch/delete DeviceClasses (cluster-wide device selection and config) or ResourceSlices (advertise fake devices).',
  run(ctx) {
    const questions: { resource: string; entries: AccessEntry[] }[] = [
      { resource: 'deviceclasses', entries: [...rbacEntries(ctx, Q.classCreate), ...rbacEntries(ctx, Q.classModify)] },
      { resource: 'resourceslices', entries: [...rbacEntries(ctx, Q.sliceCreate), ...rbacEntries(ctx, Q.sliceModify)] },
    ];
    const bySubject = new Map<string, { subject: SubjectRef; parts: string[]; entries: AccessEntry[] }>();
    for (const { resource, entries } of questions) {
      const verbs = new Map<string, { subject: SubjectRef; verbs: string[]; names: string[]; entries: AccessEntry[] }>();
      for (const e of entries) {
        const key = `${e.subject.kind}/${e.subject.namespace ?? ''}/${e.subject.name}`;
        let v = verbs.get(key);
        if (!v) verbs.set(key, (v = { subject: e.subject, verbs: [], names: [], entries: [] }));
        v.verbs.push(...e.verbs);
        v.names.push(...e.names.filter((n) => n !== ''));
        v.entries.push(e);
      }
      for (const [key, v] of verbs) {
        let s = bySubject.get(key);
        if (!s) bySubject.set(key, (s = { subject: v.subject, parts: [], entries: [] }));
        const names = [...new Set(v.names)].sort();
        const scope = names.length === 0 || names.includes('*') ? '' : ` (only ${names.join(', ')})`;
        s.parts.push(`${[...new Set(v.verbs)].join(', ')} ${resource}${scope}`);
        s.entries.push(...v.entries);
      }
    }
    const out: FindingDraft[] = [];
    for (const { subject, parts, entries } of bySubject.values()) {
      if (ctx.isAdminEquivalent(subject)) continue;
      const tenant = isTenantIdentity(ctx, subject);
      if (!tenant && (ctx.isDraComponent(subject) || ctx.isSystemIdentity(subject))) continue;
      const grants = mergeGrants(entries);
      const who = tenant
        ? `${describeSubject(subject)} (an identity of tenant namespace ${tenantNamespace(subject)})`
        : `${describeSubject(subject)} (neither a DRA component nor a system identity)`;
      out.push({
        subjects: [subject],
        objects: grantObjects(grants),
        message:
          `${who} can ${list(parts)} through ${describeGrants(ctx, grants)}. ` +
          `DeviceClasses are cluster-scoped (their selectors and config apply to every tenant) and ResourceSlices advertise devices to the scheduler.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Remove the write verbs on deviceclasses/resourceslices from ${list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))])}, ` +
          `or remove ${describeSubject(subject)} from ${list([...new Set(grants.map((g) => describeRef(g.binding)))])}. ` +
          `Only platform administrators and the DRA drivers' own service accounts should write them; a tenant that needs a new class asks the platform team.`,
      });
    }
    return out;
  },
};

/** A service account of a tenant namespace, or the group of all service accounts of one. */
export function isTenantIdentity(ctx: AnalysisContext, subject: SubjectRef): boolean {
  const ns = tenantNamespace(subject);
  return ns !== undefined && ctx.isTenantNamespace(ns);
}

function tenantNamespace(subject: SubjectRef): string | undefined {
  const s = canonicalSubject(subject);
  if (s.kind === 'ServiceAccount') return s.namespace;
  if (s.kind === 'Group' && s.name.startsWith('system:serviceaccounts:')) return s.name.slice('system:serviceaccounts:'.length);
  return undefined;
}

// ---------------------------------------------------------------- DRA004

const DRIVER_PROBES = DRIVER_VERBS.map((verb) => ({
  verb,
  group: DRA_GROUP,
  resource: 'resourceclaims',
  subresource: 'driver',
  namespace: 'ns',
  name: PROBE_NAME,
}));

// Verbs a rule grants on resourceclaims/driver for every driver name, by naming the subresource (`resourceclaims/driver` or `*/driver`).
function unscopedDriverVerbs(rule: PolicyRule): string[] {
  const named = (rule.resources ?? []).filter((r) => r === 'resourceclaims/driver' || r === '*/driver');
  if (named.length === 0) return [];
  const narrowed: PolicyRule = { ...rule, resources: named };
  return DRIVER_PROBES.filter((p) => ruleAllowsResource(narrowed, p)).map((p) => p.verb);
}

export const dra004: Check = {
  id: 'DRA004',
  severity: 'medium',
  title: 'resourceclaims/driver rule not scoped to a driver',
  description:
    'A bound rule on resourceclaims/driver (or */driver) has no resourceNames, so its holders may write status.devices for every driver. A plain * resource is reported by DRA002.',
  run(ctx) {
    const out: FindingDraft[] = [];
    const drivers = knownDrivers(ctx);
    for (const { role, bindings } of boundRoles(ctx)) {
      const hits = role.rules.map((r, i) => ({ i, verbs: unscopedDriverVerbs(r.rule) })).filter((h) => h.verbs.length > 0);
      if (hits.length === 0) continue;
      const roleRef = bindingRef(role.ref);
      const scoped = hits.map((h) => ruleYaml({ ...role.rules[h.i].rule, resourceNames: drivers.length > 0 ? drivers : ['<driver-name>'] }));
      out.push({
        subjects: sortSubjects(bindings.flatMap((b) => b.subjects)),
        objects: sortRefs([roleRef, ...bindings.map((b) => b.ref)]),
        message:
          `${describeRef(roleRef)} ${hits.map((h) => `rule #${h.i} grants ${h.verbs.join(', ')}`).join('; ')} on resourceclaims/driver without resourceNames, ` +
          `so its holders can write status.devices for every driver, not only their own. Bound by ${boundText(bindings)}.`,
        evidence: bindings.flatMap((b) => hits.map((h) => ruleEvidence(role, b.ref, h.i))),
        remediation:
          `Add resourceNames with the driver name(s) the holders serve to ${hits.map((h) => `rule #${h.i}`).join(', ')} of ${describeRef(roleRef)}` +
          `${drivers.length > 1 ? ` (keep only the holder's own driver among ${drivers.join(', ')})` : ''}:\n` +
          yamlDocs({ rules: scoped }),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA005

export const dra005: Check = {
  id: 'DRA005',
  severity: 'high',
  title: 'Node-local identity can write device status of claims on any node',
  description:
    'A node-local identity (DaemonSet or DRA driver pod service account) holds arbitrary-node:update/patch (or *) on resourceclaims/driver: a compromised node can rewrite device status of claims allocated on every other node.',
  run(ctx) {
    const entries = rbacEntries(ctx, Q.claimDriverArbitrary);
    const out: FindingDraft[] = [];
    for (const sa of ctx.nodeLocalIdentities) {
      if (ctx.isAdminEquivalent(sa)) continue;
      const mine = entriesFor(entries, sa);
      if (mine.length === 0) continue;
      const grants = mergeGrants(mine);
      const verbs = [...new Set(mine.flatMap((e) => e.verbs))];
      const names = [...new Set(mine.flatMap((e) => e.names))].sort();
      const everywhere = mine.some((e) => e.everyNamespace);
      const nss = [...new Set(mine.flatMap((e) => e.namespaces))].sort();
      const drivers = driverNamesHint(
        ctx,
        driverNamesOf(ctx, sa).filter((n) => n !== '*'),
      );
      const workloads = workloadsOf(ctx, sa);
      out.push({
        subjects: [sa],
        objects: grantObjects(grants),
        message:
          `${describeSubject(sa)} runs on nodes (${workloads.map(describeRef).join(', ') || 'DaemonSet pods'}) and can ${verbs.join(', ')} resourceclaims/driver for ` +
          `${namesText(names, 'driver')} ${whereText(everywhere, nss)} through ${describeGrants(ctx, grants)}. ` +
          `arbitrary-node verbs are not tied to the node the token was issued for, so a compromised node can rewrite status.devices of claims allocated on every other node.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Replace the arbitrary-node verbs with associated-node:update and associated-node:patch, scoped to the driver name(s), ` +
          `in ${list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))])}:\n` +
          yamlDocs({
            rules: [
              {
                apiGroups: [DRA_GROUP],
                resources: ['resourceclaims/driver'],
                resourceNames: drivers,
                verbs: ['associated-node:update', 'associated-node:patch'],
              },
            ],
          }),
      });
    }
    return out;
  },
};

function workloadsOf(ctx: AnalysisContext, sa: SubjectRef): ObjectRef[] {
  const out: ObjectRef[] = [];
  for (const pod of analysisPods(ctx)) {
    if ((pod.metadata.namespace ?? '') !== sa.namespace || podServiceAccount(pod) !== sa.name) continue;
    const owner = ctx.ownerOf(pod);
    if (owner.kind === 'DaemonSet' || ctx.isDriverPod(pod)) out.push(owner);
  }
  return sortRefs(out);
}

// ---------------------------------------------------------------- DRA006

export const dra006: Check = {
  id: 'DRA006',
  severity: 'medium',
  title: 'resourceclaims/status writer lacks binding and driver grants (breaks on 1.36)',
  description:
    'An identity can update/patch resourceclaims/status but holds neither resourceclaims/binding nor resourceclaims/driver: with granular status authorization (1.36+) its writes to allocation, reservedFor or status.devices are refused.',
  run(ctx) {
    const binding = access(ctx, Q.claimBinding);
    const driver = access(ctx, Q.claimDriver);
    const granular = ctx.engine.features.granularStatusAuthorization;
    const out: FindingDraft[] = [];
    for (const e of rbacEntries(ctx, Q.claimStatus)) {
      if (ctx.isAdminEquivalent(e.subject)) continue;
      if (entriesFor(binding, e.subject).length > 0 || entriesFor(driver, e.subject).length > 0) continue;
      const grants = e.grants;
      const name = slug(e.subject);
      out.push({
        subjects: [e.subject],
        objects: grantObjects(grants),
        message:
          `${describeSubject(e.subject)} can ${e.verbs.join(', ')} resourceclaims/status ${whereText(e.everyNamespace, e.namespaces)} through ${describeGrants(ctx, grants)}, ` +
          `but holds neither resourceclaims/binding nor resourceclaims/driver. ` +
          (granular
            ? 'Granular ResourceClaim status authorization is on (1.36+), so its writes to status.allocation/reservedFor or status.devices are refused.'
            : 'Once the cluster runs 1.36+ (granular ResourceClaim status authorization), its writes to status.allocation/reservedFor or status.devices will be refused.'),
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Grant the synthetic subresource matching what it writes. An allocator (writes allocation/reservedFor) needs, at cluster scope:\n` +
          yamlDocs(
            clusterRoleYaml(`${name}-claim-binding`, [{ apiGroups: [DRA_GROUP], resources: ['resourceclaims/binding'], verbs: ['update', 'patch'] }]),
            clusterRoleBindingYaml(`${name}-claim-binding`, `${name}-claim-binding`, e.subject),
          ) +
          `\nA node-local driver (writes status.devices) needs instead:\n` +
          yamlDocs({
            rules: [
              {
                apiGroups: [DRA_GROUP],
                resources: ['resourceclaims/driver'],
                resourceNames: driverNamesHint(ctx, []),
                verbs: ['associated-node:update', 'associated-node:patch'],
              },
            ],
          }) +
          `\nIf it writes neither, remove update/patch on resourceclaims/status from ${list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))])}.`,
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA007

export const dra007: Check = {
  id: 'DRA007',
  severity: 'high',
  title: 'Identity other than the allocators can write resourceclaims/binding',
  description:
    'An identity other than the scheduler and the resource-claim controller (settings.allocatorIdentities) can update/patch resourceclaims/binding: it can forge allocations. Admin-equivalents are left to DRA001.',
  run(ctx) {
    const allocators = new Set(ctx.settings.allocatorIdentities);
    const out: FindingDraft[] = [];
    for (const e of rbacEntries(ctx, Q.claimBinding)) {
      if (allocators.has(usernameOf(e.subject)) || ctx.isAdminEquivalent(e.subject)) continue;
      const grants = e.grants;
      out.push({
        subjects: [e.subject],
        objects: grantObjects(grants),
        message:
          `${describeSubject(e.subject)} can ${e.verbs.join(', ')} resourceclaims/binding (cluster scope) through ${describeGrants(ctx, grants)}. ` +
          `It can write status.allocation and status.reservedFor of any ResourceClaim: forge allocations, hand a device in use by one tenant to another, or reserve claims for arbitrary pods.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Remove resourceclaims/binding from ${list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))])} ` +
          `or remove ${describeSubject(e.subject)} from ${list([...new Set(grants.map((g) => describeRef(g.binding)))])}. ` +
          (e.subject.kind === 'Group'
            ? 'Allocators should be individual service accounts or users, never a group.'
            : `If it is a legitimate scheduler or allocator, run it from a platform namespace and add "${usernameOf(e.subject)}" to settings.allocatorIdentities.`),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA008

const DANGEROUS: { label: string; q: AccessQuestion }[] = [
  { label: 'read Secrets cluster-wide', q: { verbs: ['get', 'list', 'watch'], group: '', resource: 'secrets', scope: 'cluster', names: 'unscoped' } },
  { label: 'exec into pods', q: { verbs: ['create', 'get'], group: '', resource: 'pods', subresource: 'exec', scope: 'namespaced', names: 'any' } },
  { label: 'write Namespaces', q: { verbs: ['create', 'update', 'patch', 'delete'], group: '', resource: 'namespaces', scope: 'cluster', names: 'any' } },
  {
    label: 'escalate or bind ClusterRoles',
    q: { verbs: ['escalate', 'bind'], group: 'rbac.authorization.k8s.io', resource: 'clusterroles', scope: 'cluster', names: 'any' },
  },
  {
    label: 'escalate or bind Roles',
    q: { verbs: ['escalate', 'bind'], group: 'rbac.authorization.k8s.io', resource: 'roles', scope: 'namespaced', names: 'any' },
  },
  { label: 'impersonate users', q: { verbs: ['impersonate'], group: '', resource: 'users', scope: 'cluster', names: 'any' } },
  { label: 'impersonate groups', q: { verbs: ['impersonate'], group: '', resource: 'groups', scope: 'cluster', names: 'any' } },
  { label: 'impersonate service accounts', q: { verbs: ['impersonate'], group: '', resource: 'serviceaccounts', scope: 'namespaced', names: 'any' } },
  {
    label: 'impersonate users (constrained user-info)',
    q: { verbs: ['impersonate:user-info'], group: 'authentication.k8s.io', resource: 'users', scope: 'cluster', names: 'any' },
  },
  {
    label: 'impersonate service accounts (constrained)',
    q: { verbs: ['impersonate:serviceaccount'], group: 'authentication.k8s.io', resource: 'serviceaccounts', scope: 'namespaced', names: 'any' },
  },
  {
    label: 'impersonate any node (arbitrary-node)',
    q: { verbs: ['impersonate:arbitrary-node'], group: 'authentication.k8s.io', resource: 'nodes', scope: 'cluster', names: 'any' },
  },
];

export const dra008: Check = {
  id: 'DRA008',
  severity: 'high',
  title: 'DRA component identity holds escalation-grade permissions',
  description:
    'A DRA component identity can read Secrets cluster-wide, exec into pods, write Namespaces, or escalate/bind/impersonate (impersonate:associated-node, tied to the own node, is not counted). Admin-equivalents are left to DRA001.',
  run(ctx) {
    const answers = DANGEROUS.map((d) => ({ ...d, entries: rbacEntries(ctx, d.q) }));
    const out: FindingDraft[] = [];
    for (const sa of ctx.draComponents) {
      if (ctx.isAdminEquivalent(sa)) continue;
      const parts: string[] = [];
      const grants: WhoCanGrant[] = [];
      for (const a of answers) {
        const mine = entriesFor(a.entries, sa);
        if (mine.length === 0) continue;
        const everywhere = mine.some((e) => e.everyNamespace);
        const nss = [...new Set(mine.flatMap((e) => e.namespaces))].sort();
        parts.push(a.q.scope === 'namespaced' ? `${a.label} ${whereText(everywhere, nss)}` : a.label);
        grants.push(...mergeGrants(mine));
      }
      if (parts.length === 0) continue;
      const merged = mergeGrants([{ grants } as AccessEntry]);
      out.push({
        subjects: [sa],
        objects: grantObjects(merged),
        message:
          `${describeSubject(sa)} ${componentText(ctx, sa)}, and can also ${list(parts)} through ${describeGrants(ctx, merged)}. ` +
          `A DRA component needs none of these; a compromise of it turns them into cluster-wide escalation.`,
        evidence: grantsEvidence(ctx, merged),
        remediation:
          `Remove these rules (or remove ${describeSubject(sa)} from the bindings): ` +
          `${list([...new Set(merged.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex} via ${describeRef(g.binding)}`))])}.` +
          (parts.some((p) => p.startsWith('impersonate'))
            ? ' If it must act for the node it runs on, use constrained impersonation (impersonate:associated-node) instead.'
            : ''),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA009

export const dra009: Check = {
  id: 'DRA009',
  severity: 'low',
  title: 'One role shared by unrelated DRA components',
  description:
    'A role (other than cluster-admin and bootstrap system:* roles) is bound to DRA component service accounts of two or more namespaces: unrelated drivers share one permission set, so narrowing it for one breaks or over-grants another.',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const { role, bindings } of boundRoles(ctx)) {
      if (isBootstrapOrClusterAdmin(role)) continue;
      const used = bindings
        // Admin-equivalent components are reported by DRA001 only.
        .map((b) => ({ ref: b.ref, subjects: b.subjects.filter((s) => s.kind === 'ServiceAccount' && ctx.isDraComponent(s) && !ctx.isAdminEquivalent(s)) }))
        .filter((b) => b.subjects.length > 0);
      const components = sortSubjects(used.flatMap((b) => b.subjects));
      const namespaces = [...new Set(components.map((s) => s.namespace ?? ''))].sort();
      if (namespaces.length < 2) continue;
      const roleRef = bindingRef(role.ref);
      out.push({
        subjects: components,
        objects: sortRefs([roleRef, ...used.map((b) => b.ref)]),
        message:
          `${describeRef(roleRef)} is bound to DRA components of ${namespaces.length} namespaces (${namespaces.join(', ')}): ${components.map(describeSubject).join(', ')}, ` +
          `through ${used.map((b) => describeRef(b.ref)).join(', ')}.`,
        evidence: used.map((b) => ({
          type: 'field' as const,
          object: b.ref,
          path: 'subjects',
          value: b.subjects.map((s) => ({ kind: s.kind, namespace: s.namespace, name: s.name })),
        })),
        remediation:
          `Give each driver its own role, scoped to its driver name (resourceNames on resourceclaims/driver), e.g. ` +
          `${namespaces.map((ns) => `${role.ref.name}-${ns}`).join(', ')}, and bind each to its own service account only.`,
      });
    }
    return out;
  },
};

export const DRA_CHECKS: Check[] = [dra001, dra002, dra003, dra004, dra005, dra006, dra007, dra008, dra009];
