import { SEVERITIES } from '@/lib/analysis/types';
import { layoutColumns } from './layout';
import { groupNodeId } from './node-id';
import type { EdgeReason, GraphEdge, GraphModel, GraphNode, GraphSearchHit, GraphTier, GraphView, GraphViewOptions, ViewEdge, ViewNode } from './types';

/** Reasons kept per displayed edge (the rest are counted). */
export const VIEW_REASON_LIMIT = 25;
/** A (sub)graph this small is shown fully expanded. */
export const AUTO_EXPAND_LIMIT = 60;
/** Groups with fewer members than this are never collapsed (a box saying "3 users" hides more than it saves). */
export const MIN_COLLAPSE = 4;
/**
 * More boxes than this in one column, even with namespaces collapsed (thousands of small
 * namespaces), and that column's namespaces fold into one "all namespaces" group.
 */
export const MAX_COLUMN_BOXES = 60;
/** The group of every namespace of a column, when folded. */
export const ALL_NAMESPACES = 'ns/*';

// Built once per model: rebuilding them for each focus was most of a focused view's 120 ms on the
// bench cluster's graph (45,000 bindings).
const adjacency = new WeakMap<GraphModel, { out: Map<string, string[]>; into: Map<string, string[]> }>();

function adjacencyOf(model: GraphModel): { out: Map<string, string[]>; into: Map<string, string[]> } {
  let a = adjacency.get(model);
  if (!a) {
    a = { out: new Map(), into: new Map() };
    for (const e of model.edges) {
      (a.out.get(e.source) ?? a.out.set(e.source, []).get(e.source)!).push(e.target);
      (a.into.get(e.target) ?? a.into.set(e.target, []).get(e.target)!).push(e.source);
    }
    adjacency.set(model, a);
  }
  return a;
}

/** The nodes on some path through `focus` (everything upstream and downstream of it). */
export function focusSubgraph(model: GraphModel, focus: string): GraphModel {
  const { out, into } = adjacencyOf(model);
  // An edge lies on a path through the focus when both ends are downstream of it, or both upstream.
  const down = reach(focus, out);
  const up = reach(focus, into);
  const keep = new Set<string>([...down, ...up]);
  const edges = model.edges.filter((e) => (down.has(e.source) && down.has(e.target)) || (up.has(e.source) && up.has(e.target)));
  return { nodes: model.nodes.filter((n) => keep.has(n.id)), edges };
}

function reach(start: string, next: Map<string, string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length) {
    const id = stack.pop()!;
    for (const n of next.get(id) ?? []) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return seen;
}

/** Only risky edges and the nodes they touch (plus `keepId`, e.g. the focus). */
export function riskySubgraph(model: GraphModel, keepId?: string): GraphModel {
  const edges = model.edges.filter((e) => e.risky);
  const ids = new Set<string>();
  for (const e of edges) {
    ids.add(e.source);
    ids.add(e.target);
  }
  if (keepId) ids.add(keepId);
  return { nodes: model.nodes.filter((n) => ids.has(n.id)), edges };
}

/**
 * What the graph page draws: the focused and/or risky subgraph, groups collapsed unless expanded
 * (namespaces of service accounts, RoleBindings and Roles; users; groups; cluster-scoped bindings and
 * roles), edges merged between collapsed groups, then laid out in columns.
 */
