import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { apiGroupMatches, combinedResource, resourceMatches, ruleAllowsResource, verbMatches } from '@/lib/authz/rule-matches';
import type { ResourceAttributes } from '@/lib/authz/types';
import {
  candidateRuleLists,
  roleBindingSubjects,
  subjectUsername,
  type CompiledRole,
  type IndexedBinding,
  type SubjectEntry,
  type SubjectIndex,
} from '@/lib/authz/rbac-index';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import { pushTo } from '@/lib/k8s/push-to';
import { compareStrings, compareSubjects, refKey } from '@/lib/k8s/refs';
import type { PolicyRule, SubjectRef } from '@/lib/k8s/types';
import { PROBE_NAME, PROBE_NAMESPACE } from '@/lib/analysis/evidence';
import { canonicalKey, canonicalSubject, isMastersGroup, isNodeIdentity, sameCanonicalSubject, subjectAppliesTo, usernameOf } from './identities';

// "Who can do X somewhere?": every binding whose role has a rule that matches the question (the
// engine's exact rule matching, lib/authz/rule-matches) for some namespace and some name, merged
// per subject, plus system:masters and Node-authorizer identities from the engine's whoCan. Walking
// the RBAC index once per question avoids asking whoCan for every namespace × name. The analysis
// context owns one AccessIndex, which keeps every answer and intermediate result it derives.

export interface AccessQuestion {
  verbs: readonly string[];
  group: string;
  resource: string;
  subresource?: string;
  /** cluster: namespace "" (ClusterRoleBindings only); namespaced: any namespace (RoleBindings count in theirs). */
  scope: 'cluster' | 'namespaced';
  /**
   * any: some name (unscoped grants and every listed resourceNames entry); unscoped: every name (only
   * grants without resourceNames); or these names ('' = a request without a name, e.g. create).
   */
  names: 'any' | 'unscoped' | readonly string[];
  /** namespaced only: ask only in these namespaces (ClusterRoleBindings still count; Node-authorizer identities are not listed). */
  namespaces?: readonly string[];
}

export interface AccessEntry {
  /** Canonical subject (a User named system:serviceaccount:… is reported as the ServiceAccount). */
  subject: SubjectRef;
  via: 'privileged-group' | 'node' | 'rbac';
  grants: WhoCanGrant[];
  /** Verbs the subject was allowed, in question order. */
  verbs: string[];
  /** Allowed in every namespace (a ClusterRoleBinding, system:masters, or a cluster-scoped question). */
  everyNamespace: boolean;
  /** Namespaces where only RoleBindings allow it. */
  namespaces: string[];
  /** Names allowed: '*' for every name, otherwise the resourceNames that allowed it. */
  names: string[];
}

/** Answers access questions over one engine, caching what it derives on the instance. */
export class AccessIndex {
  private readonly answers = new Map<string, AccessEntry[]>();
  private readonly answersByQuestion = new WeakMap<AccessQuestion, AccessEntry[]>();
  private byNamespace?: Map<string, IndexedBinding[]>;
  private readonly roleMatchCache = new Map<string, Map<string, RoleMatch | null>>();
  private readonly mayMatchCache = new Map<string, Set<string>>();
  private readonly mayMatchByVerbs = new WeakMap<readonly string[], Map<string, Set<string>>>();
  private readonly clusterBindingCache = new WeakMap<Set<string>, IndexedBinding[]>();
  private readonly entryIndexes = new WeakMap<readonly AccessEntry[], Map<string, AccessEntry[]>>();
  private readonly everywhereCache = new Map<string, Set<string>>();
  private readonly rbacAnswers = new WeakMap<readonly AccessEntry[], AccessEntry[]>();
  private readonly plans = new WeakMap<AccessQuestion, QuestionPlan>();
  private readonly plansByVerbs = new WeakMap<readonly string[], Map<string, QuestionPlan>>();
  private readonly everywhereByQuestion = new WeakMap<AccessQuestion, Set<string>>();
  private readonly groupRoleBindings = new WeakMap<Set<string>, Map<string, readonly IndexedBinding[]>>();
  private readonly clusterNamingCache = new WeakMap<Set<string>, SubjectBindings>();
  private readonly groupEntries = new WeakMap<AccessQuestion, Map<string, AccessEntry | null>>();

  constructor(readonly engine: AuthzEngine) {}

  /**
   * Every subject that may do it somewhere (one answer per question, computed once). With `keep:
   * false` the answer is not kept: for questions asked once each, per namespace, across thousands
   * of namespaces.
   */
  whoCan(q: AccessQuestion, options: { keep?: boolean } = {}): AccessEntry[] {
    // By the question object first (a question is not changed once asked): checks ask the same few
    // question objects ~8,000 times in an analysis of the diverse bench cluster, each a JSON key.
    let hit = this.answersByQuestion.get(q);
    if (hit) return hit;
    const keep = options.keep !== false;
    const key = JSON.stringify(q);
    hit = this.answers.get(key);
    if (!hit) {
      hit = compute(this, q);
      if (keep) this.answers.set(key, hit);
    }
    if (keep) this.answersByQuestion.set(q, hit);
    return hit;
  }

