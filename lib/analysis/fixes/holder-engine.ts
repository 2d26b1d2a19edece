import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import { roleBindingSubjects, type IndexedBinding, type RoleBindingSubjects, type SubjectEntry, type SubjectIndex } from '@/lib/authz/rbac-index';
import type { UserInfo } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { matchesLabelSelector } from '@/lib/k8s/label-selector';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '@/lib/k8s/types';
import { mergedOnce, sortedOnce } from './sorted-positions';
import { roleBindingsNamed } from './state-objects';

// The engine after a fix, for the identities the fix is about. Questions about one identity read only
// the bindings that name it (its user, service account or groups) and the roles they point at, so the
// engine is rebuilt from those objects alone, with the fix's changes applied: a few objects on a
// cluster of tens of thousands, instead of a new RBAC index per fix. The node graph, the node names
// and the configuration are the original engine's (a fix changes RBAC objects only). Answers about
// other identities are not meaningful on it.

/** The RBAC objects a fix replaces (same kind, namespace and name) or adds. */
export interface RbacChanges {
  clusterRoles: ClusterRole[];
  roles: Role[];
  clusterRoleBindings: ClusterRoleBinding[];
  roleBindings: RoleBinding[];
}

export const noRbacChanges = (): RbacChanges => ({ clusterRoles: [], roles: [], clusterRoleBindings: [], roleBindings: [] });

const keyOf = (o: { metadata: { name: string; namespace?: string } }) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

interface StateLookup {
  clusterRoles: Map<string, ClusterRole>;
  clusterRoleBindings: Map<string, ClusterRoleBinding>;
  /**
   * clusterRoles by name alone (those keyed "/name"), roles by namespace, then name:
   * looked up with the object's own strings, no key built per object (a "namespace/name" key for
   * each of 32,000 RoleBindings, built here and again per binding of the index, was most of the
   * first fix's ~180 ms on the diverse bench cluster).
   */
  clusterRolesByName: Map<string, ClusterRole>;
  /** clusterRoleBindings by name alone (those keyed "/name"), for the index's bindings, whose refs carry no namespace. */
  clusterRoleBindingsByName: Map<string, ClusterRoleBinding>;
  rolesByNamespace: Map<string, Map<string, Role>>;
}

/**
 * The state's RoleBinding of a namespace and name, the last of that namespace and name as in a Map built
 * from the list: from the fixes' own index of the RoleBindings (state-objects), not a second one.
 */
function roleBindingOf(state: ClusterState, namespace: string, name: string): RoleBinding | undefined {
  const all = roleBindingsNamed(state, namespace, name);
  return all[all.length - 1];
}

/** `list` by namespace ('' for none), then name; the last of a namespace and name wins, as in a Map built from the list. */
function byNamespaceAndName<T extends { metadata: { name: string; namespace?: string } }>(list: readonly T[]): Map<string, Map<string, T>> {
  const out = new Map<string, Map<string, T>>();
  for (const o of list) {
    const ns = o.metadata.namespace ?? '';
    let inNs = out.get(ns);
    if (!inNs) out.set(ns, (inNs = new Map()));
    inNs.set(o.metadata.name, o);
  }
  return out;
}

// One lookup per cluster state, shared by every fix verified on it.
const lookups = new WeakMap<ClusterState, StateLookup>();

function lookupOf(state: ClusterState): StateLookup {
  let found = lookups.get(state);
  if (!found) {
    const byKey = <T extends { metadata: { name: string; namespace?: string } }>(list: readonly T[]) => new Map(list.map((o) => [keyOf(o), o]));
    const clusterRolesByName = new Map<string, ClusterRole>();
    for (const cr of state.clusterRoles) if ((cr.metadata.namespace ?? '') === '') clusterRolesByName.set(cr.metadata.name, cr);
    const clusterRoleBindingsByName = new Map<string, ClusterRoleBinding>();
    for (const b of state.clusterRoleBindings) if ((b.metadata.namespace ?? '') === '') clusterRoleBindingsByName.set(b.metadata.name, b);
    found = {
      clusterRoles: byKey(state.clusterRoles),
      clusterRoleBindings: byKey(state.clusterRoleBindings),
      clusterRolesByName,
      clusterRoleBindingsByName,
      rolesByNamespace: byNamespaceAndName(state.roles),
    };
    lookups.set(state, found);
  }
  return found;
}

