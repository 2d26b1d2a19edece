import { pushTo } from '@/lib/k8s/push-to';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { PolicyRule, RoleRef, Subject, SubjectRef } from '@/lib/k8s/types';
import { aggregateClusterRoles, ownRules, type AggregatedRule } from './aggregate-cluster-roles';
import type { BindingRef, RoleRefResolved } from './types';
import { serviceAccountUsername } from './user-info';
import { compareStrings } from '@/lib/k8s/refs';
import { verbMatches } from './rule-matches';

export interface CompiledRole {
  ref: RoleRefResolved;
  key: string;
  rules: AggregatedRule[];
}

export interface IndexedBinding {
  ref: BindingRef;
  roleRef: RoleRef;
  /** undefined when the roleRef does not resolve (missing role, ClusterRoleBinding → Role, odd kind). */
  role: CompiledRole | undefined;
  /** Subjects that can ever match, normalised (ServiceAccount namespace filled in). */
  subjects: SubjectRef[];
}

export interface SubjectEntry {
  binding: IndexedBinding;
  subject: SubjectRef;
}

export interface SubjectIndex {
  /** Keyed by username: User subjects and ServiceAccount subjects (as `system:serviceaccount:ns:name`). */
  byUser: Map<string, SubjectEntry[]>;
  byGroup: Map<string, SubjectEntry[]>;
}

export interface RuleRef {
  role: CompiledRole;
  ruleIndex: number;
}

export interface RbacIndex {
  clusterRoles: Map<string, CompiledRole>;
  roles: Map<string, Map<string, CompiledRole>>;
  clusterBindings: SubjectIndex;
  namespaceBindings: Map<string, SubjectIndex>;
  /** Every binding, sorted (ClusterRoleBindings first, then RoleBindings by namespace/name). */
  bindings: IndexedBinding[];
  bindingsByRole: Map<string, IndexedBinding[]>;
  /** A role's ClusterRoleBindings, and its RoleBindings by namespace: who-can reads only those of the request's namespace. */
  clusterBindingsByRole: Map<string, IndexedBinding[]>;
  roleBindingsByRole: Map<string, Map<string, IndexedBinding[]>>;
  /** Resource rules by exact group and resource (or resource/subresource). */
  ruleBuckets: Map<string, RuleRef[]>;
  /**
   * The wildcard rules (a wildcard group, a wildcard resource or a "*" + "/sub" resource) by each
   * group and resource they list, wildcards as written (see candidateRules).
   */
  wildcardBuckets: Map<string, RuleRef[]>;
  nonResourceRules: RuleRef[];
  notes: string[];
}

export function roleKey(ref: RoleRefResolved): string {
  return ref.kind === 'ClusterRole' ? `ClusterRole/${ref.name}` : `Role/${ref.namespace}/${ref.name}`;
}

export function bucketKey(group: string, combinedResource: string): string {
  return `${group}\u0000${combinedResource}`;
}