  /**
   * The RBAC entries of whoCan(q) of ordinary identities (not system:masters, not the Node
   * authorizer's), kept beside the answer: the same array each time, so entriesFor indexes it once
   * (checks that ask it for each of thousands of identities rebuilt that index every time).
   */
  rbacWhoCan(q: AccessQuestion): AccessEntry[] {
    const all = this.whoCan(q);
    let hit = this.rbacAnswers.get(all);
    if (!hit) this.rbacAnswers.set(all, (hit = all.filter(isOrdinaryRbac)));
    return hit;
  }

  /**
   * The entries of whoCan({ ...q, namespaces: [ns] }) that only the namespace's RoleBindings give
   * (namespaces: [ns], not everyNamespace), without building, for each namespace, the entries of
   * everyone allowed everywhere. Not kept: for checks that ask each of thousands of namespaces once.
   */
  grantedInNamespace(q: AccessQuestion, ns: string): AccessEntry[] {
    // Namespace '' has no RoleBindings (its list holds the ClusterRoleBindings).
    if (ns === '') return [];
    const plan = this.planOf(q);
    const bindings = this.bindingsByNamespace().get(ns) ?? [];
    // Only the namespace's RoleBindings count: where none may match, nothing is computed (most
    // namespaces of a cluster whose RoleBindings grant other roles).
    if (!someCandidate(bindings, plan.candidates)) return [];
    return grantedBy(q, ns, bindings, plan, this.everywhereSubjects(q));
  }

  /**
   * The entries of whoCan(q) for these subjects only (as their canonical form), found through the
   * engine's subject indexes: only the bindings that name them are read (a namespaced question
   * without namespaces: their RoleBindings in every namespace). A check that asks, in each of
   * thousands of namespaces, about the few identities that matter there, or about one identity's
   * holdings, no longer builds everyone allowed everywhere. Not kept.
   */
  whoCanAmong(q: AccessQuestion, subjects: readonly SubjectRef[]): AccessEntry[] {
    const found = this.bindingsAmong(q, subjects);
    if (!found) return [];
    return compute(this, q, { only: found.only, bindings: [...found.bindings], plan: this.planOf(q) });
  }

  /**
   * Whether whoCanAmong(q, subjects) has an entry, without making the entries: CLAIM003 asks, for
   * each of ~3,800 identities it reports, only whether it may create claims in the namespace.
   */
  someAmong(q: AccessQuestion, subjects: readonly SubjectRef[]): boolean {
    const found = this.bindingsAmong(q, subjects);
    if (!found) return false;
    // system:masters and node identities have entries of their own, not from bindings.
    if (found.special) return this.whoCanAmong(q, subjects).length > 0;
    const { matches } = this.planOf(q);
    for (const b of found.bindings) {
      const role = b.role!;
      let match = matches.get(role.key);
      if (match === undefined) matches.set(role.key, (match = matchRole(role, q) ?? null));
      if (match) for (const s of b.subjects) if (found.only.has(canonicalKey(s))) return true;
    }
    return false;
  }

  /**
   * What whoCanAmong computes from: the canonical keys of the subjects, the bindings that name them
   * (of a role that may match), and whether system:masters or a node identity is among them;
   * undefined when it has no entry to compute.
   */
  private bindingsAmong(
    q: AccessQuestion,
    subjects: readonly SubjectRef[],
  ): { only: Set<string>; bindings: Set<IndexedBinding>; special: boolean } | undefined {
    const only = new Set<string>();
    const bindings = new Set<IndexedBinding>();
    const rbac = this.engine.rbac;
    const indexes: (SubjectIndex | undefined)[] = [];
    const everywhere = q.scope === 'namespaced' && !q.namespaces;
    if (q.scope === 'namespaced' && q.namespaces) for (const ns of q.namespaces) if (ns !== '') indexes.push(rbac.namespaceBindings.get(ns));
    // Only bindings of a role that may match are kept: compute skips the others, and a group bound in
    // thousands of namespaces (asked about for each of its members) adds none of them.
    const candidates = this.rolesThatMayMatch(q);
    const cluster = this.clusterBindingsNaming(candidates);
    let special = false;
    for (const subject of subjects) {
      const id = canonicalSubject(subject);
      const key = refKey(id);
      if (only.has(key)) continue;
      only.add(key);
      if (key === MASTERS_KEY || isNodeKey(key)) special = true;
      const isGroup = id.kind === 'Group';
      const name = isGroup ? id.name : usernameOf(id);
      const named = isGroup ? cluster.byGroup.get(name) : cluster.byUser.get(name);
      if (named) for (const binding of named) bindings.add(binding);
      for (const index of indexes) {
        const entries: SubjectEntry[] | undefined = isGroup ? index?.byGroup.get(name) : index?.byUser.get(name);
        if (entries) for (const { binding } of entries) if (binding.role && candidates.has(binding.role.key)) bindings.add(binding);
      }
      if (everywhere) for (const binding of this.roleBindingsMayMatch(id, key, candidates)) bindings.add(binding);
    }
    // Most identities hold most questions through no binding at all: answered without computing,
    // unless system:masters or a node identity (not found through bindings) is asked about. Tested
    // before the plan is made: a question naming its object (CLAIM003's names: [ns]) has a plan of its own.
    if (!special && bindings.size === 0) return undefined;
    return { only, bindings, special };
  }

