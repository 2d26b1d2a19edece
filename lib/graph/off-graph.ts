import { subjectRef } from '@/lib/k8s/refs';
import type { ObjectRef } from '@/lib/k8s/types';
import { groupOf, parseNodeId, tierOf } from './node-id';
import type { EdgeReason, GraphEdge, GraphNodeKind, ViewNode } from './types';

// The boxes and edges of an attack path that the identity graph leaves out: it draws only grants
// that reach a DRA resource, and a path's grant may reach something else (read every Secret,
// impersonate). The top risks' view and one issue's path view both draw them, marked off-graph.

/** A node of an attack path that the identity graph leaves out (its role reaches no DRA resource). */
export function offGraphNode(id: string): Omit<ViewNode, 'x' | 'y'> | undefined {
  const parsed = parseNodeId(id);
  if (!parsed || !OFF_GRAPH_KINDS.has(parsed.kind)) return undefined;
  const kind = parsed.kind as GraphNodeKind;
  const node: Omit<ViewNode, 'x' | 'y'> = {
    id,
    kind,
    tier: tierOf(kind),
    name: parsed.name,
    group: groupOf(kind, parsed.namespace || undefined),
    risky: true,
    offGraph: true,
  };
  if (parsed.namespace) node.namespace = parsed.namespace;
  return node;
}

const OFF_GRAPH_KINDS = new Set(['User', 'Group', 'ServiceAccount', 'ClusterRoleBinding', 'RoleBinding', 'ClusterRole', 'Role']);

/** The edge between two consecutive off-graph nodes of a path: a binding's subject or its roleRef. */
export function offGraphEdge(source: string, target: string): GraphEdge | undefined {
  const s = parseNodeId(source);
  const t = parseNodeId(target);
  if (!s || !t) return undefined;
  const ref = (p: { kind: string; namespace: string; name: string }): ObjectRef =>
    p.namespace ? { kind: p.kind, name: p.name, namespace: p.namespace } : { kind: p.kind, name: p.name };
  const tier = tierOf(s.kind as GraphNodeKind);
  let reason: EdgeReason;
  if (tier === 0 && tierOf(t.kind as GraphNodeKind) === 1)
    reason = { type: 'subject', binding: ref(t), subject: subjectRef(s.kind as 'User', s.name, s.kind === 'ServiceAccount' ? s.namespace : undefined) };
  else if (tier === 1 && tierOf(t.kind as GraphNodeKind) === 2) reason = { type: 'roleRef', binding: ref(s), role: ref(t) };
  else return undefined;
  return { id: `${source}→${target}`, source, target, kind: reason.type, risky: true, flagged: true, verbs: [], reasons: [reason] };
}
