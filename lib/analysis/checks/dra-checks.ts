import { dra010 } from './dra-escalation-check';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { mergeGrants, type AccessEntry } from '@/lib/analysis/context/access';
import { usernameOf } from '@/lib/analysis/context/identities';
import { podServiceAccount } from '@/lib/analysis/context/pod-facts';
import { Q, ESCALATION_QUESTIONS } from '@/lib/analysis/context/questions';
import { manifestYamlDocs } from '@/lib/k8s/manifest-yaml';
import type { Check, FindingDraft } from './check-types';
import { clusterRoleBindingYaml, clusterRoleYaml, grantObjects, grantsEvidence, list, namesText, ruleYaml, slug, whereText } from './check-helpers';
import { describeRef, describeSubject, sortRefs, sortSubjects, toObjectRef } from '@/lib/k8s/refs';
import { describeGrants, describeRule, roleRuleEvidence } from '@/lib/analysis/evidence';
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
  isWildcardDraRule,
  narrowedDraRule,
  unscopedDriverVerbs,
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
      const drivers = driverNamesHint(ctx, driverNamesOf(ctx, sa));
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
    for (const bound of boundRoles(ctx)) {
      const role = bound.role;
      if (isBootstrapOrClusterAdmin(role)) continue;
      const idx = role.rules.map((r, i) => (isWildcardDraRule(r.rule) ? i : -1)).filter((i) => i >= 0);
      if (idx.length === 0) continue;
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
    for (const bound of boundRoles(ctx)) {
      const role = bound.role;
      const hits = role.rules.map((r, i) => ({ i, verbs: unscopedDriverVerbs(r.rule) })).filter((h) => h.verbs.length > 0);
      if (hits.length === 0) continue;
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
    const entries = rbacEntries(ctx, Q.claimDriverArbitrary);
    const out: FindingDraft[] = [];
    for (const sa of ctx.nodeLocalIdentities) {
      if (ctx.isAdminEquivalent(sa)) continue;
      const mine = ctx.access.entriesFor(entries, sa);
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
          `${namesText(names, 'driver')} ${whereText(everywhere, nss)} through ${describeGrants(ctx.engine, grants)}. ` +
          `arbitrary-node verbs are not tied to the node the token was issued for, so a compromised node can rewrite status.devices of claims allocated on every other node.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Replace the arbitrary-node verbs with associated-node:update and associated-node:patch, scoped to the driver name(s), ` +
          `in ${list([...new Set(grants.map((g) => `${describeRef(g.role)} rule #${g.ruleIndex}`))])}:\n` +
          manifestYamlDocs({
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
  for (const pod of ctx.pods) {
    if ((pod.metadata.namespace ?? '') !== sa.namespace || podServiceAccount(pod) !== sa.name) continue;
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
    const answers = ESCALATION_QUESTIONS.map((d) => ({ ...d, entries: rbacEntries(ctx, d.q) }));
    const out: FindingDraft[] = [];
    for (const sa of ctx.draComponents) {
      if (ctx.isAdminEquivalent(sa)) continue;
      const parts: string[] = [];
      const grants: WhoCanGrant[] = [];
      for (const a of answers) {
        const mine = ctx.access.entriesFor(a.entries, sa);
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
          `${describeSubject(sa)} ${componentText(ctx, sa)}, and can also ${list(parts)} through ${describeGrants(ctx.engine, merged)}. ` +
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
  run(ctx) {
    const out: FindingDraft[] = [];
    for (const bound of boundRoles(ctx)) {
      const role = bound.role;
      if (isBootstrapOrClusterAdmin(role)) continue;
      const used = bound.bindings
        // Admin-equivalent components are reported by DRA001 only.
        .map((b) => ({ ref: b.ref, subjects: b.subjects.filter((s) => s.kind === 'ServiceAccount' && ctx.isDraComponent(s) && !ctx.isAdminEquivalent(s)) }))
        .filter((b) => b.subjects.length > 0);
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

export const DRA_CHECKS: Check[] = [dra001, dra002, dra003, dra004, dra005, dra006, dra007, dra008, dra009, dra010];