  /**
   * entriesFor(rbacWhoCan(q), identity), from the bindings that name the identity or a group it
   * carries (whoCanAmong) rather than from the whole cluster's answer: for checks that ask what each
   * of many identities holds, where that answer would be tens of thousands of entries kept. Node
   * identities are not asked about, as their entries are dropped: a user's group system:nodes made
   * whoCanAmong compute the Node authorizer's whole answer for each question and user (NODE001's
   * fixes ask about hundreds of users: 0.2–0.8 s of CPU on the diverse bench cluster).
   */
  rbacEntriesFor(q: AccessQuestion, identity: SubjectRef): AccessEntry[] {
    const id = canonicalSubject(identity);
    let out: AccessEntry[] | undefined;
    // A subject's entry comes from the bindings that name it alone, so each subject is asked on its
    // own: a group's entry (system:authenticated, system:serviceaccounts[:<ns>]) is then kept per
    // question and shared by every identity that carries it, where each identity's whoCanAmong read
    // and merged every binding naming its groups again (~4,700 holdings read on the diverse bench cluster).
    for (const s of subjectsApplyingTo(id)) {
      if (isNodeIdentity(s)) continue;
      const e = s.kind === 'Group' ? this.groupEntry(q, s) : this.whoCanAmong(q, [s])[0];
      if (e && isOrdinaryRbac(e) && subjectAppliesTo(e.subject, id)) (out ??= []).push(e);
    }
    if (!out) return [];
    // In entriesFor's order (compute sorts by subject); the subjects are distinct.
    return out.length > 1 ? out.sort((a, b) => compareSubjects(a.subject, b.subject)) : out;
  }

  /** whoCanAmong(q, [group])'s entry of the group (undefined when none), kept per question object. */
  private groupEntry(q: AccessQuestion, group: SubjectRef): AccessEntry | undefined {
    let byName = this.groupEntries.get(q);
    if (!byName) this.groupEntries.set(q, (byName = new Map()));
    let entry = byName.get(group.name);
    if (entry === undefined) byName.set(group.name, (entry = this.whoCanAmong(q, [group])[0] ?? null));
    return entry ?? undefined;
  }

  /**
   * The entries of rbacWhoCan(q) allowed in every namespace. Only subjects of ClusterRoleBindings can
   * be, so their entries are read from the bindings that name them (whoCanAmong) rather than from
   * everyone allowed in some namespace: NODE002's impersonation of service accounts, which the stock
   * edit and admin roles grant in their namespace, had an entry per such identity (~0.15 s of CPU on
   * the diverse bench cluster for a handful kept).
   */
  rbacEverywhere(q: AccessQuestion): AccessEntry[] {
    const subjects: SubjectRef[] = [];
    for (const b of this.candidateClusterBindings(this.rolesThatMayMatch(q))) for (const s of b.subjects) subjects.push(s);
    if (subjects.length === 0) return [];
    return this.whoCanAmong(q, subjects).filter((e) => e.everyNamespace && isOrdinaryRbac(e));
  }

  /**
   * The ClusterRoleBindings whose role is among `candidates` (rolesThatMayMatch of a question), by the
   * username or group name of each subject, as the engine's cluster subject index keys them: what
   * bindingsAmong reads of that index. Kept per candidate set: the names asked about most (system:
   * authenticated, system:serviceaccounts, a team's group) are those the most ClusterRoleBindings
   * name, and their index lists were filtered again for every identity and question.
   */
  private clusterBindingsNaming(candidates: Set<string>): SubjectBindings {
    let found = this.clusterNamingCache.get(candidates);
    if (found) return found;
    found = { byUser: new Map(), byGroup: new Map() };
    for (const b of this.candidateClusterBindings(candidates)) {
      for (const s of b.subjects) {
        const map = s.kind === 'Group' ? found.byGroup : found.byUser;
        const name = s.kind === 'Group' ? s.name : subjectUsername(s);
        const list = map.get(name);
        // A binding naming a subject twice is listed once (its pushes come one after another).
        if (!list) map.set(name, [b]);
        else if (list[list.length - 1] !== b) list.push(b);
      }
    }
    this.clusterNamingCache.set(candidates, found);
    return found;
  }

  /**
   * roleBindingsOf(id) whose role is among `candidates` (rolesThatMayMatch of a question). A group's
   * list is kept per candidate set: every member of a group (system:serviceaccounts:<ns>, a team) is
   * asked about with it, and a group bound in thousands of namespaces was read whole for each member.
   */
  private roleBindingsMayMatch(id: SubjectRef, key: string, candidates: Set<string>): readonly IndexedBinding[] {
    const isGroup = id.kind === 'Group';
    let byKey: Map<string, readonly IndexedBinding[]> | undefined;
    if (isGroup) {
      byKey = this.groupRoleBindings.get(candidates);
      const known = byKey?.get(key);
      if (known) return known;
    }
    const all = this.roleBindingsOf(id);
    const list = all.length === 0 ? NO_BINDINGS : all.filter((b) => b.role !== undefined && candidates.has(b.role.key));
    if (isGroup) {
      if (!byKey) this.groupRoleBindings.set(candidates, (byKey = new Map()));
      byKey.set(key, list.length === 0 ? NO_BINDINGS : list);
    }
    return list;
  }

