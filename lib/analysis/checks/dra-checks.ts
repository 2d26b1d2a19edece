import { dra010 } from './dra-escalation-check';
import { dra011, dra012 } from './dra-capability-checks';
import { draComponentBindings } from './dra-component-bindings';
import { legacyImpersonators } from './node-checks';
import { impersonatorsOf } from '@/lib/analysis/impersonation-reach';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { mergeGrants, type AccessEntry } from '@/lib/analysis/context/access';
import { usernameOf } from '@/lib/analysis/context/identities';
import { Q } from '@/lib/analysis/context/questions';
import { capabilitiesOf, capability, type Capability } from '@/lib/analysis/capabilities';
import { holdingOf, type Holding } from '@/lib/analysis/capability-holders';
import { manifestYamlDocs } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { clusterRoleBindingYaml, clusterRoleYaml, grantObjects, grantsEvidence, list, namesText, ruleYaml, slug, whereText } from './check-helpers';
import { describeRef, describeSubject, refKey, sortRefs, sortSubjects, toObjectRef } from '@/lib/k8s/refs';
import { describeEvidence, describeGrants, describeRule, normaliseEvidence, PROBE_NAME, PROBE_NAMESPACE, roleRuleEvidence } from '@/lib/analysis/evidence';
import type { Evidence } from '@/lib/analysis/types';
import {
  DRA_GROUP,
  boundRoles,
  boundText,
  componentText,
  driverNamesHint,
  driverNamesOf,
  isBootstrapOrClusterAdmin,
  kubeletPluginRoleYaml,
  rbacEntries,
  isTenantIdentity,
  tenantNamespace,
  draRuleHits,
  narrowedDraRule,
} from './dra-shared';

// ---------------------------------------------------------------- DRA001

