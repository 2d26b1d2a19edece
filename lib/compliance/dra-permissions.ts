import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import type { UserInfo } from '@/lib/authz/types';
import { serviceAccountUsername } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import { describeSubject } from '@/lib/k8s/refs';
import { permissionInputsOf, type PermissionInputs } from './permission-inputs';

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
  // Checked at cluster scope (namespace ""): a RoleBinding never grants it.
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'binding', namespaced: false, verbs: WRITE },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'driver', namespaced: true, verbs: DRIVER_VERBS, names: 'drivers' },
  { group: 'resource.k8s.io', resource: 'resourceclaimtemplates', subresource: '', namespaced: true, verbs: ALL_VERBS },
  { group: 'resource.k8s.io', resource: 'resourceslices', subresource: '', namespaced: false, verbs: ALL_VERBS },
  { group: 'resource.k8s.io', resource: 'deviceclasses', subresource: '', namespaced: false, verbs: ALL_VERBS },
  { group: '', resource: 'nodes', subresource: 'status', namespaced: false, verbs: WRITE, names: 'nodes' },
];

// A name no object has: a rule without resourceNames allows it, one with resourceNames does not.
const ANY_NAME = '\u0000any';

/** Every subject of every RoleBinding and ClusterRoleBinding. */
export function bindingSubjects(state: Pick<ClusterState, 'clusterRoleBindings' | 'roleBindings'>): SubjectRef[] {
  const out = new Map<string, SubjectRef>();
  for (const b of [...state.clusterRoleBindings, ...state.roleBindings]) {
    for (const s of b.subjects ?? []) {
      let ref: SubjectRef;
      if (s.kind === 'ServiceAccount') ref = { kind: 'ServiceAccount', namespace: s.namespace || b.metadata.namespace || '', name: s.name };
      else if (s.kind === 'User' || s.kind === 'Group') ref = { kind: s.kind, name: s.name };
      else continue;
      out.set(describeSubject(ref), ref);
    }
  }
  return [...out.values()];
}

function asUser(s: SubjectRef): UserInfo {
  if (s.kind === 'ServiceAccount') return { name: serviceAccountUsername(s.namespace ?? '', s.name), groups: [] };
  if (s.kind === 'Group') return { name: `\u0000member of ${s.name}`, groups: [s.name] };
  return { name: s.name, groups: [] };
}

/**
 * Where to look for grants narrower than "everywhere". A subject asked as itself gets namespaced
 * grants only from RoleBindings naming it, so only those namespaces are asked; and a grant for one
 * driver or node needs a rule naming it, so only names found in some rule's resourceNames are asked.
 */
export interface PermissionScope {
  /** Subject key → namespaces of the RoleBindings naming it. */
  namespacesOf: ReadonlyMap<string, readonly string[]>;
  drivers: readonly string[];
  nodes: readonly string[];
}

function roleBindingSubjectKeys(b: ClusterState['roleBindings'][number]): string[] {
  const out: string[] = [];
  for (const s of b.subjects ?? []) {
    if (s.kind === 'ServiceAccount') out.push(describeSubject({ kind: 'ServiceAccount', namespace: s.namespace || b.metadata.namespace || '', name: s.name }));
    else if (s.kind === 'User' || s.kind === 'Group') out.push(describeSubject({ kind: s.kind, name: s.name }));
  }
  return out;
}

/** The scope to ask about for drift between these clusters (all of them together). */
export function permissionScope(states: readonly ClusterState[]): PermissionScope {
  return permissionScopeOf(states.map(permissionInputsOf));
}

/** permissionScope from what each cluster's permissions are computed from. */
export function permissionScopeOf(inputs: readonly PermissionInputs[]): PermissionScope {
  const namespaces = new Map<string, Set<string>>();
  const named = new Set<string>();
  const drivers = new Set<string>();
  const nodes = new Set<string>();
  for (const input of inputs) {
    for (const b of input.roleBindings) {
      const ns = b.metadata.namespace;
      if (!ns) continue;
      for (const key of roleBindingSubjectKeys(b)) {
        let set = namespaces.get(key);
        if (!set) namespaces.set(key, (set = new Set()));
        set.add(ns);
      }
    }
    for (const role of [...input.roles, ...input.clusterRoles]) for (const rule of role.rules ?? []) for (const n of rule.resourceNames ?? []) named.add(n);
    for (const d of input.drivers) drivers.add(d);
    for (const n of input.nodes) nodes.add(n);
  }
  const sorted = (xs: Iterable<string>) => [...xs].filter((x) => named.has(x)).sort(compareStrings);
  return {
    namespacesOf: new Map([...namespaces].map(([k, v]) => [k, [...v].sort(compareStrings)])),
    drivers: sorted(drivers),
    nodes: sorted(nodes),
  };
}

function permissionsOf(engine: AuthzEngine, user: UserInfo, namespaces: readonly string[], scope: PermissionScope): string[] {
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
      for (const ns of namespaces) forNames(ns, `in ${ns}`);
    }
  }
  return lines;
}

/** Subject key → its DRA permission lines (subjects with none are left out). */
export function draPermissions(
  state: ClusterState,
  subjects: readonly SubjectRef[],
  scope: PermissionScope,
): Map<string, { subject: SubjectRef; permissions: Set<string> }> {
  const engine = createAuthzEngine(state);
  const out = new Map<string, { subject: SubjectRef; permissions: Set<string> }>();
  for (const subject of subjects) {
    const permissions = permissionsOf(engine, asUser(subject), scope.namespacesOf.get(describeSubject(subject)) ?? [], scope);
    if (permissions.length > 0) out.set(describeSubject(subject), { subject, permissions: new Set(permissions) });
  }
  return out;
}