interface BindingsBySubject {
  /**
   * The engine's subject entries by username (users and service accounts) and by group name: its
   * ClusterRoleBinding index, and every namespace's gathered (roleBindingSubjects), the keys and
   * lists the engine's index already has.
   */
  cluster: SubjectIndex;
  roleBindings: RoleBindingSubjects;
  /** Each binding's position in the index's sorted list: a fix's bindings are put back in that order by a sort of numbers. */
  position: Map<IndexedBinding, number>;
  /**
   * Per group name, the positions of the bindings naming it, sorted, each once: most fixes' holders
   * carry the same few groups (system:authenticated, system:serviceaccounts and their namespace's).
   */
  groupPositions: Map<string, readonly number[]>;
  /** The state's object of each binding, by position, read on first use (null: not in the state). */
  objects: (ClusterRoleBinding | RoleBinding | null | undefined)[];
}

// One inverted index per engine: a fix's users are looked up directly, not in each of 20,000 namespaces.
const bySubject = new WeakMap<object, BindingsBySubject>();

function bindingsBySubject(engine: AuthzEngine): BindingsBySubject {
  let found = bySubject.get(engine.rbac);
  if (!found) {
    const rbac = engine.rbac;
    found = {
      cluster: rbac.clusterBindings,
      roleBindings: roleBindingSubjects(rbac),
      position: new Map(),
      groupPositions: new Map(),
      objects: new Array<ClusterRoleBinding | RoleBinding | null | undefined>(rbac.bindings.length),
    };
    for (let i = 0; i < rbac.bindings.length; i++) found.position.set(rbac.bindings[i], i);
    bySubject.set(engine.rbac, found);
  }
  return found;
}

/** The state's object of an indexed binding, by its namespace and name (as a change to it is found). */
function objectOf(state: ClusterState, look: StateLookup, ref: IndexedBinding['ref']): ClusterRoleBinding | RoleBinding | undefined {
  if (ref.kind === 'RoleBinding') return roleBindingOf(state, ref.namespace ?? '', ref.name);
  return (ref.namespace ?? '') === '' ? look.clusterRoleBindingsByName.get(ref.name) : look.clusterRoleBindings.get(`${ref.namespace}/${ref.name}`);
}

// The ClusterRoles each aggregating role's selectors pick in the unchanged state (also the sources of its rules, ruleSources).
const members = new WeakMap<ClusterState, Map<ClusterRole, ClusterRole[]>>();

export function membersToday(state: ClusterState, aggregating: ClusterRole): ClusterRole[] {
  let byRole = members.get(state);
  if (!byRole) members.set(state, (byRole = new Map()));
  let list = byRole.get(aggregating);
  if (!list) {
    const selectors = aggregating.aggregationRule?.clusterRoleSelectors ?? [];
    list = state.clusterRoles.filter((cr) => selectors.some((sel) => matchesLabelSelector(sel, cr.metadata.labels ?? {})));
    byRole.set(aggregating, list);
  }
  return list;
}

// The names of the roles each aggregating role picks today: admin, edit and view pick hundreds on a
// large cluster, and every fix that changes a ClusterRole asks whether they pick one of a few names.
const memberNames = new WeakMap<ClusterState, Map<ClusterRole, Set<string>>>();

/** Whether `aggregating` picks today a role named in `names`. */
function picksAny(state: ClusterState, aggregating: ClusterRole, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false;
  let byRole = memberNames.get(state);
  if (!byRole) memberNames.set(state, (byRole = new Map()));
  let picked = byRole.get(aggregating);
  if (!picked) byRole.set(aggregating, (picked = new Set(membersToday(state, aggregating).map((m) => m.metadata.name))));
  for (const name of names) if (picked.has(name)) return true;
  return false;
}

// The aggregating ClusterRoles of a state (a few dozen of thousands), read for every fix that changes a ClusterRole.
const aggregatingByState = new WeakMap<ClusterState, ClusterRole[]>();

export function aggregatingRoles(state: ClusterState): ClusterRole[] {
  let list = aggregatingByState.get(state);
  if (!list) aggregatingByState.set(state, (list = state.clusterRoles.filter((cr) => cr.aggregationRule)));
  return list;
}

/**
 * The aggregating ClusterRoles whose rules a change can alter: changed themselves, picking a changed
 * role (as it is today or as changed), or picking one of those (nested aggregation).
 */