  /**
   * RoleBindings (any namespace) that name a subject given in its canonical form (canonicalSubject),
   * in the index's order, from the engine's per-namespace subject indexes (roleBindingSubjects). A username gathers the subjects
   * whose canonical form is `id` and, for malformed names only (a ':' in a service account's name),
   * others: sameCanonicalSubject keeps the former.
   */
  private roleBindingsOf(id: SubjectRef): readonly IndexedBinding[] {
    const subjects = roleBindingSubjects(this.engine.rbac);
    const lists = id.kind === 'Group' ? subjects.byGroup.get(id.name) : subjects.byUser.get(usernameOf(id));
    if (!lists) return NO_BINDINGS;
    const out: IndexedBinding[] = [];
    for (const entries of lists) for (const e of entries) if (sameCanonicalSubject(e.subject, id)) out.push(e.binding);
    return out;
  }

  /** Keys of the subjects a namespaced question allows in every namespace through RBAC: ClusterRoleBinding subjects, and system:masters. */
  private everywhereSubjects(q: AccessQuestion): Set<string> {
    const known = this.everywhereByQuestion.get(q);
    if (known) return known;
    const key = JSON.stringify([q.verbs, q.group, q.resource, q.subresource ?? '', q.names]);
    let set = this.everywhereCache.get(key);
    if (!set) {
      set = new Set([refKey(MASTERS)]);
      const matches = this.roleMatches(q);
      for (const b of this.candidateClusterBindings(this.rolesThatMayMatch(q))) {
        const role = b.role!;
        let match = matches.get(role.key);
        if (match === undefined) matches.set(role.key, (match = matchRole(role, q) ?? null));
        if (match) for (const s of b.subjects) set.add(refKey(canonicalSubject(s)));
      }
      this.everywhereCache.set(key, set);
    }
    this.everywhereByQuestion.set(q, set);
    return set;
  }

  /** The engine's bindings by namespace ('' = ClusterRoleBindings), in the index's order. */
  bindingsByNamespace(): Map<string, IndexedBinding[]> {
    if (!this.byNamespace) {
      const index = new Map<string, IndexedBinding[]>();
      // The index sorts its bindings by namespace: each namespace's run is sliced out at its size, not
      // pushed binding by binding (~36,000 on the diverse bench cluster). A namespace met again after
      // its run (an index not so sorted) has the bindings appended.
      const all = this.engine.rbac.bindings;
      let start = 0;
      let ns = '';
      for (let i = 0; i <= all.length; i++) {
        const next = i === all.length ? undefined : bindingNamespace(all[i]);
        if (i > start && next !== ns) {
          const list = index.get(ns);
          if (list) for (let j = start; j < i; j++) list.push(all[j]);
          else index.set(ns, all.slice(start, i));
          start = i;
        }
        if (next !== undefined) ns = next;
      }
      this.byNamespace = index;
    }
    return this.byNamespace;
  }

  /**
   * What compute needs of a question apart from its namespaces, kept per question object as well as
   * per key (the keys are JSON): checks ask one question object for thousands of namespaces or identities
   * (a question object is not changed once asked).
   */
  planOf(q: AccessQuestion): QuestionPlan {
    let plan = this.plans.get(q);
    if (plan) return plan;
    // A copy of a question ({ ...q, namespaces }) shares its verbs array: found by it without a JSON key.
    let byShape = this.plansByVerbs.get(q.verbs);
    if (!byShape) this.plansByVerbs.set(q.verbs, (byShape = new Map()));
    const shape = `${q.group}\u0000${q.resource}\u0000${q.subresource ?? ''}\u0000${typeof q.names === 'string' ? q.names : `[${q.names.join('\u0001')}]`}`;
    plan = byShape.get(shape);
    if (!plan) {
      const candidates = this.rolesThatMayMatch(q);
      plan = { matches: this.roleMatches(q), candidates, clusterBindings: this.candidateClusterBindings(candidates) };
      byShape.set(shape, plan);
    }
    this.plans.set(q, plan);
    return plan;
  }

  /**
   * How each role matches a question does not depend on the namespaces asked about: shared by the
   * per-namespace questions of the checks (null = no match).
   */
  roleMatches(q: AccessQuestion): Map<string, RoleMatch | null> {
    const key = JSON.stringify([q.verbs, q.group, q.resource, q.subresource ?? '', q.names]);
    let matches = this.roleMatchCache.get(key);
    if (!matches) this.roleMatchCache.set(key, (matches = new Map()));
    return matches;
  }

  /** Keys of the roles with a rule that matches the question's verbs and resource for some name. */
  rolesThatMayMatch(q: AccessQuestion): Set<string> {
    const plan = this.plans.get(q);
    if (plan) return plan.candidates;
    // By the verbs array first (copies of a question share it), without a JSON key: asked for every
    // namespace or identity some checks ask about. Names do not change the answer.
    let byResource = this.mayMatchByVerbs.get(q.verbs);
    if (!byResource) this.mayMatchByVerbs.set(q.verbs, (byResource = new Map()));
    const resourceKey = `${q.group}\u0000${q.resource}\u0000${q.subresource ?? ''}`;
    let set = byResource.get(resourceKey);
    if (set) return set;
    const key = JSON.stringify([q.verbs, q.group, q.resource, q.subresource ?? '']);
    set = this.mayMatchCache.get(key);
    if (!set) this.mayMatchCache.set(key, (set = this.findRolesThatMayMatch(q)));
    byResource.set(resourceKey, set);
    return set;
  }

