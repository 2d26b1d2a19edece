import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import type { ResourceAttributes } from '@/lib/authz/types';
import { bucketKey, type CompiledRole, type IndexedBinding } from '@/lib/authz/rbac-index';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { Evidence } from '@/lib/report/types';
import { canonicalSubject, cmp, compareSubjects, subjectAppliesTo } from './identities';

// "Who can do X somewhere?": every binding whose role has a rule that matches the question (the
// engine's exact rule matching, lib/authz/rule-matches) for some namespace and some name, merged
// per subject, plus system:masters and Node-authorizer identities from the engine's whoCan. Walking
// the RBAC index once per question avoids asking whoCan for every namespace × name. Answers are
// cached per engine.

/** A name and a namespace no real object has: only grants without resourceNames / ClusterRoleBindings match them. */
export const PROBE_NAME = 'dra-posture.probe\u0000name';
export const PROBE_NAMESPACE = 'dra-posture-probe\u0000ns';

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

const cache = new WeakMap<AuthzEngine, Map<string, AccessEntry[]>>();

export function whoCanAnywhere(engine: AuthzEngine, _knownNamespaces: readonly string[], q: AccessQuestion): AccessEntry[] {
  let perEngine = cache.get(engine);
  if (!perEngine) cache.set(engine, (perEngine = new Map()));
  const key = JSON.stringify(q);
  const hit = perEngine.get(key);
  if (hit) return hit;
  const result = compute(engine, q);
  perEngine.set(key, result);
  return result;
}

const bindingIndexes = new WeakMap<AuthzEngine, Map<string, IndexedBinding[]>>();

/** The engine's bindings by namespace ('' = ClusterRoleBindings), in the index's order. */
function bindingsByNamespace(engine: AuthzEngine): Map<string, IndexedBinding[]> {
  let index = bindingIndexes.get(engine);
  if (!index) {
    index = new Map();
    for (const b of engine.rbac.bindings) {
      const ns = b.ref.kind === 'ClusterRoleBinding' ? '' : (b.ref.namespace ?? '');
      const list = index.get(ns);
      if (list) list.push(b);
      else index.set(ns, [b]);
    }
    bindingIndexes.set(engine, index);
  }
  return index;
}

const NAMELESS_VERBS = new Set(['create', 'deletecollection']);

const roleMatchCache = new WeakMap<AuthzEngine, Map<string, Map<string, RoleMatch | null>>>();

/**
 * How each role matches a question does not depend on the namespaces asked about: shared by the
 * per-namespace questions of the checks (null = no match).
 */
function roleMatches(engine: AuthzEngine, q: AccessQuestion): Map<string, RoleMatch | null> {
  let perEngine = roleMatchCache.get(engine);
  if (!perEngine) roleMatchCache.set(engine, (perEngine = new Map()));
  const key = JSON.stringify([q.verbs, q.group, q.resource, q.subresource ?? '', q.names]);
  let matches = perEngine.get(key);
  if (!matches) perEngine.set(key, (matches = new Map()));
  return matches;
}

/** How a role matches a question: per verb, the lowest matching rule index and the names it allows. */
interface RoleMatch {
  /** rule index → verbs it is the first match for, and the names it allows ('*' = every name). */
  rules: Map<number, { verbs: string[]; names: string[] }>;
}

function matchRole(role: CompiledRole, q: AccessQuestion): RoleMatch | undefined {
  const subresource = q.subresource ?? '';
  const rules = new Map<number, { verbs: string[]; names: string[] }>();
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
        else if (q.names === 'any' && !NAMELESS_VERBS.has(verb) && ruleAllowsResource({ ...rule, resourceNames: undefined }, attrs))
          names = [...rule.resourceNames!];
      } else {
        let hit: string[] | undefined;
        for (const n of q.names) {
          attrs.name = n;
          if (ruleAllowsResource(rule, attrs)) (hit ??= []).push(n);
        }
        names = hit;
      }
      if (!names) continue;
      let r = rules.get(i);
      if (!r) rules.set(i, (r = { verbs: [], names: [] }));
      r.verbs.push(verb);
      for (const n of names) if (!r.names.includes(n)) r.names.push(n);
      break;
    }
  }
  return rules.size > 0 ? { rules } : undefined;
}