export function buildRbacIndex(state: Pick<ClusterState, 'clusterRoles' | 'roles' | 'clusterRoleBindings' | 'roleBindings'>): RbacIndex {
  const notes: string[] = [];
  const aggregation = aggregateClusterRoles(state.clusterRoles);
  notes.push(...aggregation.notes);

  const clusterRoles = new Map<string, CompiledRole>();
  for (const [name, rules] of aggregation.rules) {
    const ref: RoleRefResolved = { kind: 'ClusterRole', name };
    clusterRoles.set(name, { ref, key: roleKey(ref), rules });
  }
  const roles = new Map<string, Map<string, CompiledRole>>();
  for (const role of state.roles) {
    const ns = role.metadata.namespace ?? '';
    let inNs = roles.get(ns);
    if (!inNs) roles.set(ns, (inNs = new Map()));
    const ref: RoleRefResolved = { kind: 'Role', name: role.metadata.name, namespace: ns };
    inNs.set(role.metadata.name, { ref, key: roleKey(ref), rules: ownRules(role.rules) });
  }

  const bindings: IndexedBinding[] = [];
  const crbs = [...state.clusterRoleBindings].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name));
  for (const crb of crbs) {
    const roleRef = crb.roleRef;
    // A ClusterRoleBinding only resolves ClusterRoles (a Role lookup at namespace "" finds nothing).
    const role = roleRef?.kind === 'ClusterRole' ? clusterRoles.get(roleRef.name) : undefined;
    bindings.push({
      ref: { kind: 'ClusterRoleBinding', name: crb.metadata.name },
      roleRef,
      role,
      subjects: normaliseSubjects(crb.subjects, ''),
    });
  }
  const rbs = [...state.roleBindings].sort(
    (a, b) => compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name),
  );
  for (const rb of rbs) {
    const ns = rb.metadata.namespace ?? '';
    const roleRef = rb.roleRef;
    let role: CompiledRole | undefined;
    if (roleRef?.kind === 'ClusterRole') role = clusterRoles.get(roleRef.name);
    else if (roleRef?.kind === 'Role') role = roles.get(ns)?.get(roleRef.name);
    bindings.push({
      ref: { kind: 'RoleBinding', name: rb.metadata.name, namespace: ns },
      roleRef,
      role,
      subjects: normaliseSubjects(rb.subjects, ns),
    });
  }

  const clusterBindings = emptySubjectIndex();
  const namespaceBindings = new Map<string, SubjectIndex>();
  // The bindings by role are filled on first read too (see FilledOnRead): a holder-scoped engine
  // mostly only authorizes, and their lists and per-role maps were ~5 of the ~50 MiB that the
  // ~1,350 holder engines' indexes promoted on the diverse bench cluster.
  const byRoleFilling: Filling = {};
  const bindingsByRole = new FilledOnRead<IndexedBinding[]>(byRoleFilling);
  const clusterBindingsByRole = new FilledOnRead<IndexedBinding[]>(byRoleFilling);
  const roleBindingsByRole = new FilledOnRead<Map<string, IndexedBinding[]>>(byRoleFilling);
  byRoleFilling.fill = () => fillBindingsByRole(bindings, bindingsByRole, clusterBindingsByRole, roleBindingsByRole);
  for (const b of bindings) {
    let target = clusterBindings;
    if (b.ref.kind === 'RoleBinding') {
      const ns = b.ref.namespace ?? '';
      let idx = namespaceBindings.get(ns);
      if (!idx) namespaceBindings.set(ns, (idx = emptySubjectIndex()));
      target = idx;
    }
    for (const subject of b.subjects) {
      const entry: SubjectEntry = { binding: b, subject };
      if (subject.kind === 'Group') pushTo(target.byGroup, subject.name, entry);
      else pushTo(target.byUser, subjectUsername(subject), entry);
    }
  }

  // The rule buckets are filled on first read (see FilledOnRead); the short list of non-resource rules is made now.
  const nonResourceRules: RuleRef[] = [];
  const allRoles = rolesOf(clusterRoles, roles);
  for (const role of allRoles) {
    const rules = role.rules;
    for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
      const urls = rules[ruleIndex].rule.nonResourceURLs;
      if (urls && urls.length > 0) nonResourceRules.push({ role, ruleIndex });
    }
  }
  const filling: Filling = {};
  const ruleBuckets = new FilledOnRead<RuleRef[]>(filling);
  const wildcardBuckets = new FilledOnRead<RuleRef[]>(filling);
  filling.fill = () => fillRuleBuckets(allRoles, ruleBuckets, wildcardBuckets);

  return {
    clusterRoles,
    roles,
    clusterBindings,
    namespaceBindings,
    bindings,
    bindingsByRole,
    clusterBindingsByRole,
    roleBindingsByRole,
    ruleBuckets,
    wildcardBuckets,
    nonResourceRules,
    notes,
  };
}

