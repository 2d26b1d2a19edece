import type { SubjectRef } from '@/lib/k8s/types';
import type { AuthorizerContext } from './authorize';
import { authorizeNode, withoutNodeRestriction } from './node-authorizer';
import type { NodeGraph, VertexType } from './node-graph';
import type { RbacIndex, RuleRef } from './rbac-index';
import { bindingsOfRoleIn, candidateRulesFor } from './rbac-index';
import { apiGroupMatches, combinedResource, resourceMatches, resourceNameMatches, ruleAllowsNonResource, verbMatches } from './rule-matches';
import type { BindingRef, NonResourceAttributes, ResourceAttributes, RoleRefResolved } from './types';
import { nodeUser } from './user-info';
import { compareStrings, refKey } from '@/lib/k8s/refs';

export interface WhoCanGrant {
  binding: BindingRef;
  role: RoleRefResolved;
  ruleIndex: number;
  aggregatedFrom?: string;
}

export interface WhoCanEntry {
  subject: SubjectRef;
  via: 'privileged-group' | 'node' | 'rbac' | 'always-allow';
  grants: WhoCanGrant[];
  note?: string;
}

export interface WhoCanQuery {
  resource?: Omit<ResourceAttributes, 'fieldSelector'> & { fieldSelector?: ResourceAttributes['fieldSelector'] };
  nonResource?: NonResourceAttributes;
}

// A node name no real node can have, to learn whether a Node-authorizer answer depends on the node.
const PROBE_NODE = '\u0000any-node';

/**
 * Every subject that may make the request: system:masters, node identities the Node authorizer
 * allows, and the subjects of every binding whose role has a matching rule (through the rule index,
 * never by scanning every binding).
 */
export function whoCan(ctx: AuthorizerContext, nodeNames: readonly string[], query: WhoCanQuery): WhoCanEntry[] {
  const out = new Map<string, WhoCanEntry>();
  out.set('Group/system:masters', {
    subject: { kind: 'Group', name: 'system:masters' },
    via: 'privileged-group',
    grants: [],
    note: 'members of system:masters bypass authorization',
  });

  const consulted = consultedAuthorizers(ctx.chain);
  if (consulted.includes('Node')) addNodeIdentities(ctx, nodeNames, query, out);
  if (consulted.includes('RBAC')) addRbacSubjects(ctx.rbac, query, out);
  if (ctx.chain[consulted.length] === 'AlwaysAllow') {
    for (const name of ['system:authenticated', 'system:unauthenticated'])
      out.set(`Group/${name}`, {
        subject: { kind: 'Group', name },
        via: 'always-allow',
        grants: [],
        note: 'AlwaysAllow in the authorizer chain allows every request',
      });
  }

  return [...out.values()].sort(compareEntries);
}

/**
 * whoCan's Node-authorizer entries alone (via 'node'), in its order, without the grants whoCan adds
 * to one that RBAC binds too: for callers that read only who (the analysis asks a representative
 * request per verb for every access question), without matching and merging every RBAC binding's
 * subjects only to drop them.
 */
export function whoCanNodes(ctx: AuthorizerContext, nodeNames: readonly string[], query: WhoCanQuery): WhoCanEntry[] {
  if (!consultedAuthorizers(ctx.chain).includes('Node')) return [];
  const out = new Map<string, WhoCanEntry>();
  addNodeIdentities(ctx, nodeNames, query, out);
  return [...out.values()].sort(compareEntries);
}

/** The authorizers a request can reach: AlwaysAllow and AlwaysDeny decide every request that reaches them, so later ones never run. */
export function consultedAuthorizers<T extends string>(chain: readonly T[]): readonly T[] {
  const stop = chain.findIndex((m) => m === 'AlwaysAllow' || m === 'AlwaysDeny');
  return stop < 0 ? chain : chain.slice(0, stop);
}

function addNodeIdentities(ctx: AuthorizerContext, nodeNames: readonly string[], query: WhoCanQuery, out: Map<string, WhoCanEntry>): void {
  const probe = authorizeNode(ctx.nodeGraph, { user: nodeUser(PROBE_NODE), ...query });
  if (probe?.allowed) {
    out.set('Group/system:nodes', {
      subject: { kind: 'Group', name: 'system:nodes' },
      via: 'node',
      grants: [],
      note: `any node identity (system:node:<name> in group system:nodes): ${ctx.nodeRestriction === false ? withoutNodeRestriction(probe.reason) : probe.reason}`,
    });
    return;
  }
  // A node's answer depends on its name only through the graph (objects it reaches), the object's
  // own name and field selectors; every other node answers like the probe, which said no.
  const known = nodeSet(nodeNames);
  for (const node of candidateNodes(ctx.nodeGraph, query)) {
    if (!known.has(node)) continue;
    const d = authorizeNode(ctx.nodeGraph, { user: nodeUser(node), ...query });
    if (d?.allowed) {
      const subject: SubjectRef = { kind: 'User', name: `system:node:${node}` };
      const reason = ctx.nodeRestriction === false ? withoutNodeRestriction(d.reason) : d.reason;
      out.set(`User/${subject.name}`, { subject, via: 'node', grants: [], note: `Node authorizer (with group system:nodes): ${reason}` });
    }
  }
}