export const dra001: Check = {
  id: 'DRA001',
  run(ctx) {
    const admin = rbacEntries(ctx, Q.adminProbe);
    const out: FindingDraft[] = [];
    for (const sa of ctx.draComponents) {
      if (!ctx.isAdminEquivalent(sa)) continue;
      const entries = ctx.access.entriesFor(admin, sa);
      const grants = mergeGrants(entries);
      const via = entries.filter((e) => e.subject.kind === 'Group').map((e) => `group ${e.subject.name}`);
      const drivers = driverNamesHint(ctx, driverNamesOf(ctx, sa), sa);
      out.push({
        subjects: [sa],
        objects: grantObjects(grants),
        message:
          `${describeSubject(sa)} ${componentText(ctx, sa)}, and holds * verbs on * resources in * groups cluster-wide` +
          `${via.length > 0 ? ` (as a member of ${list(via)})` : ''} through ${describeGrants(ctx.engine, grants)}. ` +
          `A compromise of this DRA component (on any node it runs on) is a compromise of the whole cluster.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Remove ${describeSubject(sa)} from ${list(grants.map((g) => describeRef(g.binding)))} (delete the binding if it exists only for this driver) ` +
          (ctx.componentReasons(sa).driverWorkloads.length > 0
            ? `and bind a least-privilege ClusterRole instead, as a node-local kubelet plugin needs:\n${kubeletPluginRoleYaml(sa, drivers)}`
            : `and bind a ClusterRole with only the DRA rules it uses (${componentText(ctx, sa)}); build one with \`dra-posture build-role\`.`),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA002

export const dra002: Check = {
  id: 'DRA002',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const { bound, wildcard: idx } of draRuleHits(ctx)) {
      const role = bound.role;
      if (!idx || isBootstrapOrClusterAdmin(role)) continue;
      const bindings = bound.bindings;
      const roleRef = toObjectRef(role.ref);
      const rulesText = idx.map((i) => `rule #${i} (${describeRule(role.rules[i].rule)})`).join('; ');
      const replacement = idx.map((i) => narrowedDraRule(role.rules[i].rule));
      out.push({
        subjects: sortSubjects(bindings.flatMap((b) => b.subjects)),
        objects: sortRefs([roleRef, ...bindings.map((b) => b.ref)]),
        message:
          `${describeRef(roleRef)} grants wildcard access in resource.k8s.io: ${rulesText}. It is bound by ${boundText(bindings)}. ` +
          `A wildcard also matches resourceclaims/binding (forge allocations) and resourceclaims/driver (write any driver's device status), and every DRA resource added later.`,
        evidence: bindings.flatMap((b) => idx.map((i) => roleRuleEvidence(role, b.ref, i))),
        remediation:
          `Replace ${idx.map((i) => `rule #${i}`).join(', ')} of ${describeRef(roleRef)} with explicit resources and verbs; ` +
          `start from read-only access and add only the write verbs its holders use, e.g.:\n` +
          manifestYamlDocs({ rules: replacement }),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA003

export const dra003: Check = {
  id: 'DRA003',
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
          `${who} can ${list(parts)} through ${describeGrants(ctx.engine, grants)}. ` +
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
// ---------------------------------------------------------------- DRA004

export const dra004: Check = {
  id: 'DRA004',
  run(ctx) {
    const out: FindingDraft[] = [];
    const drivers = ctx.knownDrivers;
    for (const { bound, driver: hits } of draRuleHits(ctx)) {
      const role = bound.role;
      if (!hits) continue;
      const bindings = bound.bindings;
      const roleRef = toObjectRef(role.ref);
      const scoped = hits.map((h) => ruleYaml({ ...role.rules[h.i].rule, resourceNames: drivers.length > 0 ? drivers : ['<driver-name>'] }));
      out.push({
        subjects: sortSubjects(bindings.flatMap((b) => b.subjects)),
        objects: sortRefs([roleRef, ...bindings.map((b) => b.ref)]),
        message:
          `${describeRef(roleRef)} ${hits.map((h) => `rule #${h.i} grants ${h.verbs.join(', ')}`).join('; ')} on resourceclaims/driver without resourceNames, ` +
          `so its holders can write status.devices for every driver, not only their own. Bound by ${boundText(bindings)}.`,
        evidence: bindings.flatMap((b) => hits.map((h) => roleRuleEvidence(role, b.ref, h.i))),
        remediation:
          `Add resourceNames with the driver name(s) the holders serve to ${hits.map((h) => `rule #${h.i}`).join(', ')} of ${describeRef(roleRef)}` +
          `${drivers.length > 1 ? ` (keep only the holder's own driver among ${drivers.join(', ')})` : ''}:\n` +
          manifestYamlDocs({ rules: scoped }),
      });
    }
    return out;
  },
};

// ---------------------------------------------------------------- DRA005

export const dra005: Check = {
  id: 'DRA005',
  run(ctx) {
    const granular = ctx.engine.features.granularStatusAuthorization;
    const cap = capability(granular ? 'forge-device-status' : 'claim-status-without-granular');
    const entries = rbacEntries(ctx, cap.questions[0]);
    const out: FindingDraft[] = [];
    for (const e of entries) {
      const subject = e.subject;
      if (ctx.isAdminEquivalent(subject) || ctx.isSystemIdentity(subject)) continue;
      const why = unexpectedDeviceStatusWriter(ctx, subject, e, granular);
      if (!why) continue;
      const grants = e.grants;
      const nodeLocal = ctx.isNodeLocalIdentity(subject);
      const drivers = driverNamesHint(
        ctx,
        driverNamesOf(ctx, subject).filter((n) => n !== '*'),
        subject,
      );
      const where = whereText(e.everyNamespace, e.namespaces);
      const rules = list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))]);
      out.push({
        subjects: [subject],
        objects: grantObjects(grants),
        message:
          `${describeSubject(subject)} ${why} and can ${e.verbs.join(', ')} ${granular ? `resourceclaims/driver for ${namesText(e.names, 'driver')}` : 'resourceclaims/status'} ${where} through ${describeGrants(ctx.engine, grants)}. ` +
          (granular
            ? 'arbitrary-node verbs are not tied to the node a token was issued for: it can rewrite status.devices of claims allocated on every node.'
            : 'Granular ResourceClaim status authorization is off, so claim status writes are not limited to a driver or a node: it can rewrite status.devices (and allocations) of any claim.'),
        evidence: grantsEvidence(ctx, grants),
        remediation: nodeLocal
          ? `Replace the arbitrary-node verbs with associated-node:update and associated-node:patch, scoped to the driver name(s), in ${rules}:\n` +
            manifestYamlDocs({
              rules: [
                {
                  apiGroups: [DRA_GROUP],
                  resources: ['resourceclaims/driver'],
                  resourceNames: drivers,
                  verbs: ['associated-node:update', 'associated-node:patch'],
                },
              ],
            })
          : `Remove ${describeSubject(subject)} from ${list([...new Set(grants.map((g) => describeRef(g.binding)))])}, or remove the ${granular ? 'resourceclaims/driver' : 'resourceclaims/status'} write from ${rules}: ` +
            `device status is written by a driver's own service account, for its own driver name (kubelet plugins with associated-node verbs; a multi-node controller from a platform namespace with arbitrary-node verbs and resourceNames).`,
      });
    }
    out.push(...deviceStatusImpersonators(ctx, entries, granular));
    return out;
  },
};

/**
 * Identities that reach device-status writes by impersonating a holder (legacy impersonate of its
 * account, or constrained serviceaccount/user-info impersonation with the action grant on
 * resourceclaims/status), decided end to end by the engine. Legacy impersonators of anyone are
 * NODE002's (critical) and not repeated here.
 */
function deviceStatusImpersonators(ctx: AnalysisContext, holders: readonly AccessEntry[], granular: boolean): FindingDraft[] {
  const legacy = legacyImpersonators(ctx);
  const direct = new Set(holders.map((e) => refKey(e.subject)));
  const found = new Map<string, { subject: SubjectRef; paths: string[]; via: Evidence[]; grants: WhoCanGrant[] }>();
  // Not reported here, so not decided either.
  const dropped = (s: SubjectRef) => direct.has(refKey(s)) || legacy.has(refKey(s));
  for (const h of holders) {
    if (ctx.isAdminEquivalent(h.subject)) continue;
    const namespace = h.everyNamespace ? PROBE_NAMESPACE : h.namespaces[0];
    const target = { resource: { verb: 'update', group: DRA_GROUP, resource: 'resourceclaims', subresource: 'status', namespace, name: PROBE_NAME } };
    for (const imp of impersonatorsOf(ctx, h.subject, target, dropped)) {
      const key = refKey(imp.subject);
      if (direct.has(key) || legacy.has(key) || ctx.isAdminEquivalent(imp.subject) || ctx.isSystemIdentity(imp.subject)) continue;
      let f = found.get(key);
      if (!f) found.set(key, (f = { subject: imp.subject, paths: [], via: [], grants: [] }));
      f.paths.push(
        `${describeSubject(h.subject)} (${imp.decision.impersonation.mode} impersonation), which can ${h.verbs.join(', ')} ${granular ? `resourceclaims/driver for ${namesText(h.names, 'driver')}` : 'resourceclaims/status'} ${whereText(h.everyNamespace, h.namespaces)}`,
      );
      f.via.push(...imp.via);
      f.grants.push(...h.grants);
    }
  }
  return [...found.values()].map((f) => {
    const evidence = normaliseEvidence([...f.via, ...grantsEvidence(ctx, mergeGrants([{ grants: f.grants } as AccessEntry]))]);
    const refs = evidence.flatMap((e) => (e.type === 'grant' ? [e.binding, e.role] : []));
    return {
      subjects: [f.subject],
      objects: sortRefs(refs.filter((r, i) => refs.findIndex((x) => refKey(x) === refKey(r)) === i)),
      message:
        `${describeSubject(f.subject)} can impersonate ${list(f.paths)}: ${evidence.map(describeEvidence).join('; ')}. ` +
        `Impersonating a device-status writer gives its writes: status.devices of claims allocated on any node.`,
      evidence,
      remediation: `Remove the impersonation grants (${list([...new Set(evidence.flatMap((e) => (e.type === 'grant' && /impersonat/.test(e.rule.verbs.join(' ')) ? [`${describeRef(e.role)} rule #${e.ruleIndex}`] : [])))])}) from ${describeSubject(f.subject)}; a driver's service account should be used only by the driver's own pods.`,
    };
  });
}

/**
 * Why a holder of device-status writes is not the expected one (undefined when it is): a driver's
 * multi-node controller (a service account of a platform namespace, not node-local) scoped to
 * named drivers is the only expected holder of arbitrary-node verbs; before granular status
 * authorization every DRA component of a platform namespace needs resourceclaims/status.
 */
function unexpectedDeviceStatusWriter(ctx: AnalysisContext, subject: SubjectRef, e: AccessEntry, granular: boolean): string | undefined {
  if (subject.kind === 'Group')
    return `is a group (every member${subject.name.startsWith('system:') ? `, e.g. every ${groupMembers(subject.name)},` : ''} holds it)`;
  if (subject.kind === 'User') return 'is a user, not a driver';
  const ns = subject.namespace ?? '';
  if (!ctx.isPlatformNamespace(ns)) return `is a service account of tenant namespace ${ns}`;
  if (!granular) return undefined;
  if (ctx.isNodeLocalIdentity(subject)) return `runs on nodes (${workloadsOf(ctx, subject).map(describeRef).join(', ') || 'DaemonSet pods'})`;
  if (e.names.includes('*')) return 'is not scoped to its own driver name';
  return undefined;
}

function groupMembers(group: string): string {
  if (group === 'system:authenticated') return 'authenticated user and service account';
  if (group === 'system:serviceaccounts') return 'service account';
  if (group.startsWith('system:serviceaccounts:')) return `service account of namespace ${group.slice('system:serviceaccounts:'.length)}`;
  return 'member';
}

function workloadsOf(ctx: AnalysisContext, sa: SubjectRef): ObjectRef[] {
  const out: ObjectRef[] = [];
  // The account's pods from the context's index, in the same order (this scanned every pod of the cluster per account).
  for (const pod of sa.namespace === undefined ? [] : ctx.podsOfServiceAccount(sa.namespace, sa.name)) {
    const owner = ctx.ownerOf(pod);
    if (owner.kind === 'DaemonSet' || ctx.isDriverPod(pod)) out.push(owner);
  }
  return sortRefs(out);
}

// ---------------------------------------------------------------- DRA006

export const dra006: Check = {
  id: 'DRA006',
  run(ctx) {
    const binding = ctx.access.whoCan(Q.claimBinding);
    const driver = ctx.access.whoCan(Q.claimDriver);
    const granular = ctx.engine.features.granularStatusAuthorization;
    const out: FindingDraft[] = [];
    for (const e of rbacEntries(ctx, Q.claimStatus)) {
      if (ctx.isAdminEquivalent(e.subject)) continue;
      if (ctx.access.entriesFor(binding, e.subject).length > 0 || ctx.access.entriesFor(driver, e.subject).length > 0) continue;
      const grants = e.grants;
      const name = slug(e.subject);
      out.push({
        subjects: [e.subject],
        objects: grantObjects(grants),
        message:
          `${describeSubject(e.subject)} can ${e.verbs.join(', ')} resourceclaims/status ${whereText(e.everyNamespace, e.namespaces)} through ${describeGrants(ctx.engine, grants)}, ` +
          `but holds neither resourceclaims/binding nor resourceclaims/driver. ` +
          (granular
            ? 'Granular ResourceClaim status authorization is on (1.36+), so its writes to status.allocation/reservedFor or status.devices are refused.'
            : 'Once the cluster runs 1.36+ (granular ResourceClaim status authorization), its writes to status.allocation/reservedFor or status.devices will be refused.'),
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Grant the synthetic subresource matching what it writes. An allocator (writes allocation/reservedFor) needs, at cluster scope:\n` +
          manifestYamlDocs(
            clusterRoleYaml(`${name}-claim-binding`, [{ apiGroups: [DRA_GROUP], resources: ['resourceclaims/binding'], verbs: ['update', 'patch'] }]),
            clusterRoleBindingYaml(`${name}-claim-binding`, `${name}-claim-binding`, e.subject),
          ) +
          `\nA node-local driver (writes status.devices) needs instead:\n` +
          manifestYamlDocs({
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
          `${describeSubject(e.subject)} can ${e.verbs.join(', ')} resourceclaims/binding (cluster scope) through ${describeGrants(ctx.engine, grants)}. ` +
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

export const dra008: Check = {
  id: 'DRA008',
  run(ctx) {
    const caps = capabilitiesOf('DRA008');
    const out: FindingDraft[] = [];
    for (const sa of ctx.draWorkloadAccounts) {
      if (ctx.isAdminEquivalent(sa)) continue;
      const parts: string[] = [];
      const grants: WhoCanGrant[] = [];
      for (const cap of caps) {
        // A tenant's account writing DeviceClasses is DRA003's.
        if (cap.id === 'write-deviceclasses' && isTenantIdentity(ctx, sa)) continue;
        const h = holdingOf(ctx, cap, sa);
        if (!h) continue;
        parts.push(`${cap.label}${scopeText(cap, h)} [${h.verbs.join(', ')}]`);
        grants.push(...h.grants);
      }
      if (parts.length === 0) continue;
      const merged = mergeGrants([{ grants } as AccessEntry]);
      out.push({
        subjects: [sa],
        objects: grantObjects(merged),
        message:
          `${describeSubject(sa)} ${workloadText(ctx, sa)}, and can also ${list(parts)} through ${describeGrants(ctx.engine, merged)}. ` +
          `A DRA component needs none of these; a compromise of it turns them into cluster-wide escalation.`,
        evidence: grantsEvidence(ctx, merged),
        remediation:
          `Remove these rules (or remove ${describeSubject(sa)} from the bindings): ` +
          `${list([...new Set(merged.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex} via ${describeRef(g.binding)}`))])}.` +
          (parts.some((p) => p.startsWith('impersonate'))
            ? ' If it must act for the node it runs on, use constrained impersonation (impersonate:associated-node) instead.'
            : '') +
          (parts.some((p) => p.includes('admits privileged pods'))
            ? ' Where a controller must create workloads in its own namespace, enforce Pod Security there (pod-security.kubernetes.io/enforce=baseline) so they cannot run privileged, or move the privileged workload to a namespace it cannot write.'
            : ''),
      });
    }
    return out;
  },
};

/** Where a holding counts, in words ('' for cluster-scoped capabilities). */
function scopeText(cap: Capability, h: Holding): string {
  if (cap.questions.every((q) => q.scope === 'cluster')) return '';
  if (h.everyNamespace) return ' in every namespace';
  const text = whereText(false, h.namespaces);
  return cap.scope === 'privileged-namespaces' ? ` ${text} (${h.namespaces.length === 1 ? 'admits' : 'each admits'} privileged pods)` : ` ${text}`;
}

/** Why the account belongs to a DRA driver: component reasons, else the driver namespace its pods run in. */
function workloadText(ctx: AnalysisContext, sa: SubjectRef): string {
  if (ctx.isDraComponent(sa)) return componentText(ctx, sa);
  const workloads = sortRefs(ctx.podsOfServiceAccount(sa.namespace ?? '', sa.name).map((p) => ctx.ownerOf(p))).filter(
    (w, i, all) => i === 0 || describeRef(w) !== describeRef(all[i - 1]),
  );
  return `runs ${workloads.map(describeRef).join(', ') || 'pods'} in the DRA driver namespace ${sa.namespace}`;
}

// ---------------------------------------------------------------- DRA009

export const dra009: Check = {
  id: 'DRA009',
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const bound of boundRoles(ctx)) {
      const role = bound.role;
      if (isBootstrapOrClusterAdmin(role)) continue;
      // Admin-equivalent components are reported by DRA001 only (left out of the bindings' subjects).
      const used = draComponentBindings(ctx, role);
      const components = sortSubjects(used.flatMap((b) => b.subjects));
      const namespaces = [...new Set(components.map((s) => s.namespace ?? ''))].sort();
      if (namespaces.length < 2) continue;
      const roleRef = toObjectRef(role.ref);
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

export const DRA_CHECKS: Check[] = [dra001, dra002, dra003, dra004, dra005, dra006, dra007, dra008, dra009, dra010, dra011, dra012];