function rolesOf(clusterRoles: Map<string, CompiledRole>, roles: Map<string, Map<string, CompiledRole>>): CompiledRole[] {
  const all: CompiledRole[] = [...clusterRoles.values()];
  for (const inNs of roles.values()) for (const role of inNs.values()) all.push(role);
  return all;
}

const hasResources = (rule: PolicyRule) => !!rule.resources && rule.resources.length > 0 && !!rule.apiGroups && rule.apiGroups.length > 0;

interface Filling {
  /** Fills the maps that share it; cleared before it runs. */
  fill?: () => void;
}

/**
 * Maps of an index filled on first read: an engine made for a few identities (a fix's holder-scoped
 * engine, ~1,350 of them in one analysis of a large cluster) mostly only authorizes, which reads the
 * subject indexes, and bucketing its roles' rules was most of its cost. A class (not getters on each
 * index object) so that every index keeps one shape.
 */
class FilledOnRead<V> extends Map<string, V> {
  constructor(private readonly filling: Filling) {
    super();
  }

  private filled(): void {
    const fill = this.filling.fill;
    if (fill) {
      this.filling.fill = undefined;
      fill();
    }
  }

  override get(key: string): V | undefined {
    this.filled();
    return super.get(key);
  }

  override has(key: string): boolean {
    this.filled();
    return super.has(key);
  }

  override get size(): number {
    this.filled();
    return super.size;
  }

  override forEach(callback: (value: V, key: string, map: Map<string, V>) => void, thisArg?: unknown): void {
    this.filled();
    super.forEach(callback, thisArg);
  }

  override keys(): MapIterator<string> {
    this.filled();
    return super.keys();
  }

  override values(): MapIterator<V> {
    this.filled();
    return super.values();
  }

  override entries(): MapIterator<[string, V]> {
    this.filled();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[string, V]> {
    this.filled();
    return super[Symbol.iterator]();
  }
}

// Map's own get: the buckets' get would first ask whether they are filled, on every call of the fill.
const mapGet = Map.prototype.get;

/** Pushes `value` onto the list of `key` in a FilledOnRead map while it is being filled (its own get would ask whether it is filled). */
function pushDuringFill<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = mapGet.call(map, key) as V[] | undefined;
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The bindings with a resolved role by the role's key: all of them, the ClusterRoleBindings, and the RoleBindings by namespace. */
function fillBindingsByRole(
  bindings: readonly IndexedBinding[],
  bindingsByRole: Map<string, IndexedBinding[]>,
  clusterBindingsByRole: Map<string, IndexedBinding[]>,
  roleBindingsByRole: Map<string, Map<string, IndexedBinding[]>>,
): void {
  for (const b of bindings) {
    if (!b.role) continue;
    pushDuringFill(bindingsByRole, b.role.key, b);
    if (b.ref.kind === 'ClusterRoleBinding') pushDuringFill(clusterBindingsByRole, b.role.key, b);
    else {
      let byNs = mapGet.call(roleBindingsByRole, b.role.key) as Map<string, IndexedBinding[]> | undefined;
      if (!byNs) roleBindingsByRole.set(b.role.key, (byNs = new Map()));
      pushTo(byNs, b.ref.namespace ?? '', b);
    }
  }
}

/** Every resource rule by the group and resource it lists: wildcard rules (isWildcardRule) in `wildcardBuckets`, the others in `ruleBuckets`. */
function fillRuleBuckets(allRoles: readonly CompiledRole[], ruleBuckets: Map<string, RuleRef[]>, wildcardBuckets: Map<string, RuleRef[]>): void {
  // Each group and resource pair's key is made once and looked up by its parts after: ~47,000 rules of
  // the diverse bench cluster list the same few hundred pairs, and a key string made (and hashed) per
  // pair and rule was much of the fill.
  const keys = new Map<string, Map<string, string>>();
  for (const role of allRoles) {
    const rules = role.rules;
    for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
      const rule = rules[ruleIndex].rule;
      if (!hasResources(rule)) continue;
      const ref: RuleRef = { role, ruleIndex };
      const buckets = isWildcardRule(rule) ? wildcardBuckets : ruleBuckets;
      for (const g of rule.apiGroups!) {
        let ofGroup = keys.get(g);
        if (!ofGroup) keys.set(g, (ofGroup = new Map()));
        for (const r of rule.resources!) {
          let key = ofGroup.get(r);
          if (key === undefined) ofGroup.set(r, (key = bucketKey(g, r)));
          const list = mapGet.call(buckets, key) as RuleRef[] | undefined;
          // A rule that lists a group or resource twice is put in its bucket once: the rule's
          // pushes come one after another, so it is then that bucket's last entry.
          if (!list) buckets.set(key, [ref]);
          else if (list[list.length - 1] !== ref) list.push(ref);
        }
      }
    }
  }
}