const nodeSets = new WeakMap<readonly string[], Set<string>>();

function nodeSet(nodeNames: readonly string[]): Set<string> {
  let set = nodeSets.get(nodeNames);
  if (!set) nodeSets.set(nodeNames, (set = new Set(nodeNames)));
  return set;
}

// The graph vertex a request's object is, for the resources the Node authorizer decides by the graph.
const VERTEX_OF: Record<string, VertexType> = {
  '\u0000pods': 'pod',
  '\u0000secrets': 'secret',
  '\u0000configmaps': 'configmap',
  '\u0000persistentvolumeclaims': 'pvc',
  '\u0000persistentvolumes': 'pv',
  '\u0000serviceaccounts': 'serviceaccount',
  'resource.k8s.io\u0000resourceclaims': 'resourceclaim',
  'resource.k8s.io\u0000resourceslices': 'resourceslice',
};

function candidateNodes(graph: NodeGraph, query: WhoCanQuery): Set<string> {
  const out = new Set<string>();
  const a = query.resource;
  if (!a) return out;
  if (a.name) {
    out.add(a.name);
    // Only this resource's own vertex type: asking every type would build every reach map.
    const type = VERTEX_OF[`${a.group}\u0000${a.resource}`];
    if (type) for (const node of graph.nodesReaching(type, type === 'pv' || type === 'resourceslice' ? '' : a.namespace, a.name)) out.add(node);
  }
  for (const r of a.fieldSelector ?? []) out.add(r.value);
  return out;
}

/** Each role with a rule that allows the request, with its first such rule (through the rule index). */
function matchedRoles(index: RbacIndex, query: WhoCanQuery): Map<string, RuleRef> {
  const res = query.resource;
  if (res) return matchedRolesByName(openMatchesOf(index, res.verb, res.group, res.resource, res.subresource), res.name);
  const matched = new Map<string, RuleRef>();
  if (query.nonResource) {
    const attrs = query.nonResource;
    firstMatchPerRole(matched, index.nonResourceRules, (ref) => ruleAllowsNonResource(ref.role.rules[ref.ruleIndex].rule, attrs));
  }
  return matched;
}

/**
 * Adds, for each role, its first ref that passes the test (lowest rule index), in the order each role
 * first passes; a role already in `matched` keeps its place when a lower rule index replaces its ref.
 */
function firstMatchPerRole(matched: Map<string, RuleRef>, refs: readonly RuleRef[], test: (ref: RuleRef) => boolean): void {
  for (const ref of refs) {
    const existing = matched.get(ref.role.key);
    if (existing && existing.ruleIndex <= ref.ruleIndex) continue;
    if (test(ref)) matched.set(ref.role.key, ref);
  }
}

/**
 * The candidate rules of one verb and resource that allow the request apart from its name (and a rule
 * never looks at the namespace). Rules without resourceNames allow every name, so their roles are
 * matched once; a question then tests only the rules that list names, and most names are listed by none.
 */
interface OpenMatches {
  /** Every candidate rule that allows the request for some name, in candidate order. */
  open: RuleRef[];
  /** matchedRoles' answer for a name no rule lists: the open rules without resourceNames, matched as firstMatchPerRole does. Shared: not to be changed. */
  unnamed: Map<string, RuleRef>;
  /** The open rules that list resourceNames: each name they list. */
  listedNames: Set<string>;
}

// Per RBAC index (an index does not change once built), per verb and resource.
const openMatchesPerIndex = new WeakMap<RbacIndex, Map<string, OpenMatches>>();

/**
 * The answers of rbacSubjects and rbacSubjectKeys per namespace, kept beside a shared matchedRoles
 * answer (OpenMatches.unnamed): every name no rule lists has the same answer in a namespace (the
 * impersonation checks ask one per user name, ~1,000 on a large cluster).
 */
interface SharedAnswers {
  subjects: Map<string, SubjectRef[]>;
  keys: Map<string, Set<string>>;
}

const sharedAnswers = new WeakMap<Map<string, RuleRef>, SharedAnswers>();

