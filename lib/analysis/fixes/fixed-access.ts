import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { ownRules, type AggregatedRule } from '@/lib/authz/aggregate-cluster-roles';
import { authorizeNode } from '@/lib/authz/node-authorizer';
import type { CompiledRole, IndexedBinding, SubjectEntry, SubjectIndex } from '@/lib/authz/rbac-index';
import {
  apiGroupMatches,
  combinedResource,
  resourceMatches,
  resourceNameMatches,
  ruleAllowsNonResource,
  ruleAllowsResource,
  verbMatches,
} from '@/lib/authz/rule-matches';
import type { AuthzRequest, ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { nodeIdentity } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { PolicyRule } from '@/lib/k8s/types';
import type { AccessQuestion } from '@/lib/analysis/context/access';
import { affectedAggregations, aggregatingRoles, noRbacChanges, positionsNamingUsers, type RbacChanges } from './holder-engine';

// Whether a request of a fix's holder is allowed after the fix, read from the original engine's index
// rather than from a holder engine (holderEngine builds one per fix: ~1,350 on the diverse bench
// cluster, most of verifyProposal's cost). A fix that changes roles and no binding leaves every binding
// where it is: a request is allowed after it when an authorizer other than RBAC allows it (they read no
// RBAC object) or one of the bindings naming the user, in the original index, has a rule that matches
// it in its role as changed. An aggregating role whose members change is not recomputed here: such a
// request is left undecided, for the holder engine. The same bindings tell, for a fix that must take
// capabilities away, when no rule its holders keep can match their questions (mayHold): then the
// capability check needs no holder engine either.
//
// It answers as the holder engine does, which reads, for a user whose name and groups are among the
// fix's users', the same bindings as the original index (the state's object of each) and the same
// roles (a role by its name, an unchanged aggregating one with today's rules). That holds on a state
// where no two roles or bindings share a namespace and name and every object is namespaced as its kind
// is; on any other state, and for a fix that changes a binding, there is no fast answer.

// Whether the state of each engine's index is plain (computed once per index).
const plainIndexes = new WeakMap<object, boolean>();

type Named = { metadata: { name: string; namespace?: string } };

/** Each object namespaced (`namespaced`) or not, as its kind is. */
const scopedAsItsKind = (list: readonly Named[], namespaced: boolean) => list.every((o) => ((o.metadata.namespace ?? '') !== '') === namespaced);

/**
 * No two roles or bindings of one namespace and name, each namespaced as its kind is. Read from the
 * index, without a set of every name: its roles are kept by namespace and name (one per name, so as
 * many as the state's when no two share one), its bindings sorted by kind, namespace and name (two of
 * one name side by side).
 */
function isPlain(engine: AuthzEngine): boolean {
  const rbac = engine.rbac;
  let plain = plainIndexes.get(rbac);
  if (plain === undefined) {
    const state = engine.state;
    let roles = 0;
    for (const inNs of rbac.roles.values()) roles += inNs.size;
    plain =
      scopedAsItsKind(state.clusterRoles, false) &&
      scopedAsItsKind(state.roles, true) &&
      scopedAsItsKind(state.clusterRoleBindings, false) &&
      scopedAsItsKind(state.roleBindings, true) &&
      rbac.clusterRoles.size === state.clusterRoles.length &&
      roles === state.roles.length &&
      rbac.bindings.every((b, i) => {
        const before = i === 0 ? undefined : rbac.bindings[i - 1].ref;
        return !before || before.kind !== b.ref.kind || before.name !== b.ref.name || (before.namespace ?? '') !== (b.ref.namespace ?? '');
      });
    plainIndexes.set(rbac, plain);
  }
  return plain;
}

// The names of each state's aggregating ClusterRoles.
const aggregatingNames = new WeakMap<ClusterState, Set<string>>();

function aggregatingNamesOf(state: ClusterState): Set<string> {
  let names = aggregatingNames.get(state);
  if (!names) aggregatingNames.set(state, (names = new Set(aggregatingRoles(state).map((cr) => cr.metadata.name))));
  return names;
}

/**
 * The answers after `changes` for requests of `users` (a user whose name is one of theirs and whose
 * groups are among theirs), or undefined when the fix changes a binding or the state is not plain.
 */
export function fixedAccess(engine: AuthzEngine, users: readonly UserInfo[], changes: RbacChanges): FixedAccess | undefined {
  if (changes.clusterRoleBindings.length > 0 || changes.roleBindings.length > 0) return undefined;
  if (changes.clusterRoles.some((cr) => (cr.metadata.namespace ?? '') !== '') || changes.roles.some((r) => (r.metadata.namespace ?? '') === ''))
    return undefined;
  if (!isPlain(engine)) return undefined;
  return new FixedAccess(engine, users, changes);
}

/**
 * Today's answers to requests of `users` (the name of one of them, groups among theirs): fixedAccess
 * with no change where the state is plain, which writes no decision (a grant and a reason string for
 * each allowed request), else the engine's. The fixes ask today's answer of every request they probe
 * (CLAIM003's holders ~160,000 on the diverse bench cluster).
 */
export function todayAllowed(engine: AuthzEngine, users: readonly UserInfo[]): (request: AuthzRequest) => boolean {
  const today = fixedAccess(engine, users, noRbacChanges());
  return (request) => today?.allowed(request) ?? engine.authorize(request).allowed;
}

// A class, not closures made per fix: V8 keeps what it learns about a function per closure, and the
// closures of each of ~1,350 fixes ran cold (193 ms profiled on the diverse bench cluster, 102 as methods).
export class FixedAccess {
  private readonly aggregating: Set<string>;
  /**
   * The changed roles' rules, compiled as an index compiles a role that aggregates nothing; null for
   * one that aggregates (today or as changed), whose rules the holder engine recomputes. The last
   * change of a name wins, as in the holder engine.
   */
  private readonly changedClusterRoles = new Map<string, AggregatedRule[] | null>();
  private readonly changedRoles = new Map<string, Map<string, AggregatedRule[]>>();
  /** Whether a changed role is one the original index does not have (bindings to it have no compiled role there). */
  private readonly newRoles: boolean;
  /** The rules after the fix of each role of the original index read so far. */
  private readonly byRole = new Map<CompiledRole, readonly AggregatedRule[] | null>();
  private affected?: Set<string>;
  private readonly clusterLists = new Map<string, ClusterLists>();
  private readonly names: Set<string>;
  private readonly groups: Set<string>;
  /** The user of the last request, and what allowed read of it alone. */
  private last: LastUser = NO_USER;

  constructor(
    private readonly engine: AuthzEngine,
    private readonly users: readonly UserInfo[],
    private readonly changes: RbacChanges,
  ) {
    const rbac = engine.rbac;
    this.aggregating = aggregatingNamesOf(engine.state);
    let newRoles = false;
    for (const cr of changes.clusterRoles) {
      const name = cr.metadata.name;
      this.changedClusterRoles.set(name, cr.aggregationRule || this.aggregating.has(name) ? null : ownRules(cr.rules));
      if (!rbac.clusterRoles.has(name)) newRoles = true;
    }
    for (const r of changes.roles) {
      const ns = r.metadata.namespace!;
      let inNs = this.changedRoles.get(ns);
      if (!inNs) this.changedRoles.set(ns, (inNs = new Map()));
      inNs.set(r.metadata.name, ownRules(r.rules));
      if (!rbac.roles.get(ns)?.has(r.metadata.name)) newRoles = true;
    }
    this.newRoles = newRoles;
    this.names = new Set(users.map((u) => u.name));
    this.groups = new Set(users.flatMap((u) => u.groups));
  }

  /** Allowed or refused after the fix, or undefined when only the holder engine can tell. */
  allowed(request: AuthzRequest): boolean | undefined {
    const user = request.user;
    if (user !== this.last.user) this.last = this.learn(user);
    const last = this.last;
    if (!last.ours) return undefined;
    // The union authorizer's answer (authorize.ts), with RBAC's read as below.
    if (last.master) return true;
    const chain = this.engine.chain;
    for (let i = 0; i < chain.length; i++) {
      const name = chain[i];
      if (name === 'AlwaysAllow') return true;
      if (name === 'AlwaysDeny') return false;
      if (name === 'Node') {
        // The Node authorizer has no opinion on a user that is not a node's identity.
        if (last.node && authorizeNode(this.engine.nodeGraph, request)?.allowed) return true;
      } else {
        const allowed = this.rbacAllows(request);
        if (allowed === null) return undefined;
        if (allowed) return true;
      }
    }
    return false;
  }

  /**
   * What allowed reads of the user alone, for the user object of the last request: a holder's
   * requests carry its one user object (CLAIM003's holders ask thousands each), read once for them.
   * A user object is not changed once asked about.
   */
  private learn(user: UserInfo): LastUser {
    let ours = this.names.has(user.name);
    for (let i = 0; ours && i < user.groups.length; i++) ours = this.groups.has(user.groups[i]);
    return { user, ours, master: user.groups.includes('system:masters'), node: nodeIdentity(user) !== undefined, cluster: undefined };
  }

  /**
   * False when no binding the holder engine would read (those naming the users or their groups) has,
   * in its role after the fix, a rule that may match one of the questions for some verb of theirs,
   * whatever the namespace and name: then no identity the users carry holds any of them after the fix
   * (capability-holders reads RBAC entries from those bindings only, each from a rule that matches).
   * True when one may, or when a role's rules cannot be read here.
   */
  mayHold(questions: readonly AccessQuestion[]): boolean {
    const all = this.engine.rbac.bindings;
    const checked = new Set<readonly AggregatedRule[]>();
    for (const pos of positionsNamingUsers(this.engine, this.users)) {
      const rules = this.rulesAfter(all[pos]);
      if (rules === null) return true;
      if (!rules || checked.has(rules)) continue;
      checked.add(rules);
      for (let i = 0; i < rules.length; i++) for (const q of questions) if (mayMatch(rules[i].rule, q)) return true;
    }
    return false;
  }

  /** RBAC after the fix: ClusterRoleBindings always, RoleBindings of the request's namespace; null when a role's rules cannot be read. */
  private rbacAllows(request: AuthzRequest): boolean | null {
    const rbac = this.engine.rbac;
    const res = request.resource;
    const combined = res ? combinedResource(res) : '';
    const cluster = res ? this.clusterAllows(request, res, combined) : this.listsAllow(this.clusterEntries(request.user).lists, request, combined);
    if (cluster) return true;
    const ns = request.resource?.namespace ?? '';
    const inNs = ns === '' ? false : this.indexAllows(rbac.namespaceBindings.get(ns), request, combined);
    if (inNs) return true;
    return cluster === null || inNs === null ? null : false;
  }

  /**
   * The ClusterRoleBindings' entries naming the user or one of its groups: the same for each of a
   * holder's requests (thousands for CLAIM003's holders), read from the index's maps once per fix.
   */
  private clusterEntries(user: UserInfo): ClusterLists {
    const known = this.clusterLists.get(user.name);
    if (known && sameStrings(known.groups, user.groups)) return known;
    const idx = this.engine.rbac.clusterBindings;
    const lists: (readonly SubjectEntry[])[] = [];
    const own = idx.byUser.get(user.name);
    if (own) lists.push(own);
    for (let i = 0; i < user.groups.length; i++) {
      const entries = idx.byGroup.get(user.groups[i]);
      if (entries) lists.push(entries);
    }
    const found: ClusterLists = { groups: user.groups, lists, asked: 0, families: undefined };
    if (!known) this.clusterLists.set(user.name, found);
    return found;
  }

  /**
   * The ClusterRoleBindings' answer to a resource request, from the rules of the user's entries that
   * match its verb, group and resource (a family): gathered once per user and family, then only their
   * resourceNames are read. CLAIM003's holders each ask update and patch of every namespace of their
   * issue (~160,000 requests on the diverse bench cluster, most refused after a walk of every entry).
   */
  private clusterAllows(request: AuthzRequest, res: ResourceAttributes, combined: string): boolean | null {
    const user = request.user;
    const last = this.last;
    const entries = last.user === user ? (last.cluster ??= this.clusterEntries(user)) : this.clusterEntries(user);
    // A user asked a few requests (a persona's, DRA002's kept verbs, each once) is read by the walk:
    // gathering a family it asks once costs more than the walk.
    if (++entries.asked <= WALKED_REQUESTS) return this.listsAllow(entries.lists, request, combined);
    const families = (entries.families ??= new Map());
    let list = families.get(combined);
    if (!list) families.set(combined, (list = []));
    let family: ClusterFamily | undefined;
    for (let i = 0; i < list.length; i++) {
      const f = list[i];
      if (f.verb === res.verb && f.group === res.group && f.subresource === res.subresource) {
        family = f;
        break;
      }
    }
    if (!family) list.push((family = this.familyOf(entries.lists, res, combined)));
    if (family.anyName) return true;
    const rules = family.rules;
    for (let i = 0; i < rules.length; i++) if (resourceNameMatches(rules[i], res.name)) return true;
    return family.undecided ? null : false;
  }

  private familyOf(lists: readonly (readonly SubjectEntry[])[], res: ResourceAttributes, combined: string): ClusterFamily {
    let rules: PolicyRule[] = NO_RULES;
    let anyName = false;
    let undecided = false;
    for (const entries of lists)
      for (let e = 0; e < entries.length; e++) {
        const after = this.rulesAfter(entries[e].binding);
        if (after === null) undecided = true;
        if (!after) continue;
        for (let i = 0; i < after.length; i++) {
          const rule = after[i].rule;
          if (!verbMatches(rule, res.verb) || !apiGroupMatches(rule, res.group) || !resourceMatches(rule, combined, res.subresource)) continue;
          if (!rule.resourceNames || rule.resourceNames.length === 0) anyName = true;
          else if (rules === NO_RULES) rules = [rule];
          else rules.push(rule);
        }
      }
    return { verb: res.verb, group: res.group, subresource: res.subresource, rules, anyName, undecided };
  }

  private listsAllow(lists: readonly (readonly SubjectEntry[])[], request: AuthzRequest, combined: string): boolean | null {
    let undecided = false;
    for (let i = 0; i < lists.length; i++) {
      const found = this.entriesAllow(lists[i], request, combined);
      if (found) return true;
      if (found === null) undecided = true;
    }
    return undecided ? null : false;
  }

  private indexAllows(idx: SubjectIndex | undefined, request: AuthzRequest, combined: string): boolean | null {
    if (!idx) return false;
    const user = request.user;
    let undecided = false;
    const own = this.entriesAllow(idx.byUser.get(user.name), request, combined);
    if (own) return true;
    if (own === null) undecided = true;
    for (let i = 0; i < user.groups.length; i++) {
      const found = this.entriesAllow(idx.byGroup.get(user.groups[i]), request, combined);
      if (found) return true;
      if (found === null) undecided = true;
    }
    return undecided ? null : false;
  }

  /** Whether a rule of one of the entries' roles (after the fix) matches, or null when one cannot be read. */
  private entriesAllow(entries: readonly SubjectEntry[] | undefined, request: AuthzRequest, combined: string): boolean | null {
    if (!entries) return false;
    const res = request.resource;
    let undecided = false;
    for (let e = 0; e < entries.length; e++) {
      const rules = this.rulesAfter(entries[e].binding);
      if (rules === null) {
        undecided = true;
        continue;
      }
      if (!rules) continue;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i].rule;
        if (res ? ruleAllowsResource(rule, res, combined) : request.nonResource ? ruleAllowsNonResource(rule, request.nonResource) : false) return true;
      }
    }
    return undecided ? null : false;
  }

  /** The rules of a binding's role after the fix (undefined: no role), or null when its aggregation must be recomputed. */
  private rulesAfter(b: IndexedBinding): readonly AggregatedRule[] | undefined | null {
    const role = b.role;
    // On a plain state a compiled role is the role of one name (and namespace): read once per fix.
    if (role === undefined) return this.newRoles ? this.readRulesAfter(b) : undefined;
    let rules = this.byRole.get(role);
    if (rules === undefined) this.byRole.set(role, (rules = this.readRulesAfter(b) ?? null));
    return rules;
  }

  private readRulesAfter(b: IndexedBinding): readonly AggregatedRule[] | undefined | null {
    const ref = b.roleRef;
    if (ref?.kind === 'ClusterRole') {
      const changed = this.changedClusterRoles.get(ref.name);
      if (changed !== undefined) return changed;
      if (this.aggregating.has(ref.name) && (this.affected ??= affectedAggregations(this.engine.state, this.changes)).has(ref.name)) return null;
    } else if (ref?.kind === 'Role' && b.ref.kind === 'RoleBinding') {
      const changed = this.changedRoles.get(b.ref.namespace ?? '')?.get(ref.name);
      if (changed) return changed;
    }
    return b.role?.rules;
  }
}