  /**
   * The ClusterRoleBindings (with subjects) whose role may match: the same for every namespace a check
   * asks about, so found once per candidate set rather than by walking every ClusterRoleBinding each time.
   */
  candidateClusterBindings(candidates: Set<string>): IndexedBinding[] {
    let list = this.clusterBindingCache.get(candidates);
    if (!list) {
      list = (this.bindingsByNamespace().get('') ?? []).filter((b) => b.role && b.subjects.length > 0 && candidates.has(b.role.key));
      this.clusterBindingCache.set(candidates, list);
    }
    return list;
  }

  /** Namespaces of RoleBindings (with subjects) whose role may match the question. */
  roleBindingNamespaces(q: AccessQuestion): string[] {
    const candidates = this.rolesThatMayMatch(q);
    const out = new Set<string>();
    for (const b of this.engine.rbac.bindings) {
      if (b.ref.kind === 'RoleBinding' && b.role && b.subjects.length > 0 && candidates.has(b.role.key)) out.add(b.ref.namespace ?? '');
    }
    return [...out].sort();
  }

  /** Entries whose subject applies to `identity` (itself, or a group it carries); see subjectAppliesTo. */
  entriesFor(entries: readonly AccessEntry[], identity: SubjectRef): AccessEntry[] {
    let index = this.entryIndexes.get(entries);
    if (!index) {
      index = new Map();
      for (const e of entries) pushTo(index, canonicalKey(e.subject), e);
      this.entryIndexes.set(entries, index);
    }
    const id = canonicalSubject(identity);
    const out: AccessEntry[] = [];
    // By key, without making the subjects: asked for every subject of many findings, and most miss.
    for (const key of applyingKeys(id)) {
      const list = index.get(key);
      if (list) for (const e of list) if (subjectAppliesTo(e.subject, id)) out.push(e);
    }
    return out.length > 1 ? out.sort((a, b) => compareSubjects(a.subject, b.subject)) : out;
  }

  private findRolesThatMayMatch(q: AccessQuestion): Set<string> {
    const set = new Set<string>();
    // Only roles with a rule in the question's bucket of the RBAC index, or a wildcard rule, can match.
    const subresource = q.subresource ?? '';
    const combined = subresource ? `${q.resource}/${subresource}` : q.resource;
    // The buckets one after another rather than candidateRules' set of them: a rule met twice is tested
    // twice, and adds its role where it first passes, as in the set's order.
    for (const list of candidateRuleLists(this.engine.rbac, q.group, q.resource, subresource)) {
      for (const { role, ruleIndex } of list) {
        if (set.has(role.key)) continue;
        // What the rule allows for some name: the rule test without its resourceNames.
        if (ruleAllowsSomeName(role.rules[ruleIndex].rule, q.verbs, q.group, combined, subresource)) set.add(role.key);
      }
    }
    return set;
  }
}

/** Whether the rule allows one of the verbs on the resource for some name (ruleAllowsResource without the resourceNames test). */
function ruleAllowsSomeName(rule: PolicyRule, verbs: readonly string[], group: string, combined: string, subresource: string): boolean {
  if (!apiGroupMatches(rule, group) || !resourceMatches(rule, combined, subresource)) return false;
  for (const verb of verbs) if (verbMatches(rule, verb)) return true;
  return false;
}

const NO_BINDINGS: readonly IndexedBinding[] = Object.freeze([]);

/** A binding's key in bindingsByNamespace: '' for a ClusterRoleBinding. */
const bindingNamespace = (b: IndexedBinding): string => (b.ref.kind === 'ClusterRoleBinding' ? '' : (b.ref.namespace ?? ''));

/**
 * The bindings of the candidate roles, each role's in the index's order: all a question without
 * namespaces reads (the answer does not depend on the order: compute sorts what it gathers), rather
 * than every binding of the cluster tested against the candidates (~36,000 on the diverse bench cluster).
 */
function candidateBindings(rbac: AuthzEngine['rbac'], candidates: ReadonlySet<string>): IndexedBinding[] {
  const out: IndexedBinding[] = [];
  for (const key of candidates) {
    const list = rbac.bindingsByRole.get(key);
    if (list) for (const b of list) out.push(b);
  }
  return out;
}

/** Whether some binding's role may match (is among the candidates). */
function someCandidate(bindings: Iterable<IndexedBinding>, candidates: Set<string>): boolean {
  for (const b of bindings) if (b.role && candidates.has(b.role.key)) return true;
  return false;
}

/** An entry granted through RBAC to an ordinary identity (not system:masters, not a node identity). */
const isOrdinaryRbac = (e: AccessEntry) => e.via === 'rbac' && !isMastersGroup(e.subject) && !isNodeIdentity(e.subject);

const group = (name: string): SubjectRef => ({ kind: 'Group', name });

