import type { RbacIndex } from '@/lib/authz/rbac-index';
import { apiGroupMatches, resourceMatches } from '@/lib/authz/rule-matches';
import type { ObjectRef } from '@/lib/k8s/types';
import { DRA_RESOURCES, draResourceName, isRiskyWrite } from './dra-resources';
import { groupOf, nodeId, tierOf } from './node-id';
import type { Finding } from '@/lib/analysis/types';
import { SEVERITIES } from '@/lib/analysis/types';
import { catalogEntry } from '@/lib/analysis/catalog';
import type { EdgeReason, GraphEdge, GraphModel, GraphNode, GraphNodeKind } from './types';
import { compareStrings, subjectRef, toObjectRef } from '@/lib/k8s/refs';

/**
 * The identity graph of a cluster from its RBAC index (aggregated ClusterRoles already recomputed,
 * ServiceAccount subjects normalised): only roles with a rule reaching a DRA resource, the bindings
 * that refer to them and the subjects of those bindings. Risky edges grant a write on a sensitive
 * resource; the edges leading to them are risky too. Deterministic: output is sorted.
 */
export function buildIdentityGraph(rbac: RbacIndex): GraphModel {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();

  const addNode = (kind: GraphNodeKind, namespace: string | undefined, name: string, extra: Partial<GraphNode> = {}): GraphNode => {
    const id = nodeId(kind, namespace, name);
    let n = nodes.get(id);
    if (!n) {
      n = { id, kind, tier: tierOf(kind), name, group: groupOf(kind, namespace), risky: false, ...extra };
      if (namespace) n.namespace = namespace;
      nodes.set(id, n);
    }
    return n;
  };
  const addEdge = (kind: GraphEdge['kind'], source: string, target: string, reason: EdgeReason, verbs: readonly string[] = [], risky = false): GraphEdge => {
    const id = `${source}→${target}`;
    let e = edges.get(id);
    if (!e) {
      e = { id, source, target, kind, risky: false, verbs: [], reasons: [] };
      edges.set(id, e);
    }
    e.reasons.push(reason);
    for (const v of verbs) if (!e.verbs.includes(v)) e.verbs.push(v);
    if (risky) e.risky = true;
    return e;
  };

  for (const r of DRA_RESOURCES) addNode('Resource', undefined, draResourceName(r), { apiGroup: r.group });

  // roles → resources
  const rolesWithDra = new Map<string, { risky: boolean }>();
  const allRoles = [...rbac.clusterRoles.values()];
  for (const inNs of rbac.roles.values()) allRoles.push(...inNs.values());
  for (const role of allRoles) {
    const roleRef: ObjectRef =
      role.ref.kind === 'Role' ? { kind: 'Role', name: role.ref.name, namespace: role.ref.namespace } : { kind: 'ClusterRole', name: role.ref.name };
    const roleId = nodeId(role.ref.kind, role.ref.kind === 'Role' ? role.ref.namespace : undefined, role.ref.name);
    role.rules.forEach(({ rule, from }, ruleIndex) => {
      if (!rule.verbs || rule.verbs.length === 0) return;
      for (const r of DRA_RESOURCES) {
        const combined = draResourceName(r);
        if (!apiGroupMatches(rule, r.group) || !resourceMatches(rule, combined, r.subresource)) continue;
        const risky = isRiskyWrite(r, rule.verbs);
        let info = rolesWithDra.get(roleId);
        if (!info) rolesWithDra.set(roleId, (info = { risky: false }));
        if (risky) info.risky = true;
        const reason: EdgeReason = { type: 'rule', role: roleRef, ruleIndex, rule, resource: combined };
        if (from) reason.aggregatedFrom = from;
        addNode(role.ref.kind, role.ref.kind === 'Role' ? role.ref.namespace : undefined, role.ref.name);
        addEdge('rule', roleId, nodeId('Resource', undefined, combined), reason, rule.verbs, risky);
      }
    });
  }

  // bindings → roles, subjects → bindings
  for (const b of rbac.bindings) {
    if (!b.role) continue;
    const roleId = nodeId(b.role.ref.kind, b.role.ref.kind === 'Role' ? b.role.ref.namespace : undefined, b.role.ref.name);
    const info = rolesWithDra.get(roleId);
    if (!info || b.subjects.length === 0) continue;
    const bindingObject = toObjectRef(b.ref);
    const roleObject = toObjectRef(b.role.ref);
    const binding = addNode(b.ref.kind, b.ref.kind === 'RoleBinding' ? b.ref.namespace : undefined, b.ref.name);
    addEdge('roleRef', binding.id, roleId, { type: 'roleRef', binding: bindingObject, role: roleObject }, [], info.risky);
    for (const s of b.subjects) {
      const subject = addNode(s.kind, s.kind === 'ServiceAccount' ? s.namespace : undefined, s.name);
      const subjectOfBinding = s.kind === 'ServiceAccount' ? subjectRef(s.kind, s.name, s.namespace) : subjectRef(s.kind, s.name);
      addEdge('subject', subject.id, binding.id, { type: 'subject', binding: bindingObject, subject: subjectOfBinding }, [], info.risky);
    }
  }

  // Roles reached by no binding stay visible (an unbound wildcard role is still worth seeing).
  for (const e of edges.values()) {
    if (!e.risky) continue;
    nodes.get(e.source)!.risky = true;
    if (e.kind === 'rule') nodes.get(e.target)!.risky = true;
  }

  return {
    nodes: [...nodes.values()].sort(compareNodes),
    edges: [...edges.values()].sort((a, b) => compareStrings(a.id, b.id)),
  };
}

