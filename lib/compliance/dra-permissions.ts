import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import type { UserInfo } from '@/lib/authz/types';
import { serviceAccountUsername } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings as cmp } from '@/lib/k8s/compare-strings';
import type { SubjectRef } from '@/lib/k8s/types';
import { describeSubjectRef } from '@/lib/report/render-markdown';

// What each RBAC subject may do to DRA resources, as comparable lines ("update resourceclaims/status
// in tenant-a"), for drift between two snapshots. Each subject is asked as itself only (a service
// account without its groups, a group as a bare member), so a grant shows up under the subject it
// is bound to and nowhere else.

interface DraTarget {
  group: string;
  resource: string;
  subresource: string;
  namespaced: boolean;
  verbs: readonly string[];
  /** Which names to ask about when the unnamed request is denied. */
  names?: 'drivers' | 'nodes';
}

const ALL_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const WRITE = ['update', 'patch'];
const DRIVER_VERBS = ['associated-node:update', 'associated-node:patch', 'arbitrary-node:update', 'arbitrary-node:patch'];

export const DRA_PERMISSION_TARGETS: readonly DraTarget[] = [
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: '', namespaced: true, verbs: ALL_VERBS },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', namespaced: true, verbs: WRITE },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'binding', namespaced: true, verbs: WRITE },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'driver', namespaced: true, verbs: DRIVER_VERBS, names: 'drivers' },
  { group: 'resource.k8s.io', resource: 'resourceclaimtemplates', subresource: '', namespaced: true, verbs: ALL_VERBS },
  { group: 'resource.k8s.io', resource: 'resourceslices', subresource: '', namespaced: false, verbs: ALL_VERBS },
  { group: 'resource.k8s.io', resource: 'deviceclasses', subresource: '', namespaced: false, verbs: ALL_VERBS },
  { group: '', resource: 'nodes', subresource: 'status', namespaced: false, verbs: WRITE, names: 'nodes' },
];

// A name no object has: a rule without resourceNames allows it, one with resourceNames does not.
const ANY_NAME = '\u0000any';

export function subjectKey(s: SubjectRef): string {
  return describeSubjectRef(s);
}

/** Every subject of every RoleBinding and ClusterRoleBinding. */
export function bindingSubjects(state: ClusterState): SubjectRef[] {
  const out = new Map<string, SubjectRef>();
  for (const b of [...state.clusterRoleBindings, ...state.roleBindings]) {
    for (const s of b.subjects ?? []) {
      let ref: SubjectRef;
      if (s.kind === 'ServiceAccount') ref = { kind: 'ServiceAccount', namespace: s.namespace || b.metadata.namespace || '', name: s.name };
      else if (s.kind === 'User' || s.kind === 'Group') ref = { kind: s.kind, name: s.name };
      else continue;
      out.set(subjectKey(ref), ref);
    }
  }
  return [...out.values()];
}

function asUser(s: SubjectRef): UserInfo {
  if (s.kind === 'ServiceAccount') return { name: serviceAccountUsername(s.namespace ?? '', s.name), groups: [] };
  if (s.kind === 'Group') return { name: `\u0000member of ${s.name}`, groups: [s.name] };
  return { name: s.name, groups: [] };
}

export interface PermissionScope {
  namespaces: readonly string[];
  drivers: readonly string[];
  nodes: readonly string[];
}

/** Namespaces, driver names and node names of a cluster, for asking about scoped grants. */
export function permissionScope(state: ClusterState): PermissionScope {
  const namespaces = new Set<string>();
  for (const n of state.namespaces) namespaces.add(n.metadata.name);
  for (const b of state.roleBindings) if (b.metadata.namespace) namespaces.add(b.metadata.namespace);
  const drivers = new Set<string>();
  for (const s of state.resourceSlices) drivers.add(s.spec.driver);
  for (const c of state.resourceClaims) for (const r of c.status?.allocation?.devices?.results ?? []) drivers.add(r.driver);
  const nodes = new Set<string>(state.nodes.map((n) => n.metadata.name));
  return { namespaces: [...namespaces].sort(cmp), drivers: [...drivers].sort(cmp), nodes: [...nodes].sort(cmp) };
}

export function mergeScopes(a: PermissionScope, b: PermissionScope): PermissionScope {
  const u = (x: readonly string[], y: readonly string[]) => [...new Set([...x, ...y])].sort(cmp);
  return { namespaces: u(a.namespaces, b.namespaces), drivers: u(a.drivers, b.drivers), nodes: u(a.nodes, b.nodes) };
}

function permissionsOf(engine: AuthzEngine, user: UserInfo, scope: PermissionScope): string[] {
  const lines: string[] = [];
  for (const t of DRA_PERMISSION_TARGETS) {
    const res = t.subresource ? `${t.resource}/${t.subresource}` : t.resource;
    for (const verb of t.verbs) {
      const allowed = (namespace: string, name: string) =>
        engine.authorize({ user, resource: { verb, group: t.group, resource: t.resource, subresource: t.subresource, namespace, name } }).allowed;
      const names = t.names === 'drivers' ? scope.drivers : t.names === 'nodes' ? scope.nodes : [];
      const probe = t.names ? ANY_NAME : '';
      const forNames = (namespace: string, where: string) => {
        if (allowed(namespace, probe)) {
          lines.push(`${verb} ${res}${t.names ? ` [any ${t.names === 'drivers' ? 'driver' : 'node'}]` : ''} ${where}`.trimEnd());
          return true;
        }
        let any = false;
        for (const name of names) {
          if (allowed(namespace, name)) {
            lines.push(`${verb} ${res} [${name}] ${where}`.trimEnd());
            any = true;
          }
        }
        return any;
      };
      if (!t.namespaced) {
        forNames('', '');
        continue;
      }
      if (forNames('', '(all namespaces)')) continue;
      for (const ns of scope.namespaces) forNames(ns, `in ${ns}`);
    }
  }
  return lines;
}

/** Subject key → its DRA permission lines (subjects with none are left out). */
export function draPermissions(state: ClusterState, subjects: readonly SubjectRef[], scope: PermissionScope): Map<string, { subject: SubjectRef; permissions: Set<string> }> {
  const engine = createAuthzEngine(state);
  const out = new Map<string, { subject: SubjectRef; permissions: Set<string> }>();
  for (const subject of subjects) {
    const permissions = permissionsOf(engine, asUser(subject), scope);
    if (permissions.length > 0) out.set(subjectKey(subject), { subject, permissions: new Set(permissions) });
  }
  return out;
}