/**
 * The binding subjects that can apply to an identity (canonical): itself, and the groups it is known
 * to carry (see subjectAppliesTo): system:authenticated, and system:serviceaccounts[:<ns>] for a
 * service account or system:nodes for a user. A group applies only to itself.
 */
export function subjectsApplyingTo(id: SubjectRef): SubjectRef[] {
  if (id.kind === 'Group') return [id];
  if (id.kind === 'ServiceAccount')
    return [id, group('system:authenticated'), group('system:serviceaccounts'), group(`system:serviceaccounts:${id.namespace ?? ''}`)];
  return [id, group('system:authenticated'), group('system:nodes')];
}

const AUTHENTICATED_KEY = refKey(group('system:authenticated'));
const SERVICE_ACCOUNTS_KEY = refKey(group('system:serviceaccounts'));
const NODES_KEY = refKey(group('system:nodes'));

/** The index keys (refKey of the canonical form) of subjectsApplyingTo(id), for a canonical id. */
export function applyingKeys(id: SubjectRef): string[] {
  const own = refKey(id);
  if (id.kind === 'Group') return [own];
  if (id.kind === 'ServiceAccount') return [own, AUTHENTICATED_KEY, SERVICE_ACCOUNTS_KEY, refKey(group(`system:serviceaccounts:${id.namespace ?? ''}`))];
  return [own, AUTHENTICATED_KEY, NODES_KEY];
}

const NAMELESS_VERBS = new Set(['create', 'deletecollection']);

/** Bindings by the username (User and ServiceAccount subjects) or group name they name, as a SubjectIndex keys its entries. */
interface SubjectBindings {
  byUser: Map<string, IndexedBinding[]>;
  byGroup: Map<string, IndexedBinding[]>;
}

/** See AccessIndex.planOf. */
export interface QuestionPlan {
  matches: Map<string, RoleMatch | null>;
  candidates: Set<string>;
  clusterBindings: IndexedBinding[];
}

/**
 * How a role matches a question: each rule that is the lowest matching one for some verb, in the
 * order found, with those verbs and the names it allows ('*' = every name). A list of exactly sized
 * arrays, not a Map of grown ones: plans keep one per role and question shape for the whole
 * analysis (CLAIM003's question names its namespace: one plan per namespace). On the diverse bench
 * cluster matchRole's promoted bytes went from ~4.4 to ~3.4 MiB.
 */
type RoleMatch = readonly RuleMatch[];

interface RuleMatch {
  ruleIndex: number;
  verbs: string[];
  names: string[];
}

function matchRole(role: CompiledRole, q: AccessQuestion): RoleMatch | undefined {
  const subresource = q.subresource ?? '';
  const combined = combinedResource({ resource: q.resource, subresource });
  const rules: RuleMatch[] = [];
  // One attributes object per role, its verb and name set as the loops go (no closure per rule:
  // this runs for every role of every question).
  const attrs: ResourceAttributes = { verb: '', group: q.group, resource: q.resource, subresource, namespace: '', name: PROBE_NAME };
  for (const verb of q.verbs) {
    attrs.verb = verb;
    for (let i = 0; i < role.rules.length; i++) {
      const rule = role.rules[i].rule;
      let names: string[] | undefined;
      if (q.names === 'any' || q.names === 'unscoped') {
        attrs.name = PROBE_NAME;
        const unscoped = !rule.resourceNames || rule.resourceNames.length === 0;
        if (unscoped) names = ruleAllowsResource(rule, attrs) ? ['*'] : undefined;
        // Requests without a name (create, deletecollection) never match resourceNames.
        else if (
          q.names === 'any' &&
          !NAMELESS_VERBS.has(verb) &&
          verbMatches(rule, verb) &&
          apiGroupMatches(rule, q.group) &&
          resourceMatches(rule, combined, subresource)
        )
          names = [...rule.resourceNames!];
      } else {
        let hit: string[] | undefined;
        for (const n of q.names) {
          attrs.name = n;
          if (!ruleAllowsResource(rule, attrs)) continue;
          if (hit) hit.push(n);
          else hit = [n];
        }
        names = hit;
      }
      if (!names) continue;
      const r = ruleMatchOf(rules, i);
      // The first verb's names are the rule's own array (made for this verb); a later verb adds what it lacks.
      if (!r) rules.push({ ruleIndex: i, verbs: [verb], names });
      else {
        r.verbs = [...r.verbs, verb];
        for (const n of names) if (!r.names.includes(n)) r.names = [...r.names, n];
      }
      break;
    }
  }
  return rules.length > 0 ? rules : undefined;
}

function ruleMatchOf(rules: readonly RuleMatch[], ruleIndex: number): RuleMatch | undefined {
  for (const r of rules) if (r.ruleIndex === ruleIndex) return r;
  return undefined;
}

/**
 * Every subject of a binding whose role has a rule matching the question (rule matching exactly as
 * the RBAC authorizer: lib/authz/rule-matches), with system:masters and the Node authorizer's
 * identities added through whoCan. ClusterRoleBindings apply everywhere; a RoleBinding applies only
 * to namespaced questions, in its namespace.
 */
const MASTERS: SubjectRef = { kind: 'Group', name: 'system:masters' };
const MASTERS_KEY = refKey(MASTERS);