export function affectedAggregations(state: ClusterState, changes: RbacChanges): Set<string> {
  const affected = new Set<string>();
  if (changes.clusterRoles.length === 0) return affected;
  const changed = new Set(changes.clusterRoles.map((cr) => cr.metadata.name));
  const aggregating = aggregatingRoles(state);
  for (const cr of changes.clusterRoles) if (cr.aggregationRule) affected.add(cr.metadata.name);
  for (let grew = true; grew;) {
    grew = false;
    for (const a of aggregating) {
      const name = a.metadata.name;
      if (affected.has(name)) continue;
      const selectors = a.aggregationRule?.clusterRoleSelectors ?? [];
      const hit =
        changed.has(name) ||
        picksAny(state, a, changed) ||
        picksAny(state, a, affected) ||
        changes.clusterRoles.some((c) => selectors.some((sel) => matchesLabelSelector(sel, c.metadata.labels ?? {})));
      if (hit) {
        affected.add(name);
        grew = true;
      }
    }
  }
  return affected;
}

// Per index, each aggregating role as flattened: admin, edit and view hold hundreds of rules, copied for every fix that reads them.
const flatRoles = new WeakMap<object, Map<ClusterRole, ClusterRole>>();

/** An aggregating role as a plain one holding the rules aggregation gives it today (one object per index and role, read only). */
function flattened(engine: AuthzEngine, role: ClusterRole): ClusterRole {
  let byRole = flatRoles.get(engine.rbac);
  if (!byRole) flatRoles.set(engine.rbac, (byRole = new Map()));
  let flat = byRole.get(role);
  if (!flat) {
    const rules = engine.rbac.clusterRoles.get(role.metadata.name)?.rules.map((r) => r.rule) ?? role.rules ?? [];
    byRole.set(role, (flat = { ...role, aggregationRule: undefined, rules }));
  }
  return flat;
}

function pushPositions(index: BindingsBySubject, out: number[], entries: readonly SubjectEntry[] | undefined): void {
  if (entries) for (const e of entries) out.push(index.position.get(e.binding)!);
}

function groupPositions(index: BindingsBySubject, group: string): readonly number[] {
  let found = index.groupPositions.get(group);
  if (!found) {
    const positions: number[] = [];
    pushPositions(index, positions, index.cluster.byGroup.get(group));
    for (const entries of index.roleBindings.byGroup.get(group) ?? []) pushPositions(index, positions, entries);
    index.groupPositions.set(group, (found = sortedOnce(positions)));
  }
  return found;
}

/**
 * The positions of the bindings of the original index that name one of these users or a group they
 * carry, in the index's order, each once. Each group's sorted list is merged in once, however many
 * users carry it: a fix's holders mostly share their groups (system:authenticated, their namespace's
 * service accounts), and pushing every holder's copy of them then sorting was most of this function's cost.
 */
function positionsNaming(index: BindingsBySubject, users: readonly UserInfo[]): readonly number[] {
  const own: number[] = [];
  const groups = new Set<string>();
  for (const u of users) {
    pushPositions(index, own, index.cluster.byUser.get(u.name));
    for (const entries of index.roleBindings.byUser.get(u.name) ?? []) pushPositions(index, own, entries);
    for (const g of u.groups) groups.add(g);
  }
  let out = sortedOnce(own) as readonly number[];
  for (const g of groups) out = mergedOnce(out, groupPositions(index, g));
  return out;
}

/** The positions in `engine`'s index of the bindings that name one of these users or a group they carry: those a holder engine reads. */
export function positionsNamingUsers(engine: AuthzEngine, users: readonly UserInfo[]): readonly number[] {
  return positionsNaming(bindingsBySubject(engine), users);
}

/**
 * An engine that answers like `engine` with `changes` applied, for questions whose user is one of
 * `users` (with its groups).
 */