/**
 * Every subject of a binding whose role has a rule matching the question (rule matching exactly as
 * the RBAC authorizer: lib/authz/rule-matches), with system:masters and the Node authorizer's
 * identities added through whoCan. ClusterRoleBindings apply everywhere; a RoleBinding applies only
 * to namespaced questions, in its namespace.
 */
function compute(engine: AuthzEngine, q: AccessQuestion): AccessEntry[] {
  const out = new Map<string, AccessEntry & { grantKeys: Set<string> }>();
  const entryFor = (subject: SubjectRef, via: AccessEntry['via']) => {
    const key = `${subject.kind}/${subject.namespace ?? ''}/${subject.name}`;
    let entry = out.get(key);
    if (!entry) out.set(key, (entry = { subject, via, grants: [], verbs: [], everyNamespace: false, namespaces: [], names: [], grantKeys: new Set() }));
    return entry;
  };
  const addAll = <T>(list: T[], items: readonly T[]) => {
    for (const x of items) if (!list.includes(x)) list.push(x);
  };

  // system:masters may do everything.
  const masters = entryFor({ kind: 'Group', name: 'system:masters' }, 'privileged-group');
  addAll(masters.verbs, q.verbs);
  masters.names.push('*');
  masters.everyNamespace = true;

  // Node-authorizer identities, from whoCan with a representative request per verb (skipped for
  // questions limited to given namespaces: the per-namespace loops of the checks only need RBAC).
  const probeNames = q.names === 'any' || q.names === 'unscoped' ? [PROBE_NAME] : q.names;
  const probeNamespaces = q.scope === 'cluster' ? [''] : q.namespaces ? [] : [PROBE_NAMESPACE];
  for (const verb of q.verbs) {
    for (const namespace of probeNamespaces) {
      for (const name of probeNames) {
        const attrs: ResourceAttributes = { verb, group: q.group, resource: q.resource, subresource: q.subresource ?? '', namespace, name };
        for (const e of engine.whoCan({ resource: attrs })) {
          if (e.via !== 'node') continue;
          const entry = entryFor(canonicalSubject(e.subject), e.via);
          addAll(entry.verbs, [verb]);
          addAll(entry.names, [name === PROBE_NAME ? '*' : name]);
          entry.everyNamespace = true;
        }
      }
    }
  }

  const matches = roleMatches(engine, q);
  const byNs = bindingsByNamespace(engine);
  const candidates = rolesThatMayMatch(engine, q);
  const clusterBindings = candidateClusterBindings(engine, candidates);
  const bindings =
    q.scope === 'cluster'
      ? clusterBindings
      : q.namespaces
        ? [...clusterBindings, ...q.namespaces.flatMap((ns) => (ns === '' ? [] : (byNs.get(ns) ?? [])))]
        : engine.rbac.bindings;
  for (const b of bindings) {
    if (!b.role || b.subjects.length === 0 || !candidates.has(b.role.key)) continue;
    const ns = b.ref.namespace ?? '';
    let match = matches.get(b.role.key);
    if (match === undefined) matches.set(b.role.key, (match = matchRole(b.role, q) ?? null));
    if (!match) continue;
    for (const s of b.subjects) {
      const entry = entryFor(canonicalSubject(s), 'rbac');
      for (const [ruleIndex, r] of match.rules) {
        addAll(entry.verbs, r.verbs);
        addAll(entry.names, r.names);
        const gk = `${b.ref.kind}/${ns}/${b.ref.name}/${b.role.key}/${ruleIndex}`;
        if (entry.grantKeys.has(gk)) continue;
        entry.grantKeys.add(gk);
        const grant: WhoCanGrant = { binding: b.ref, role: b.role.ref, ruleIndex };
        const from = b.role.rules[ruleIndex].from;
        if (from) grant.aggregatedFrom = from;
        entry.grants.push(grant);
      }
      if (b.ref.kind === 'ClusterRoleBinding') entry.everyNamespace = true;
      else addAll(entry.namespaces, [ns]);
    }
  }

  const verbOrder = (v: string) => q.verbs.indexOf(v);
  return [...out.values()]
    .map(({ grantKeys: _unused, ...entry }) => {
      entry.grants.sort(compareGrants);
      entry.verbs.sort((a, b) => verbOrder(a) - verbOrder(b));
      entry.namespaces = entry.everyNamespace ? [] : entry.namespaces.sort();
      entry.names = entry.names.includes('*') ? ['*'] : entry.names.sort();
      return entry;
    })
    .sort((a, b) => compareSubjects(a.subject, b.subject));
}

