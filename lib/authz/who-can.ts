import type { SubjectRef } from '@/lib/k8s/types';
import type { AuthorizerContext } from './authorize';
import { authorizeNode, withoutNodeRestriction } from './node-authorizer';
import type { NodeGraph, VertexType } from './node-graph';
import type { RbacIndex, RuleRef } from './rbac-index';
import { bindingsOfRoleIn, candidateRulesFor } from './rbac-index';
import { combinedResource, ruleAllowsNonResource, ruleAllowsResource } from './rule-matches';
import type { BindingRef, NonResourceAttributes, ResourceAttributes, RoleRefResolved } from './types';
import { nodeUser } from './user-info';
import { compareStrings } from '@/lib/k8s/refs';

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
  const matched = new Map<string, RuleRef>();
  const consider = (refs: RuleRef[] | undefined, test: (ref: RuleRef) => boolean) => {
    for (const ref of refs ?? []) {
      const existing = matched.get(ref.role.key);
      if (existing && existing.ruleIndex <= ref.ruleIndex) continue;
      if (test(ref)) matched.set(ref.role.key, ref);
    }
  };
  const res = query.resource;
  if (res) {
    const combined = combinedResource(res);
    const attrs: ResourceAttributes = res;
    const test = (ref: RuleRef) => ruleAllowsResource(ref.role.rules[ref.ruleIndex].rule, attrs, combined);
    consider(candidateRulesFor(index, res.verb, res.group, res.resource, res.subresource), test);
  } else if (query.nonResource) {
    const attrs = query.nonResource;
    consider(index.nonResourceRules, (ref) => ruleAllowsNonResource(ref.role.rules[ref.ruleIndex].rule, attrs));
  }
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
        const key = subjectKey(subject);
        let entry = out.get(key);
        if (!entry) out.set(key, (entry = { subject, via: 'rbac', grants: [] }));
        entry.grants.push(grant);
      }
    }
  }
  for (const entry of out.values()) entry.grants.sort(compareGrants);
}

const subjectKey = (subject: SubjectRef) => `${subject.kind}/${subject.namespace ?? ''}/${subject.name}`;

/**
 * Keys (kind/namespace/name, as binding subjects are written) of the subjects RBAC allows the request:
 * whoCan's RBAC entries without their grants, for questions asked of many identities in turn.
 */
export function rbacSubjectKeys(index: RbacIndex, query: WhoCanQuery): Set<string> {
  const out = new Set<string>();
  forEachRbacSubject(index, query, (_subject, key) => out.add(key));
  return out;
}

/** Each subject (with its key) of every binding whose role has a rule allowing the request; a subject bound several times comes several times. */
function forEachRbacSubject(index: RbacIndex, query: WhoCanQuery, visit: (subject: SubjectRef, key: string) => void): void {
  const namespace = query.resource?.namespace ?? '';
  for (const ref of matchedRoles(index, query).values())
    for (const binding of bindingsOfRoleIn(index, ref.role.key, namespace)) for (const subject of binding.subjects) visit(subject, subjectKey(subject));
}

/**
 * The subjects of whoCan's RBAC entries, in the same order, without their grants: for callers that
 * keep only who (the node-status writers ask ~1,000 impersonation questions on a large cluster, and
 * building, merging and sorting each answer's grants was most of their cost).
 */
export function rbacSubjects(index: RbacIndex, query: WhoCanQuery): SubjectRef[] {
  const out = new Map<string, SubjectRef>();
  forEachRbacSubject(index, query, (subject, key) => {
    if (!out.has(key)) out.set(key, subject);
  });
  return [...out.values()].sort(compareEntrySubjects);
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