export function holderEngine(engine: AuthzEngine, users: readonly UserInfo[], changes: RbacChanges): AuthzEngine {
  const state = engine.state;
  const look = lookupOf(state);
  const replace = <T extends { metadata: { name: string; namespace?: string } }>(base: Map<string, T>, changed: readonly T[]) => {
    const m = new Map<string, T>();
    for (const o of changed) m.set(keyOf(o), o);
    return (key: string) => m.get(key) ?? base.get(key);
  };
  const clusterRoleOf = replace(look.clusterRoles, changes.clusterRoles);
  const changedRoles = new Map(changes.roles.map((r) => [keyOf(r), r]));

  // The bindings that name the holders, each under its slot: the state's object of its namespace and
  // name (lookupOf's, one per name), so that a change to it replaces it in place. Slots are objects,
  // not "namespace/name" keys: building and hashing a key per binding and role was most of this
  // function's own cost (~1,350 fixes of ~20 bindings and ~15 roles each on the diverse bench cluster).
  const index = bindingsBySubject(engine);
  const crbs = new Map<ClusterRoleBinding, ClusterRoleBinding>();
  const rbs = new Map<RoleBinding, RoleBinding>();
  const all = engine.rbac.bindings;
  for (const pos of positionsNaming(index, users)) {
    let object = index.objects[pos];
    if (object === undefined) object = index.objects[pos] = objectOf(state, look, all[pos].ref) ?? null;
    if (!object) continue;
    if (all[pos].ref.kind === 'ClusterRoleBinding') crbs.set(object as ClusterRoleBinding, object as ClusterRoleBinding);
    else rbs.set(object as RoleBinding, object as RoleBinding);
  }
  // New and changed bindings are read whoever they name (a fix may add a binding for the holder).
  for (const b of changes.clusterRoleBindings) crbs.set(look.clusterRoleBindings.get(keyOf(b)) ?? b, b);
  for (const b of changes.roleBindings) rbs.set(roleBindingOf(state, b.metadata.namespace ?? '', b.metadata.name) ?? b, b);

  // Roles by the binding's own strings (no key built): a changed one as changed.
  const changedClusterRoles = new Map<string, ClusterRole>();
  for (const cr of changes.clusterRoles) if ((cr.metadata.namespace ?? '') === '') changedClusterRoles.set(cr.metadata.name, cr);
  const clusterRoleNamed = (name: string) => changedClusterRoles.get(name) ?? look.clusterRolesByName.get(name);
  const roleNamed = (ns: string, name: string) =>
    (changedRoles.size > 0 ? changedRoles.get(`${ns}/${name}`) : undefined) ?? look.rolesByNamespace.get(ns)?.get(name);

  const clusterRoles = new Map<string, ClusterRole>();
  // A Role once, by identity: the state's (or a fix's) object of a namespace and name.
  const roles = new Set<Role>();
  const bindings = [...crbs.values(), ...rbs.values()];
  for (const b of bindings) {
    const ns = b.metadata.namespace ?? '';
    if (b.roleRef?.kind === 'ClusterRole') {
      const cr = clusterRoleNamed(b.roleRef.name);
      if (cr) clusterRoles.set(cr.metadata.name, cr);
    } else if (b.roleRef?.kind === 'Role' && ns !== '') {
      const r = roleNamed(ns, b.roleRef.name);
      if (r) roles.add(r);
    }
  }
  // An aggregated role's rules come from the roles its selectors pick (with the changes, as the
  // aggregation controller sees them), and theirs from the roles their own selectors pick.
  // An unchanged aggregating role picks the roles it picks today (kept per state) unless a fix
  // changed them, and any changed role its selectors now match; a changed one is matched against all.
  const changed = new Set(changes.clusterRoles.map((cr) => cr.metadata.name));
  let everyRole: ClusterRole[] | undefined;
  const pending = [...clusterRoles.values()].filter((cr) => cr.aggregationRule);
  const affected = affectedAggregations(state, changes);
  while (pending.length > 0) {
    const aggregating = pending.pop()!;
    if (!affected.has(aggregating.metadata.name)) {
      // Nothing it aggregates changes: its rules are today's, and its members need not be read.
      clusterRoles.set(aggregating.metadata.name, flattened(engine, aggregating));
      continue;
    }
    const selectors = aggregating.aggregationRule?.clusterRoleSelectors ?? [];
    const pool =
      look.clusterRoles.get(keyOf(aggregating)) === aggregating
        ? [...membersToday(state, aggregating).filter((cr) => !changed.has(cr.metadata.name)), ...changes.clusterRoles]
        : (everyRole ??= [...new Set([...state.clusterRoles.map((cr) => clusterRoleOf(keyOf(cr))!), ...changes.clusterRoles])]);
    for (const cr of pool) {
      if (clusterRoles.has(cr.metadata.name) || !selectors.some((sel) => matchesLabelSelector(sel, cr.metadata.labels ?? {}))) continue;
      clusterRoles.set(cr.metadata.name, cr);
      if (cr.aggregationRule) pending.push(cr);
    }
  }

  const scoped: ClusterState = {
    ...state,
    clusterRoles: [...clusterRoles.values()],
    roles: [...roles],
    clusterRoleBindings: bindings.filter((b): b is ClusterRoleBinding => b.metadata.namespace === undefined || b.metadata.namespace === ''),
    roleBindings: bindings.filter((b): b is RoleBinding => !!b.metadata.namespace),
  };
  return createAuthzEngine(scoped, { previous: engine, config: engine.config, features: engine.features });
}
