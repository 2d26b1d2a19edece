import { mergeGrants, type AccessEntry, type AccessQuestion } from '@/lib/analysis/context/access';
import { describeGrants, PROBE_NAME, PROBE_NAMESPACE } from '@/lib/analysis/evidence';
import { combinedResource, ruleAllowsResource } from '@/lib/authz/rule-matches';
import type { CompiledRole } from '@/lib/authz/rbac-index';
import type { ResourceAttributes } from '@/lib/authz/types';
import { describeSubject, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { Check, FindingDraft } from './check-types';
import { grantObjects, grantsEvidence, list } from './check-helpers';
import { rbacEntries } from './dra-shared';
import { pushTo } from '@/lib/k8s/push-to';

// DRA010: an identity that can give itself DRA write permissions through RBAC escalation, which the
// API server allows when the requester holds `bind` on a role (a binding to it is then accepted without
// holding its rules) or `escalate` on roles (a role may then grant rules the requester lacks), together
// with the create verb on bindings (authz-semantics.md §5). Admin-equivalents are DRA001's.

const RBAC = 'rbac.authorization.k8s.io';
const DRA = 'resource.k8s.io';

/** The DRA writes a role could hand out, each as one request its rules are tried against. */
const DRA_WRITES: { label: string; attrs: Omit<ResourceAttributes, 'namespace'> }[] = [
  { label: 'write claim status', attrs: { verb: 'update', group: DRA, resource: 'resourceclaims', subresource: 'status', name: '' } },
  { label: 'forge allocations (resourceclaims/binding)', attrs: { verb: 'update', group: DRA, resource: 'resourceclaims', subresource: 'binding', name: '' } },
  {
    label: 'write device status for any driver (arbitrary-node)',
    attrs: { verb: 'arbitrary-node:update', group: DRA, resource: 'resourceclaims', subresource: 'driver', name: PROBE_NAME },
  },
  { label: 'publish ResourceSlices', attrs: { verb: 'create', group: DRA, resource: 'resourceslices', subresource: '', name: '' } },
  { label: 'change DeviceClasses', attrs: { verb: 'update', group: DRA, resource: 'deviceclasses', subresource: '', name: PROBE_NAME } },
  { label: 'rewrite nodes/status', attrs: { verb: 'patch', group: '', resource: 'nodes', subresource: 'status', name: PROBE_NAME } },
];

// Each write's request in the probe namespace, made once: draWritesOf tries every rule of every ClusterRole.
const DRA_WRITE_REQUESTS = DRA_WRITES.map((w) => {
  const attrs: ResourceAttributes = { ...w.attrs, namespace: PROBE_NAMESPACE };
  return { label: w.label, attrs, combined: combinedResource(attrs) };
});

/** What DRA writes a role grants, in DRA_WRITES order. */
export function draWritesOf(role: CompiledRole): string[] {
  const out: string[] = [];
  for (const w of DRA_WRITE_REQUESTS) if (role.rules.some(({ rule }) => ruleAllowsResource(rule, w.attrs, w.combined))) out.push(w.label);
  return out;
}

const BIND: AccessQuestion = { verbs: ['bind'], group: RBAC, resource: 'clusterroles', scope: 'namespaced', names: 'any' };
const ESCALATE: AccessQuestion = { verbs: ['escalate'], group: RBAC, resource: 'clusterroles', scope: 'namespaced', names: 'any' };
const ESCALATE_ROLES: AccessQuestion = { verbs: ['escalate'], group: RBAC, resource: 'roles', scope: 'namespaced', names: 'any' };
const WRITE_ROLES: AccessQuestion = { verbs: ['create', 'update', 'patch'], group: RBAC, resource: 'roles', scope: 'namespaced', names: 'any' };
const WRITE_CLUSTER_ROLES: AccessQuestion = { verbs: ['create', 'update', 'patch'], group: RBAC, resource: 'clusterroles', scope: 'cluster', names: 'any' };
const CREATE_CRB: AccessQuestion = { verbs: ['create'], group: RBAC, resource: 'clusterrolebindings', scope: 'cluster', names: [''] };
const CREATE_RB: AccessQuestion = { verbs: ['create'], group: RBAC, resource: 'rolebindings', scope: 'namespaced', names: [''] };

export const dra010: Check = {
  id: 'DRA010',
  run(ctx) {
    const ordinary = (e: AccessEntry) => !ctx.isAdminEquivalent(e.subject) && !ctx.isSystemIdentity(e.subject);
    const of = (q: AccessQuestion) => rbacEntries(ctx, q).filter(ordinary);
    const bySubject = (entries: AccessEntry[]) => {
      const m = new Map<string, AccessEntry[]>();
      for (const e of entries) pushTo(m, refKey(e.subject), e);
      return m;
    };
    const binders = bySubject(of(BIND));
    const escalateRoles = bySubject(of(ESCALATE_ROLES));
    const escalate = bySubject(of(ESCALATE));
    // Only holders of bind or escalate can take a path: the other questions are asked about them
    // (whoCanAmong gives their entries of the whole answer), not of the whole cluster, whose answer
    // lists everyone a namespace's admin role lets create RoleBindings or write Roles there.
    const holders = [...binders.values(), ...escalate.values(), ...escalateRoles.values()].map((entries) => entries[0].subject);
    const ofHolders = (q: AccessQuestion) => (holders.length === 0 ? [] : ctx.access.whoCanAmong(q, holders).filter((e) => e.via === 'rbac' && ordinary(e)));
    const crb = bySubject(ofHolders(CREATE_CRB));
    const rb = bySubject(ofHolders(CREATE_RB));
    const writeCluster = bySubject(ofHolders(WRITE_CLUSTER_ROLES));
    const writeRoles = bySubject(ofHolders(WRITE_ROLES));
    // Only a holder of bind that can also create bindings reads them.
    let draRoles: { role: CompiledRole; writes: string[] }[] | undefined;
    const rolesWithDraWrites = () =>
      (draRoles ??= [...ctx.engine.rbac.clusterRoles.values()].map((role) => ({ role, writes: draWritesOf(role) })).filter((r) => r.writes.length > 0));

    const paths = new Map<string, { subject: SubjectRef; texts: string[]; writes: Set<string>; entries: AccessEntry[] }>();
    const add = (subject: SubjectRef, text: string, writes: readonly string[], entries: AccessEntry[]) => {
      const key = refKey(subject);
      let p = paths.get(key);
      if (!p) paths.set(key, (p = { subject, texts: [], writes: new Set(), entries: [] }));
      p.texts.push(text);
      for (const w of writes) p.writes.add(w);
      p.entries.push(...entries);
    };

    // bind: a binding to the role is accepted without holding its rules.
    for (const [key, binds] of binders) {
      const creates = [...(crb.get(key) ?? []), ...(rb.get(key) ?? [])];
      if (creates.length === 0) continue;
      const names = new Set(binds.flatMap((e) => e.names));
      const reachable = rolesWithDraWrites().filter((r) => names.has('*') || names.has(r.role.ref.name));
      if (reachable.length === 0) continue;
      const shown = reachable.slice(0, 5).map((r) => `ClusterRole ${r.role.ref.name}`);
      const more = reachable.length > 5 ? ` and ${reachable.length - 5} more` : '';
      add(binds[0].subject, `bind ${list(shown)}${more} and create bindings`, [...new Set(reachable.flatMap((r) => r.writes))], [...binds, ...creates]);
    }
    // escalate: a role it writes may grant rules it does not hold; a binding to it completes the path.
    for (const [key, esc] of escalate) {
      const writes = writeCluster.get(key) ?? [];
      const creates = [...(crb.get(key) ?? []), ...(rb.get(key) ?? [])];
      if (writes.length === 0 || creates.length === 0) continue;
      add(
        esc[0].subject,
        'escalate and write ClusterRoles, and create bindings',
        DRA_WRITES.map((w) => w.label),
        [...esc, ...writes, ...creates],
      );
    }
    for (const [key, esc] of escalateRoles) {
      const writes = writeRoles.get(key) ?? [];
      const creates = rb.get(key) ?? [];
      if (writes.length === 0 || creates.length === 0 || paths.has(key)) continue;
      const namespaced = DRA_WRITES.filter((w) => w.attrs.resource === 'resourceclaims').map((w) => w.label);
      add(esc[0].subject, 'escalate and write Roles, and create RoleBindings', namespaced, [...esc, ...writes, ...creates]);
    }

    const out: FindingDraft[] = [];
    for (const p of [...paths.values()].sort((a, b) => (refKey(a.subject) < refKey(b.subject) ? -1 : 1))) {
      const grants = mergeGrants(p.entries);
      const writes = DRA_WRITES.map((w) => w.label).filter((l) => p.writes.has(l));
      out.push({
        subjects: [p.subject],
        objects: grantObjects(grants),
        message:
          `${describeSubject(p.subject)} can ${p.texts.join('; and ')} through ${describeGrants(ctx.engine, grants)}: ` +
          `the API server's escalation check lets it grant itself what it does not hold, so it can ${list(writes)}.`,
        evidence: grantsEvidence(ctx, grants),
        remediation:
          `Remove bind and escalate from the roles of ${describeSubject(p.subject)}, or limit bind with resourceNames to roles without DRA writes; ` +
          'keep create on bindings for those who administer RBAC. Check a proposed grant with `dra-posture simulate`.',
      });
    }
    return out;
  },
};