const openRules = new WeakMap<PolicyRule, PolicyRule>();

/** The rule without its resourceNames (what it allows for some name), made once per rule. */
function openRule(rule: PolicyRule): PolicyRule {
  let open = openRules.get(rule);
  if (!open) openRules.set(rule, (open = { ...rule, resourceNames: undefined }));
  return open;
}

const clusterBindingCache = new WeakMap<Set<string>, IndexedBinding[]>();

/**
 * The ClusterRoleBindings (with subjects) whose role may match: the same for every namespace a check
 * asks about, so found once per candidate set rather than by walking every ClusterRoleBinding each time.
 */
function candidateClusterBindings(engine: AuthzEngine, candidates: Set<string>): IndexedBinding[] {
  let list = clusterBindingCache.get(candidates);
  if (!list) {
    list = (bindingsByNamespace(engine).get('') ?? []).filter((b) => b.role && b.subjects.length > 0 && candidates.has(b.role.key));
    clusterBindingCache.set(candidates, list);
  }
  return list;
}

const mayMatchCache = new WeakMap<AuthzEngine, Map<string, Set<string>>>();

/** Keys of the roles with a rule that matches the question's verbs and resource for some name (cached per engine). */
function rolesThatMayMatch(engine: AuthzEngine, q: AccessQuestion): Set<string> {
  let perEngine = mayMatchCache.get(engine);
  if (!perEngine) mayMatchCache.set(engine, (perEngine = new Map()));
  const key = JSON.stringify([q.verbs, q.group, q.resource, q.subresource ?? '']);
  let set = perEngine.get(key);
  if (!set) {
    set = new Set();
    // Only roles with a rule in the question's bucket of the RBAC index, or a wildcard rule, can match.
    const subresource = q.subresource ?? '';
    const combined = subresource ? `${q.resource}/${subresource}` : q.resource;
    const refs = [...(engine.rbac.ruleBuckets.get(bucketKey(q.group, combined)) ?? []), ...engine.rbac.wildcardRules];
    const attrs = q.verbs.map((verb): ResourceAttributes => ({ verb, group: q.group, resource: q.resource, subresource, namespace: '', name: '' }));
    for (const { role, ruleIndex } of refs) {
      if (set.has(role.key)) continue;
      const rule = openRule(role.rules[ruleIndex].rule);
      for (const a of attrs) {
        if (ruleAllowsResource(rule, a, combined)) {
          set.add(role.key);
          break;
        }
      }
    }
    perEngine.set(key, set);
  }
  return set;
}

/** Namespaces of RoleBindings (with subjects) whose role may match the question. */
export function roleBindingNamespaces(engine: AuthzEngine, q: AccessQuestion): string[] {
  const candidates = rolesThatMayMatch(engine, q);
  const out = new Set<string>();
  for (const b of engine.rbac.bindings) {
    if (b.ref.kind === 'RoleBinding' && b.role && b.subjects.length > 0 && candidates.has(b.role.key)) out.add(b.ref.namespace ?? '');
  }
  return [...out].sort();
}