export function buildGraphView(model: GraphModel, options: GraphViewOptions = {}): GraphView {
  const path = (options.path ?? []).filter((id) => model.nodes.some((n) => n.id === id));
  const wanted = options.focus ?? path[0];
  const focus = wanted && model.nodes.some((n) => n.id === wanted) ? wanted : null;
  let sub = focus ? focusSubgraph(model, focus) : model;
  if (options.riskyOnly) sub = riskySubgraph(sub, focus ?? undefined);

  const members = new Map<string, GraphNode[]>();
  for (const n of sub.nodes) {
    if (n.tier === 3) continue;
    const gid = groupNodeId(n.tier, n.group);
    (members.get(gid) ?? members.set(gid, []).get(gid)!).push(n);
  }
  const expandAll = options.expandAll || sub.nodes.length <= AUTO_EXPAND_LIMIT;
  const expanded = new Set(options.expand ?? []);
  const focusNode = focus ? sub.nodes.find((n) => n.id === focus) : undefined;
  if (focusNode && focusNode.tier !== 3) expanded.add(groupNodeId(focusNode.tier, focusNode.group));
  // Every node of the path stays visible on its own (never folded into a group).
  for (const id of path) {
    const n = sub.nodes.find((x) => x.id === id);
    if (n && n.tier !== 3) expanded.add(groupNodeId(n.tier, n.group));
  }

  // Columns that would still hold too many boxes fold their (not expanded) namespace groups into one.
  const folded = new Map<GraphTier, number>();
  if (!expandAll) {
    const boxes = new Map<GraphTier, number>();
    for (const [gid, list] of members) {
      const tier = list[0].tier;
      const collapsed = !expanded.has(gid) && list.length >= MIN_COLLAPSE;
      boxes.set(tier, (boxes.get(tier) ?? 0) + (collapsed ? 1 : list.length));
    }
    for (const [tier, count] of boxes) if (count > MAX_COLUMN_BOXES && !expanded.has(groupNodeId(tier, ALL_NAMESPACES))) folded.set(tier, 0);
    for (const n of sub.nodes) if (folded.has(n.tier) && foldsAway(n, expanded)) folded.set(n.tier, folded.get(n.tier)! + 1);
  }

  const rep = new Map<string, string>();
  const viewNodes = new Map<string, Omit<ViewNode, 'x' | 'y'>>();
  const order = new Map<string, number>();
  sub.nodes.forEach((n, i) => {
    const fold = folded.has(n.tier) && foldsAway(n, expanded);
    const gid = groupNodeId(n.tier, fold ? ALL_NAMESPACES : n.group);
    const group = members.get(gid);
    const size = fold ? folded.get(n.tier)! : (group?.length ?? 0);
    const collapse = fold || (n.tier !== 3 && !expandAll && !expanded.has(gid) && group !== undefined && size >= MIN_COLLAPSE);
    if (!collapse) {
      rep.set(n.id, n.id);
      viewNodes.set(n.id, { ...n });
      order.set(n.id, i);
      return;
    }
    rep.set(n.id, gid);
    const existing = viewNodes.get(gid);
    if (existing) {
      existing.risky = existing.risky || n.risky;
      if (n.worstFinding && (!existing.worstFinding || SEVERITIES.indexOf(n.worstFinding) < SEVERITIES.indexOf(existing.worstFinding)))
        existing.worstFinding = n.worstFinding;
      if (n.findingCount) existing.findingCount = (existing.findingCount ?? 0) + n.findingCount;
      return;
    }
    const groupNode: Omit<ViewNode, 'x' | 'y'> = {
      id: gid,
      kind: n.kind,
      tier: n.tier,
      name: fold ? 'all namespaces' : (n.namespace ?? n.group),
      group: fold ? ALL_NAMESPACES : n.group,
      risky: n.risky,
      memberCount: size,
    };
    if (n.worstFinding) groupNode.worstFinding = n.worstFinding;
    if (n.findingCount) groupNode.findingCount = n.findingCount;
    if (n.namespace && !fold) groupNode.namespace = n.namespace;
    viewNodes.set(gid, groupNode);
    order.set(gid, i);
  });

  const edges = new Map<string, ViewEdge>();
  for (const e of sub.edges) {
    const source = rep.get(e.source);
    const target = rep.get(e.target);
    if (!source || !target) continue;
    const id = `${source}→${target}`;
    let v = edges.get(id);
    if (!v) {
      v = { id, source, target, kind: e.kind, risky: false, verbs: [], reasons: [], reasonCount: 0 };
      edges.set(id, v);
    }
    mergeEdge(v, e);
  }

  const layout = layoutColumns(
    [...viewNodes.values()].map((n) => ({ id: n.id, tier: n.tier, order: order.get(n.id)! })),
    [...edges.values()],
  );
  const onPath = new Set(path);
  const pathEdges = new Set(path.slice(1).map((id, i) => `${path[i]}→${id}`));
  for (const e of edges.values()) if (pathEdges.has(`${e.source}→${e.target}`)) e.onPath = true;
  const nodes: ViewNode[] = [...viewNodes.values()].map((n) => ({ ...n, ...(onPath.has(n.id) ? { onPath: true } : {}), ...layout.positions.get(n.id)! }));
  nodes.sort((a, b) => a.tier - b.tier || a.y - b.y);
  return {
    nodes,
    edges: [...edges.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    focus,
    path,
    totalNodes: model.nodes.length,
    subgraphNodes: sub.nodes.length,
    width: layout.width,
    height: layout.height,
  };
}

/** A namespaced node whose own namespace group was not expanded (those stay, e.g. the focus's). */
function foldsAway(n: GraphNode, expanded: ReadonlySet<string>): boolean {
  return n.tier !== 3 && n.group.startsWith('ns/') && !expanded.has(groupNodeId(n.tier, n.group));
}

function mergeEdge(v: ViewEdge, e: GraphEdge): void {
  if (e.risky) v.risky = true;
  for (const verb of e.verbs) if (!v.verbs.includes(verb)) v.verbs.push(verb);
  v.reasonCount += e.reasons.length;
  for (const r of e.reasons) {
    if (v.reasons.length >= VIEW_REASON_LIMIT) break;
    v.reasons.push(r as EdgeReason);
  }
}

/** Nodes whose name (or namespace/name) contains the query, prefix matches first; at most `limit`. */
export function searchGraph(model: GraphModel, query: string, limit = 20): GraphSearchHit[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const scored: { n: GraphNode; score: number }[] = [];
  for (const n of model.nodes) {
    const name = n.name.toLowerCase();
    const full = n.namespace ? `${n.namespace}/${n.name}`.toLowerCase() : name;
    let score = -1;
    if (name === q || full === q) score = 0;
    else if (name.startsWith(q) || full.startsWith(q)) score = 1;
    else if (full.includes(q)) score = 2;
    if (score >= 0) scored.push({ n, score });
  }
  scored.sort((a, b) => a.score - b.score || a.n.tier - b.n.tier || (a.n.id < b.n.id ? -1 : 1));
  return scored.slice(0, limit).map(({ n }) => {
    const hit: GraphSearchHit = { id: n.id, kind: n.kind, name: n.name };
    if (n.namespace) hit.namespace = n.namespace;
    return hit;
  });
}