/**
 * The resource rules that could match a request on (group, resource, subresource): its exact bucket,
 * and the wildcard rules listed under a group of "*" or the group, and a resource of "*", the
 * resource, or "*" + "/<subresource>" (RBAC matches nothing else). Each rule once; the order is not
 * meaningful. Questions no longer test every wildcard rule of the cluster: thousands on a cluster
 * whose roles were written by many hands.
 */
export function candidateRules(index: Pick<RbacIndex, 'ruleBuckets' | 'wildcardBuckets'>, group: string, resource: string, subresource: string): RuleRef[] {
  const lists = candidateRuleLists(index, group, resource, subresource);
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0];
  const out = new Set<RuleRef>();
  for (const list of lists) for (const ref of list) out.add(ref);
  return [...out];
}

/**
 * The buckets candidateRules reads, in its order (the exact bucket first): a rule may be in several
 * wildcard buckets. For callers that test each rule and can meet one twice, without the set that
 * candidateRules makes (thousands of rules for a common resource). The lists are the index's own:
 * not to be changed.
 */
export function candidateRuleLists(
  index: Pick<RbacIndex, 'ruleBuckets' | 'wildcardBuckets'>,
  group: string,
  resource: string,
  subresource: string,
): readonly RuleRef[][] {
  const combined = subresource === '' ? resource : `${resource}/${subresource}`;
  const lists: RuleRef[][] = [];
  const exact = index.ruleBuckets.get(bucketKey(group, combined));
  if (exact) lists.push(exact);
  const add = (g: string, r: string) => {
    const list = index.wildcardBuckets.get(bucketKey(g, r));
    if (list) lists.push(list);
  };
  for (const g of group === '*' ? ['*'] : [group, '*']) {
    add(g, combined);
    if (resource !== '*') add(g, '*');
    if (subresource !== '') add(g, `*/${subresource}`);
  }
  return lists;
}

// candidateRulesFor's answers per index: a cluster whose roles were written by many hands lists a
// common resource (serviceaccounts, pods) in thousands of rules, most of them for other verbs.
const verbRuleCache = new WeakMap<object, Map<string, RuleRef[]>>();

/**
 * candidateRules narrowed to the rules whose verbs include `verb` (or "*"), kept per index and
 * question: analyses ask the same verb on the same resource for many names and namespaces.
 */
export function candidateRulesFor(
  index: Pick<RbacIndex, 'ruleBuckets' | 'wildcardBuckets'>,
  verb: string,
  group: string,
  resource: string,
  subresource: string,
): RuleRef[] {
  let cache = verbRuleCache.get(index);
  if (!cache) verbRuleCache.set(index, (cache = new Map()));
  const key = `${verb}\u0000${group}\u0000${resource}\u0000${subresource}`;
  let refs = cache.get(key);
  if (!refs) {
    refs = candidateRules(index, group, resource, subresource).filter(({ role, ruleIndex }) => verbMatches(role.rules[ruleIndex].rule, verb));
    cache.set(key, refs);
  }
  return refs;
}

/** Every namespace's SubjectIndex entries, gathered by username and by group name: each name's lists in the index's namespace order. */
export interface RoleBindingSubjects {
  byUser: Map<string, SubjectEntry[][]>;
  byGroup: Map<string, SubjectEntry[][]>;
}