interface LastUser {
  user: UserInfo | undefined;
  /** Its name is one of the users' and its groups among theirs: the requests this class answers. */
  ours: boolean;
  master: boolean;
  /** A node's identity, which the Node authorizer decides for. */
  node: boolean;
  /** Its ClusterRoleBindings' entries, read on its first resource request. */
  cluster: ClusterLists | undefined;
}

const NO_USER: LastUser = { user: undefined, ours: false, master: false, node: false, cluster: undefined };

interface ClusterLists {
  groups: readonly string[];
  lists: readonly (readonly SubjectEntry[])[];
  /** Its resource requests so far. */
  asked: number;
  /** By combined resource, the families asked so far (a handful of verbs and groups each), once the user has asked more than WALKED_REQUESTS. */
  families: Map<string, ClusterFamily[]> | undefined;
}

/** The rules of a user's ClusterRoleBindings after the fix that match a verb, group and resource. */
interface ClusterFamily {
  verb: string;
  group: string;
  subresource: string;
  /** Those that name resources (resourceNames): they match a request of one of these names. */
  rules: PolicyRule[];
  /** Whether one names none: it matches every request of the family. */
  anyName: boolean;
  /** Whether an entry's role cannot be read here (its aggregation changes). */
  undecided: boolean;
}

const NO_RULES: PolicyRule[] = [];

/** Resource requests of a user answered by walking its ClusterRoleBindings' rules before families are gathered. */
const WALKED_REQUESTS = 32;

/** Whether the rule matches the question's group, resource and one of its verbs (what every match of access.ts's matchRole needs). */
function mayMatch(rule: PolicyRule, q: AccessQuestion): boolean {
  const subresource = q.subresource ?? '';
  if (!apiGroupMatches(rule, q.group) || !resourceMatches(rule, combinedResource({ resource: q.resource, subresource }), subresource)) return false;
  return q.verbs.some((verb) => verbMatches(rule, verb));
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