/** The canonical key of a node identity (whom the Node authorizer's answers name). */
const isNodeKey = (key: string) => key === 'Group//system:nodes' || key.startsWith('User//system:node:');

interface ComputeOptions {
  /** A question limited to namespaces: only those namespaces' RoleBindings, no system:masters. */
  roleBindingsOnly?: boolean;
  /** Only these subjects (canonical keys), from these bindings (every one that names them). */
  only?: ReadonlySet<string>;
  bindings?: readonly IndexedBinding[];
  /** The question's plan when `q` is a copy of a question that has one (namespaces do not change it). */
  plan?: QuestionPlan;
}

// Module functions rather than closures made on each call: compute runs for every namespace or
// identity some checks ask about.
function addAll<T>(list: T[], items: readonly T[]): void {
  for (const x of items) if (!list.includes(x)) list.push(x);
}

/** Whether the grants hold this binding's grant of this rule (bindings and roles compared as grants are deduplicated: by kind, namespace and name). */
/** A matching binding's rules into a subject's entry: verbs, names and one grant per rule (none twice unless `fresh`). */
function addMatchedRules(entry: AccessEntry, b: IndexedBinding, match: RoleMatch, fresh: boolean): void {
  const role = b.role!;
  for (const r of match) {
    const ruleIndex = r.ruleIndex;
    addAll(entry.verbs, r.verbs);
    addAll(entry.names, r.names);
    if (!fresh && hasGrant(entry.grants, b, ruleIndex)) continue;
    const grant: WhoCanGrant = { binding: b.ref, role: role.ref, ruleIndex };
    const from = role.rules[ruleIndex].from;
    if (from) grant.aggregatedFrom = from;
    entry.grants.push(grant);
  }
}

function hasGrant(grants: readonly WhoCanGrant[], b: IndexedBinding, ruleIndex: number): boolean {
  for (const g of grants) if (g.ruleIndex === ruleIndex && sameRef(g.binding, b.ref) && sameRef(g.role, b.role!.ref)) return true;
  return false;
}

const sameRef = (a: { kind: string; namespace?: string; name: string }, b: { kind: string; namespace?: string; name: string }) =>
  a.kind === b.kind && (a.namespace ?? '') === (b.namespace ?? '') && a.name === b.name;

/** The strings sorted (default order) without repeats, in place. */
function sortedUnique(list: string[]): string[] {
  list.sort();
  let n = 0;
  for (let i = 0; i < list.length; i++) if (i === 0 || list[i] !== list[n - 1]) list[n++] = list[i];
  list.length = n;
  return list;
}

/** The entry of a subject in `out` (made on first use), or undefined when `only` leaves it out. */
function entryIn(out: Map<string, AccessEntry>, only: ReadonlySet<string> | undefined, subject: SubjectRef, via: AccessEntry['via']): AccessEntry | undefined {
  const key = refKey(subject);
  if (only && !only.has(key)) return undefined;
  let entry = out.get(key);
  if (!entry) out.set(key, (entry = { subject, via, grants: [], verbs: [], everyNamespace: false, namespaces: [], names: [] }));
  return entry;
}

function compute(index: AccessIndex, q: AccessQuestion, { roleBindingsOnly = false, only, bindings: named, plan }: ComputeOptions = {}): AccessEntry[] {
  const engine = index.engine;
  const out = new Map<string, AccessEntry>();
  // Beside the entries rather than in them: the entries are returned as they are, not copied without it.
  const lastBinding = new Map<AccessEntry, IndexedBinding>();
  const visited = new Set<IndexedBinding>();

  // system:masters may do everything.
  const masters = roleBindingsOnly ? undefined : entryIn(out, only, MASTERS, 'privileged-group');
  if (masters) {
    addAll(masters.verbs, q.verbs);
    masters.names.push('*');
    masters.everyNamespace = true;
  }

  // Node-authorizer identities, from whoCan with a representative request per verb (skipped for
  // questions limited to given namespaces: the per-namespace loops of the checks only need RBAC).
  const probeNames = q.names === 'any' || q.names === 'unscoped' ? [PROBE_NAME] : q.names;
  // Only node identities come from these probes: none are asked when `only` names none.
  const nodes = !only || [...only].some(isNodeKey);
  const probeNamespaces = !nodes ? [] : q.scope === 'cluster' ? [''] : q.namespaces ? [] : [PROBE_NAMESPACE];
  for (const verb of q.verbs) {
    for (const namespace of probeNamespaces) {
      for (const name of probeNames) {
        const attrs: ResourceAttributes = { verb, group: q.group, resource: q.resource, subresource: q.subresource ?? '', namespace, name };
        // Only the Node authorizer's entries: whoCan's RBAC part is what the bindings below give.
        for (const e of engine.whoCanNodes({ resource: attrs })) {
          const entry = entryIn(out, only, canonicalSubject(e.subject), 'node');
          if (!entry) continue;
          addAll(entry.verbs, [verb]);
          addAll(entry.names, [name === PROBE_NAME ? '*' : name]);
          entry.everyNamespace = true;
        }
      }
    }
  }

  const { matches, candidates, clusterBindings } = plan ?? index.planOf(q);
  const byNs = index.bindingsByNamespace();
  const bindings = named
    ? named
    : q.scope === 'cluster'
      ? clusterBindings
      : q.namespaces
        ? [...(roleBindingsOnly ? [] : clusterBindings), ...q.namespaces.flatMap((ns) => (ns === '' ? [] : (byNs.get(ns) ?? [])))]
        : candidateBindings(engine.rbac, candidates);
  for (const b of bindings) {
    if (!b.role || b.subjects.length === 0 || !candidates.has(b.role.key)) continue;
    const ns = b.ref.namespace ?? '';
    let match = matches.get(b.role.key);
    if (match === undefined) matches.set(b.role.key, (match = matchRole(b.role, q) ?? null));
    if (!match) continue;
    const again = visited.has(b);
    if (!again) visited.add(b);
    for (const s of b.subjects) {
      const entry = entryIn(out, only, canonicalSubject(s), 'rbac');
      if (!entry) continue;
      // The entry may hold this binding's grants already only when the binding came before (listed
      // twice) or names the subject twice; otherwise its grants are new (the state keeps one binding
      // per kind, namespace and name), and no key is made for each.
      const fresh = !again && lastBinding.get(entry) !== b;
      lastBinding.set(entry, b);
      addMatchedRules(entry, b, match, fresh);
      if (b.ref.kind === 'ClusterRoleBinding') entry.everyNamespace = true;
      // Deduplicated once sorted, below: a group bound in thousands of namespaces made includes() quadratic.
      else if (entry.namespaces[entry.namespaces.length - 1] !== ns) entry.namespaces.push(ns);
    }
  }

  return [...out.values()]
    .map((entry) => {
      entry.grants.sort(compareGrants);
      entry.verbs.sort((a, b) => q.verbs.indexOf(a) - q.verbs.indexOf(b));
      entry.namespaces = entry.everyNamespace ? [] : sortedUnique(entry.namespaces);
      entry.names = entry.names.includes('*') ? ['*'] : entry.names.sort();
      return entry;
    })
    .sort((a, b) => compareSubjects(a.subject, b.subject));
}