const KIND_ORDER: Record<GraphNodeKind, number> = {
  User: 0,
  Group: 1,
  ServiceAccount: 2,
  ClusterRoleBinding: 3,
  RoleBinding: 4,
  ClusterRole: 5,
  Role: 6,
  Resource: 7,
};

const RESOURCE_ORDER = new Map(DRA_RESOURCES.map((r, i) => [draResourceName(r), i]));

/** Tier, then kind, namespace and name; resources keep the catalogue order of DRA_RESOURCES. */
export function compareNodes(a: GraphNode, b: GraphNode): number {
  if (a.kind === 'Resource' && b.kind === 'Resource')
    return (RESOURCE_ORDER.get(a.name) ?? 99) - (RESOURCE_ORDER.get(b.name) ?? 99) || compareStrings(a.name, b.name);
  return a.tier - b.tier || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || compareStrings(a.namespace ?? '', b.namespace ?? '') || compareStrings(a.name, b.name);
}

const GRAPH_KINDS = new Set<string>(['User', 'Group', 'ServiceAccount', 'ClusterRoleBinding', 'RoleBinding', 'ClusterRole', 'Role']);

/** Findings at least this severe draw their grants orange: lower ones are hygiene, not over-privilege. */
const FLAG_SEVERITIES = new Set<Finding['severity']>(['critical', 'high', 'medium']);
/**
 * Check families whose grant evidence is the over-privilege itself. A quota finding cites a tenant's
 * (legitimate) right to create claims, and pod and zeroing findings are not about RBAC: their grants
 * are not drawn orange.
 */
const FLAG_FAMILIES = new Set<string>(['DRA', 'NODE', 'CLAIM']);

/**
 * Marks nodes named by findings (as subject or object) with the worst severity and the count, and
 * the edges of the grants that permission findings (DRA, NODE, CLAIM; medium or worse) report as
 * evidence: binding → role, each of the finding's subjects → binding, and the role's edges drawn
 * from the rule the evidence cites.
 */
export function annotateFindings(model: GraphModel, findings: readonly Finding[]): GraphModel {
  const worst = new Map<string, { severity: Finding['severity']; count: number }>();
  const flaggedPairs = new Set<string>();
  const flaggedRules = new Map<string, Set<number>>();
  for (const f of findings) {
    const ids = new Set<string>();
    for (const s of f.subjects) ids.add(nodeId(s.kind, s.kind === 'ServiceAccount' ? s.namespace : undefined, s.name));
    for (const o of f.objects)
      if (GRAPH_KINDS.has(o.kind)) ids.add(nodeId(o.kind as GraphNodeKind, o.kind === 'Role' || o.kind === 'RoleBinding' ? o.namespace : undefined, o.name));
    for (const id of ids) {
      const w = worst.get(id);
      if (!w) worst.set(id, { severity: f.severity, count: 1 });
      else {
        w.count++;
        if (SEVERITIES.indexOf(f.severity) < SEVERITIES.indexOf(w.severity)) w.severity = f.severity;
      }
    }
    if (!FLAG_SEVERITIES.has(f.severity) || !FLAG_FAMILIES.has(catalogEntry(f.check)?.family ?? '')) continue;
    for (const e of f.evidence) {
      if (e.type !== 'grant' || !GRAPH_KINDS.has(e.binding.kind) || !GRAPH_KINDS.has(e.role.kind)) continue;
      const binding = nodeId(e.binding.kind as GraphNodeKind, e.binding.kind === 'RoleBinding' ? e.binding.namespace : undefined, e.binding.name);
      const role = nodeId(e.role.kind as GraphNodeKind, e.role.kind === 'Role' ? e.role.namespace : undefined, e.role.name);
      flaggedPairs.add(`${binding}→${role}`);
      for (const s of f.subjects) flaggedPairs.add(`${nodeId(s.kind, s.kind === 'ServiceAccount' ? s.namespace : undefined, s.name)}→${binding}`);
      (flaggedRules.get(role) ?? flaggedRules.set(role, new Set()).get(role)!).add(e.ruleIndex);
    }
  }
  const flagged = (e: GraphEdge) =>
    flaggedPairs.has(e.id) || (e.kind === 'rule' && e.reasons.some((r) => r.type === 'rule' && flaggedRules.get(e.source)?.has(r.ruleIndex)));
  return {
    nodes: model.nodes.map((n) => {
      const w = worst.get(n.id);
      return w ? { ...n, worstFinding: w.severity, findingCount: w.count } : n;
    }),
    edges: model.edges.map((e) => (flagged(e) ? { ...e, flagged: true } : e)),
  };
}