const entryIndexes = new WeakMap<readonly AccessEntry[], Map<string, AccessEntry[]>>();

function indexOf(entries: readonly AccessEntry[]): Map<string, AccessEntry[]> {
  let index = entryIndexes.get(entries);
  if (!index) {
    index = new Map();
    for (const e of entries) {
      const key = subjectIndexKey(e.subject);
      const list = index.get(key);
      if (list) list.push(e);
      else index.set(key, [e]);
    }
    entryIndexes.set(entries, index);
  }
  return index;
}

const subjectIndexKey = (s: SubjectRef) => {
  const c = canonicalSubject(s);
  return `${c.kind}/${c.namespace ?? ''}/${c.name}`;
};

/** Entries whose subject applies to `identity` (itself, or a group it carries); see subjectAppliesTo. */
export function entriesFor(entries: readonly AccessEntry[], identity: SubjectRef): AccessEntry[] {
  const index = indexOf(entries);
  const id = canonicalSubject(identity);
  const keys = [subjectIndexKey(id)];
  if (id.kind !== 'Group') {
    keys.push('Group//system:authenticated');
    if (id.kind === 'ServiceAccount') keys.push('Group//system:serviceaccounts', `Group//system:serviceaccounts:${id.namespace ?? ''}`);
    else keys.push('Group//system:nodes');
  }
  const out: AccessEntry[] = [];
  for (const k of keys) for (const e of index.get(k) ?? []) if (subjectAppliesTo(e.subject, id)) out.push(e);
  return out.sort((a, b) => compareSubjects(a.subject, b.subject));
}

export function compareGrants(a: WhoCanGrant, b: WhoCanGrant): number {
  return (
    cmp(a.binding.kind, b.binding.kind) ||
    cmp(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
    cmp(a.binding.name, b.binding.name) ||
    cmp(a.role.kind, b.role.kind) ||
    cmp(a.role.namespace ?? '', b.role.namespace ?? '') ||
    cmp(a.role.name, b.role.name) ||
    a.ruleIndex - b.ruleIndex
  );
}

/** The effective rule a grant points at (aggregation already applied). */
export function ruleOf(engine: AuthzEngine, role: { kind: string; name: string; namespace?: string }, ruleIndex: number): PolicyRule | undefined {
  const compiled = role.kind === 'ClusterRole' ? engine.rbac.clusterRoles.get(role.name) : engine.rbac.roles.get(role.namespace ?? '')?.get(role.name);
  return compiled?.rules[ruleIndex]?.rule;
}

/** A copy of a rule with only the fields Evidence carries, absent fields left out. */
export function plainRule(rule: PolicyRule): Extract<Evidence, { type: 'grant' }>['rule'] {
  const out: Extract<Evidence, { type: 'grant' }>['rule'] = { verbs: [...(rule.verbs ?? [])] };
  if (rule.apiGroups) out.apiGroups = [...rule.apiGroups];
  if (rule.resources) out.resources = [...rule.resources];
  if (rule.resourceNames && rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs) out.nonResourceURLs = [...rule.nonResourceURLs];
  return out;
}

export function bindingRef(g: { kind: string; name: string; namespace?: string }): ObjectRef {
  return g.namespace !== undefined && g.namespace !== '' ? { kind: g.kind, namespace: g.namespace, name: g.name } : { kind: g.kind, name: g.name };
}

export function grantEvidence(engine: AuthzEngine, g: WhoCanGrant): Evidence {
  const rule = ruleOf(engine, g.role, g.ruleIndex);
  const ev: Evidence = {
    type: 'grant',
    binding: bindingRef(g.binding),
    role: bindingRef(g.role),
    ruleIndex: g.ruleIndex,
    rule: plainRule(rule ?? { verbs: [] }),
  };
  if (g.aggregatedFrom) ev.aggregatedFrom = g.aggregatedFrom;
  return ev;
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