function openMatchesOf(index: RbacIndex, verb: string, group: string, resource: string, subresource: string): OpenMatches {
  let perKey = openMatchesPerIndex.get(index);
  if (!perKey) openMatchesPerIndex.set(index, (perKey = new Map()));
  const key = `${verb}\u0000${group}\u0000${resource}\u0000${subresource}`;
  let found = perKey.get(key);
  if (found) return found;
  const combined = combinedResource({ resource, subresource });
  const open: RuleRef[] = [];
  const unscoped: RuleRef[] = [];
  const listedNames = new Set<string>();
  for (const ref of candidateRulesFor(index, verb, group, resource, subresource)) {
    const rule = ref.role.rules[ref.ruleIndex].rule;
    if (!(verbMatches(rule, verb) && apiGroupMatches(rule, group) && resourceMatches(rule, combined, subresource))) continue;
    open.push(ref);
    const names = rule.resourceNames;
    if (!names || names.length === 0) unscoped.push(ref);
    else for (const n of names) listedNames.add(n);
  }
  const unnamed = new Map<string, RuleRef>();
  firstMatchPerRole(unnamed, unscoped, () => true);
  sharedAnswers.set(unnamed, { subjects: new Map(), keys: new Map() });
  perKey.set(key, (found = { open, unnamed, listedNames }));
  return found;
}

/** matchedRoles for one name: the shared unnamed answer unless some open rule lists the name. */
function matchedRolesByName(matches: OpenMatches, name: string): Map<string, RuleRef> {
  if (!matches.listedNames.has(name)) return matches.unnamed;
  const matched = new Map<string, RuleRef>();
  firstMatchPerRole(matched, matches.open, (ref) => resourceNameMatches(ref.role.rules[ref.ruleIndex].rule, name));
  return matched;
}

function addRbacSubjects(index: RbacIndex, query: WhoCanQuery, out: Map<string, WhoCanEntry>): void {
  const namespace = query.resource?.namespace ?? '';
  for (const ref of matchedRoles(index, query).values()) {
    const role = ref.role;
    for (const binding of bindingsOfRoleIn(index, role.key, namespace)) {
      const grant: WhoCanGrant = { binding: binding.ref, role: role.ref, ruleIndex: ref.ruleIndex };
      const from = role.rules[ref.ruleIndex].from;
      if (from) grant.aggregatedFrom = from;
      for (const subject of binding.subjects) {
        const key = refKey(subject);
        let entry = out.get(key);
        if (!entry) out.set(key, (entry = { subject, via: 'rbac', grants: [] }));
        entry.grants.push(grant);
      }
    }
  }
  for (const entry of out.values()) entry.grants.sort(compareGrants);
}

/**
 * Keys (kind/namespace/name, as binding subjects are written) of the subjects RBAC allows the request:
 * whoCan's RBAC entries without their grants, for questions asked of many identities in turn.
 */
export function rbacSubjectKeys(index: RbacIndex, query: WhoCanQuery): Set<string> {
  const matched = matchedRoles(index, query);
  const namespace = query.resource?.namespace ?? '';
  const shared = sharedAnswers.get(matched);
  let keys = shared?.keys.get(namespace);
  if (!keys) {
    keys = new Set<string>();
    const out = keys;
    forEachRbacSubject(index, matched, namespace, (_subject, key) => out.add(key));
    shared?.keys.set(namespace, keys);
  }
  // A copy: callers may add to it; the kept one answers the next name no rule lists.
  return shared ? new Set(keys) : keys;
}

/** Each subject (with its key) of every binding whose role is matched and applies in the namespace; a subject bound several times comes several times. */
function forEachRbacSubject(index: RbacIndex, matched: Map<string, RuleRef>, namespace: string, visit: (subject: SubjectRef, key: string) => void): void {
  for (const ref of matched.values())
    for (const binding of bindingsOfRoleIn(index, ref.role.key, namespace)) for (const subject of binding.subjects) visit(subject, refKey(subject));
}

/**
 * The subjects of whoCan's RBAC entries, in the same order, without their grants: for callers that
 * keep only who (the node-status writers ask ~1,000 impersonation questions on a large cluster, and
 * building, merging and sorting each answer's grants was most of their cost).
 */
export function rbacSubjects(index: RbacIndex, query: WhoCanQuery): SubjectRef[] {
  const matched = matchedRoles(index, query);
  const namespace = query.resource?.namespace ?? '';
  const shared = sharedAnswers.get(matched);
  let subjects = shared?.subjects.get(namespace);
  if (!subjects) {
    const out = new Map<string, SubjectRef>();
    forEachRbacSubject(index, matched, namespace, (subject, key) => {
      if (!out.has(key)) out.set(key, subject);
    });
    subjects = [...out.values()].sort(compareEntrySubjects);
    shared?.subjects.set(namespace, subjects);
  }
  return shared ? subjects.slice() : subjects;
}

const KIND_ORDER: Record<string, number> = { Group: 0, User: 1, ServiceAccount: 2 };

function compareEntrySubjects(a: SubjectRef, b: SubjectRef): number {
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || compareStrings(a.namespace ?? '', b.namespace ?? '') || compareStrings(a.name, b.name);
}

function compareEntries(a: WhoCanEntry, b: WhoCanEntry): number {
  return compareEntrySubjects(a.subject, b.subject);
}

function compareGrants(a: WhoCanGrant, b: WhoCanGrant): number {
  return (
    compareStrings(a.binding.kind, b.binding.kind) ||
    compareStrings(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
    compareStrings(a.binding.name, b.binding.name)
  );
}