// Per RBAC index (an index does not change once built).
const roleBindingSubjectsPerIndex = new WeakMap<object, RoleBindingSubjects>();

/**
 * The RoleBindings (any namespace) that name a username or a group, as the namespaces' subject
 * indexes hold them: their keys and lists exist already, where a key string per subject of 32,000
 * RoleBindings cost ~170 ms on the diverse bench cluster. Read by the analysis' who-can among
 * identities and by fix verification's holder engines; built on first use, once per index.
 */
export function roleBindingSubjects(index: Pick<RbacIndex, 'namespaceBindings'>): RoleBindingSubjects {
  let found = roleBindingSubjectsPerIndex.get(index);
  if (!found) {
    found = { byUser: new Map(), byGroup: new Map() };
    for (const idx of index.namespaceBindings.values()) {
      for (const [name, entries] of idx.byUser) pushTo(found.byUser, name, entries);
      for (const [name, entries] of idx.byGroup) pushTo(found.byGroup, name, entries);
    }
    roleBindingSubjectsPerIndex.set(index, found);
  }
  return found;
}

/** The bindings of a role that apply to a request in `namespace` ('' = cluster scope): its ClusterRoleBindings, and its RoleBindings there. */
export function bindingsOfRoleIn(index: Pick<RbacIndex, 'clusterBindingsByRole' | 'roleBindingsByRole'>, roleKey: string, namespace: string): IndexedBinding[] {
  const cluster = index.clusterBindingsByRole.get(roleKey) ?? [];
  if (namespace === '') return cluster;
  const here = index.roleBindingsByRole.get(roleKey)?.get(namespace);
  return here ? [...cluster, ...here] : cluster;
}

function isWildcardRule(rule: PolicyRule): boolean {
  if (rule.apiGroups!.includes('*')) return true;
  for (const r of rule.resources!) if (r === '*' || r.startsWith('*/')) return true;
  return false;
}

/**
 * Subjects exactly as the RBAC authorizer matches them: kinds other than User/Group/ServiceAccount
 * match nothing, and a ServiceAccount without a namespace takes the binding's (none in a
 * ClusterRoleBinding: it matches nothing).
 */
export function normaliseSubjects(subjects: Subject[] | null | undefined, bindingNamespace: string): SubjectRef[] {
  if (!subjects) return [];
  // Most bindings keep every subject: their list is made at its size. Pushing onto an empty array
  // reserves 17 slots, which ~36,000 bindings of a large cluster then kept.
  let kept = true;
  for (const s of subjects) if (!keepsSubject(s, bindingNamespace)) kept = false;
  if (kept) return subjects.map((s) => normaliseSubject(s, bindingNamespace));
  const out: SubjectRef[] = [];
  for (const s of subjects) if (keepsSubject(s, bindingNamespace)) out.push(normaliseSubject(s, bindingNamespace));
  return out;
}

/** Whether the RBAC authorizer can ever match a binding subject (see normaliseSubjects). */
function keepsSubject(s: Subject, bindingNamespace: string): boolean {
  if (s.kind === 'User' || s.kind === 'Group') return true;
  return s.kind === 'ServiceAccount' && (s.namespace || bindingNamespace) !== '';
}

/** A subject keepsSubject accepts, as normaliseSubjects gives it. */
function normaliseSubject(s: Subject, bindingNamespace: string): SubjectRef {
  if (s.kind === 'ServiceAccount') return { kind: 'ServiceAccount', name: s.name, namespace: s.namespace || bindingNamespace };
  return { kind: s.kind as 'User' | 'Group', name: s.name };
}

export function subjectUsername(subject: SubjectRef): string {
  return subject.kind === 'ServiceAccount' ? serviceAccountUsername(subject.namespace ?? '', subject.name) : subject.name;
}

function emptySubjectIndex(): SubjectIndex {
  return { byUser: new Map(), byGroup: new Map() };
}