/**
 * compute(index, { ...q, namespaces: [ns] }, { roleBindingsOnly: true, plan }) without the entries
 * of the `everywhere` subjects, from the namespace's bindings: no system:masters, no node identities,
 * no ClusterRoleBindings, and a subject allowed everywhere skipped before its entry is made.
 * Its own entry literals, not compute's: V8 pretenures an allocation site whose objects
 * survive (compute's, through the answers whoCan keeps), and QUOTA001's 40,000 per-namespace answers,
 * dropped at once, went straight to the old generation (~13 MiB of the peak on the diverse bench cluster).
 */
function grantedBy(q: AccessQuestion, ns: string, bindings: readonly IndexedBinding[], plan: QuestionPlan, everywhere: ReadonlySet<string>): AccessEntry[] {
  const { matches, candidates } = plan;
  const out = new Map<string, AccessEntry>();
  const lastBinding = new Map<AccessEntry, IndexedBinding>();
  for (const b of bindings) {
    if (!b.role || b.subjects.length === 0 || !candidates.has(b.role.key)) continue;
    let match = matches.get(b.role.key);
    if (match === undefined) matches.set(b.role.key, (match = matchRole(b.role, q) ?? null));
    if (!match) continue;
    for (const s of b.subjects) {
      const subject = canonicalSubject(s);
      const key = refKey(subject);
      if (everywhere.has(key)) continue;
      let entry = out.get(key);
      if (!entry) out.set(key, (entry = { subject, via: 'rbac', grants: [], verbs: [], everyNamespace: false, namespaces: [ns], names: [] }));
      // A namespace's list holds each binding once: only a binding naming the subject twice repeats its grants.
      const fresh = lastBinding.get(entry) !== b;
      lastBinding.set(entry, b);
      addMatchedRules(entry, b, match, fresh);
    }
  }
  const entries = [...out.values()];
  for (const entry of entries) {
    entry.grants.sort(compareGrants);
    entry.verbs.sort((a, b) => q.verbs.indexOf(a) - q.verbs.indexOf(b));
    entry.names = entry.names.includes('*') ? ['*'] : entry.names.sort();
  }
  return entries.sort((a, b) => compareSubjects(a.subject, b.subject));
}

export function compareGrants(a: WhoCanGrant, b: WhoCanGrant): number {
  return (
    compareStrings(a.binding.kind, b.binding.kind) ||
    compareStrings(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
    compareStrings(a.binding.name, b.binding.name) ||
    compareStrings(a.role.kind, b.role.kind) ||
    compareStrings(a.role.namespace ?? '', b.role.namespace ?? '') ||
    compareStrings(a.role.name, b.role.name) ||
    a.ruleIndex - b.ruleIndex
  );
}

/** Grants of several entries, deduplicated and sorted. */
export function mergeGrants(entries: readonly AccessEntry[]): WhoCanGrant[] {
  const seen = new Map<string, WhoCanGrant>();
  for (const e of entries) {
    for (const g of e.grants) {
      seen.set(`${g.binding.kind}/${g.binding.namespace ?? ''}/${g.binding.name}/${g.role.kind}/${g.role.namespace ?? ''}/${g.role.name}/${g.ruleIndex}`, g);
    }
  }
  return [...seen.values()].sort(compareGrants);
}
