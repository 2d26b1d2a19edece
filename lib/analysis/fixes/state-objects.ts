import type { ClusterState } from '@/lib/k8s/cluster-state';
import { pushTo } from '@/lib/k8s/push-to';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '@/lib/k8s/types';

// The snapshot's roles and bindings by namespace and name, for fixes that look up the role or the
// binding of every grant behind an issue: on a large cluster with many such issues, scans of 3,000
// ClusterRoles, 10,000 Roles or 32,000 RoleBindings each. A list is scanned for its first few
// lookups (a cluster with few such issues asks a handful, less than a map of the list would cost) and
// indexed once per state from then on. The first object under a name wins, as the scan finds it.

type Named = { metadata: { name: string; namespace?: string } };

/**
 * Lookups a list answers by scanning before it is indexed: a scan costs about a tenth of indexing the
 * list (32 scans of the diverse bench cluster's 32,000 RoleBindings took ~30 ms, its index ~15 ms).
 */
const SCANS_BEFORE_INDEX = 8;

class Lookup<T extends Named> {
  private scans = 0;
  /**
   * By namespace ('' when not namespaced), then name: looked up with the caller's own strings, whose
   * hashes V8 keeps. A "namespace/name" key built per lookup was most of the cost of reading the
   * RoleBinding of each of ~32,000 indexed bindings (holder engines) on the diverse bench cluster.
   */
  private index?: Map<string, Map<string, T[]>>;

  /** `namespaced`: objects are told apart by namespace and name; otherwise by name alone. */
  constructor(
    private readonly list: readonly T[],
    private readonly namespaced: boolean,
  ) {}

  /** Every object under that name (and namespace), in the list's order. */
  all(namespace: string, name: string): readonly T[] {
    if (!this.index && ++this.scans <= SCANS_BEFORE_INDEX)
      return this.list.filter((o) => o.metadata.name === name && (!this.namespaced || (o.metadata.namespace ?? '') === namespace));
    if (!this.index) {
      this.index = new Map();
      for (const o of this.list) {
        const ns = this.namespaced ? (o.metadata.namespace ?? '') : '';
        let inNs = this.index.get(ns);
        if (!inNs) this.index.set(ns, (inNs = new Map()));
        pushTo(inNs, o.metadata.name, o);
      }
    }
    return this.index.get(this.namespaced ? namespace : '')?.get(name) ?? NONE;
  }
}

const NONE: readonly never[] = [];

interface Lookups {
  clusterRoles?: Lookup<ClusterRole>;
  roles?: Lookup<Role>;
  clusterRoleBindings?: Lookup<ClusterRoleBinding>;
  roleBindings?: Lookup<RoleBinding>;
}

const lookups = new WeakMap<ClusterState, Lookups>();

function lookupsOf(state: ClusterState): Lookups {
  let found = lookups.get(state);
  if (!found) lookups.set(state, (found = {}));
  return found;
}

/** Every ClusterRole of that name, in the state's order (one in a valid snapshot). */
export function clusterRolesNamed(state: ClusterState, name: string): readonly ClusterRole[] {
  const l = lookupsOf(state);
  return (l.clusterRoles ??= new Lookup(state.clusterRoles, false)).all('', name);
}

export function roleNamed(state: ClusterState, namespace: string, name: string): Role | undefined {
  const l = lookupsOf(state);
  return (l.roles ??= new Lookup(state.roles, true)).all(namespace, name)[0];
}

/** The first ClusterRoleBinding of that name, in the state's order. */
export function clusterRoleBindingNamed(state: ClusterState, name: string): ClusterRoleBinding | undefined {
  const l = lookupsOf(state);
  return (l.clusterRoleBindings ??= new Lookup(state.clusterRoleBindings, false)).all('', name)[0];
}

/** The first RoleBinding of that namespace and name, in the state's order. */
export function roleBindingNamed(state: ClusterState, namespace: string, name: string): RoleBinding | undefined {
  return roleBindingsNamed(state, namespace, name)[0];
}

/** Every RoleBinding of that namespace and name, in the state's order (one in a valid snapshot). */
export function roleBindingsNamed(state: ClusterState, namespace: string, name: string): readonly RoleBinding[] {
  const l = lookupsOf(state);
  return (l.roleBindings ??= new Lookup(state.roleBindings, true)).all(namespace, name);
}

// Positions of the ClusterRoles in the state's list, to put the roles an aggregation picks in order.
const positions = new WeakMap<ClusterState, Map<ClusterRole, number>>();

/** ClusterRoles of the state in its order, each once. */
export function inStateOrder(state: ClusterState, roles: Iterable<ClusterRole>): ClusterRole[] {
  let position = positions.get(state);
  if (!position) positions.set(state, (position = new Map(state.clusterRoles.map((cr, i) => [cr, i]))));
  return [...new Set(roles)].sort((a, b) => position.get(a)! - position.get(b)!);
}
