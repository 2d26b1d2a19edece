import { SEVERITIES } from '@/lib/analysis/types';
import { layoutColumns } from './layout';
import { KIND_PLURAL } from './describe';
import { groupNodeId, moreNodeId, TIER_NOUNS } from './node-id';
import { offGraphEdge, offGraphNode } from './off-graph';
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

/**
 * The nodes on some path through `focus` (everything upstream and downstream of it). `extra` holds
 * nodes and edges the model leaves out (an attack path's off-graph grant), walked as if they were in it.
 */
export function focusSubgraph(model: GraphModel, focus: string, extra?: GraphModel): GraphModel {
  const { out, into } = adjacencyOf(model);
  const more = extra?.edges.length ? adjacencyOfEdges(extra.edges) : undefined;
  // An edge lies on a path through the focus when both ends are downstream of it, or both upstream.
  const down = reach(focus, out, more?.out);
  const up = reach(focus, into, more?.into);
  const keep = new Set<string>([...down, ...up]);
  const onPath = (e: GraphEdge) => (down.has(e.source) && down.has(e.target)) || (up.has(e.source) && up.has(e.target));
  const nodes = model.nodes.filter((n) => keep.has(n.id));
  const edges = model.edges.filter(onPath);
  if (extra) {
    nodes.push(...extra.nodes.filter((n) => keep.has(n.id)));
    edges.push(...extra.edges.filter(onPath));
  }
  return { nodes, edges };
}

function adjacencyOfEdges(edges: readonly GraphEdge[]): { out: Map<string, string[]>; into: Map<string, string[]> } {
  const a = { out: new Map<string, string[]>(), into: new Map<string, string[]>() };
  for (const e of edges) {
    (a.out.get(e.source) ?? a.out.set(e.source, []).get(e.source)!).push(e.target);
    (a.into.get(e.target) ?? a.into.set(e.target, []).get(e.target)!).push(e.source);
  }
  return a;
}

function reach(start: string, next: Map<string, string[]>, more?: Map<string, string[]>): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length) {
    const id = stack.pop()!;
    for (const list of [next.get(id), more?.get(id)])
      for (const n of list ?? []) {
        if (!seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
  }
  return seen;
}

/**
 * The nodes and edges of `path` that the model lacks, drawn off-graph: the identity graph holds only
 * grants that reach a DRA resource, and an attack path's grant may reach something else (on the
 * bench's diverse cluster the top risk's path reads every Secret). Undefined when the model has all.
 */
export function offGraphPath(model: GraphModel, path: readonly string[]): GraphModel | undefined {
  const known = nodeIndex(model);
  const { byId } = edgeIndex(model);
  const nodes = path.filter((id) => !known.has(id)).flatMap((id) => offGraphNode(id) ?? []);
  const drawn = new Set([...path.filter((id) => known.has(id)), ...nodes.map((n) => n.id)]);
  const edges: GraphEdge[] = [];
  for (let i = 1; i < path.length; i++) {
    const [source, target] = [path[i - 1], path[i]];
    if (!drawn.has(source) || !drawn.has(target) || byId.has(`${source}→${target}`)) continue;
    const edge = offGraphEdge(source, target);
    if (edge) edges.push(edge);
  }
  return nodes.length || edges.length ? { nodes, edges } : undefined;
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

/** A focused view with more boxes than this pages its columns (a "+ N more" box each). */
export const FOCUS_BOX_LIMIT = 40;
/** Boxes per column of a paged focused view, its "+ N more" box included. */
export const FOCUS_COLUMN_PAGE = 10;

/** The boxes a view draws and which box stands for each node, before edges and layout. */
interface ViewPlan {
  sub: GraphModel;
  focus: string | null;
  path: string[];
  /** Node id → the id of the box drawing it (itself, its collapsed group, or its column's "+ N more"). */
  rep: Map<string, string>;
  boxes: Map<string, Omit<ViewNode, 'x' | 'y'>>;
  /** Box id → its position in the model's sorted order (the layout's starting order). */
  order: Map<string, number>;
  paged: Partial<Record<GraphTier, number>>;
}

/**
 * What the graph page draws: the focused and/or risky subgraph, groups collapsed unless expanded
 * (namespaces of service accounts, RoleBindings and Roles; users; groups; cluster-scoped bindings and
 * roles), columns of a large focused view paged, edges merged between boxes, then laid out in columns.
 */
export function buildGraphView(model: GraphModel, options: GraphViewOptions = {}): GraphView {
  const plan = planGraphView(model, options);
  const edges = new Map<string, ViewEdge>();
  for (const e of plan.sub.edges) {
    const source = plan.rep.get(e.source);
    const target = plan.rep.get(e.target);
    if (!source || !target) continue;
    const id = `${source}→${target}`;
    let v = edges.get(id);
    if (!v) {
      v = { id, source, target, kind: e.kind, risky: false, verbs: [], reasons: [], reasonCount: 0, grants: 0, flaggedGrants: 0 };
      edges.set(id, v);
    }
    mergeEdge(v, e);
  }
  for (const v of edges.values()) {
    if (v.flaggedGrants > 0 && v.flaggedGrants === v.grants) v.flagged = true;
    else if (v.flaggedGrants > 0) v.partlyFlagged = true;
  }
  const { path, focus } = plan;
  const view = layoutView(plan.boxes, plan.order, edges, path);
  return {
    ...view,
    focus,
    path,
    totalNodes: model.nodes.length,
    subgraphNodes: plan.sub.nodes.length,
    mode: focus ? (path.length ? 'path' : 'focus') : 'overview',
    ...(Object.keys(plan.paged).length ? { paged: plan.paged } : {}),
  };
}

/** How many boxes `buildGraphView` would draw with these options, without merging edges or laying out. */
export function countViewBoxes(model: GraphModel, options: GraphViewOptions = {}): number {
  return planGraphView(model, options).boxes.size;
}

/** Positions the boxes (columns by tier) and marks the boxes and edges of `path`. */
export function layoutView(
  boxes: ReadonlyMap<string, Omit<ViewNode, 'x' | 'y'>>,
  order: ReadonlyMap<string, number>,
  edgeMap: ReadonlyMap<string, ViewEdge>,
  path: readonly string[],
): Pick<GraphView, 'nodes' | 'edges' | 'width' | 'height'> {
  const layout = layoutColumns(
    [...boxes.values()].map((n) => ({ id: n.id, tier: n.tier, order: order.get(n.id)!, ...(n.hiddenBoxes !== undefined ? { last: true } : {}) })),
    [...edgeMap.values()],
  );
  const onPath = new Set(path);
  const pathEdges = new Set(path.slice(1).map((id, i) => `${path[i]}→${id}`));
  const edges = [...edgeMap.values()];
  for (const e of edges) if (pathEdges.has(`${e.source}→${e.target}`)) e.onPath = true;
  const nodes: ViewNode[] = [...boxes.values()].map((n) => ({ ...n, ...(onPath.has(n.id) ? { onPath: true } : {}), ...layout.positions.get(n.id)! }));
  nodes.sort((a, b) => a.tier - b.tier || a.y - b.y);
  return { nodes, edges: edges.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), width: layout.width, height: layout.height };
}

function planGraphView(model: GraphModel, options: GraphViewOptions): ViewPlan {
  const extra = options.path ? offGraphPath(model, options.path) : undefined;
  const index = nodeIndex(model);
  const extraNodes = new Map(extra?.nodes.map((n) => [n.id, n]));
  const known = { has: (id: string) => index.has(id) || extraNodes.has(id), get: (id: string) => index.get(id) ?? extraNodes.get(id) };
  const path = (options.path ?? []).filter((id) => known.has(id));
  const wanted = options.focus ?? path[0];
  const focus = wanted && known.has(wanted) ? wanted : null;
  let sub = focus ? focusSubgraph(model, focus, extra) : model;
  if (options.riskyOnly) sub = riskySubgraph(sub, focus ?? undefined);

  const members = new Map<string, GraphNode[]>();
  for (const n of sub.nodes) {
    if (n.tier === 3) continue;
    const gid = groupNodeId(n.tier, n.group);
    (members.get(gid) ?? members.set(gid, []).get(gid)!).push(n);
  }
  const expandAll = options.expandAll || sub.nodes.length <= AUTO_EXPAND_LIMIT;
  const expanded = new Set(options.expand ?? []);
  const focusNode = focus ? known.get(focus) : undefined;
  if (focusNode && focusNode.tier !== 3) expanded.add(groupNodeId(focusNode.tier, focusNode.group));
  // Every node of the path stays visible on its own (never folded into a group).
  for (const id of path) {
    const n = known.get(id)!;
    if (n.tier !== 3) expanded.add(groupNodeId(n.tier, n.group));
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
  const boxes = new Map<string, Omit<ViewNode, 'x' | 'y'>>();
  const order = new Map<string, number>();
  sub.nodes.forEach((n, i) => {
    const fold = folded.has(n.tier) && foldsAway(n, expanded);
    const gid = groupNodeId(n.tier, fold ? ALL_NAMESPACES : n.group);
    const group = members.get(gid);
    const size = fold ? folded.get(n.tier)! : (group?.length ?? 0);
    const collapse = fold || (n.tier !== 3 && !expandAll && !expanded.has(gid) && group !== undefined && size >= MIN_COLLAPSE);
    if (!collapse) {
      rep.set(n.id, n.id);
      boxes.set(n.id, { ...n });
      order.set(n.id, i);
      return;
    }
    rep.set(n.id, gid);
    const existing = boxes.get(gid);
    if (existing) {
      absorb(existing, n);
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
    boxes.set(gid, groupNode);
    order.set(gid, i);
  });

  const pinned = new Set([focus, ...path].filter((id): id is string => !!id).map((id) => rep.get(id) ?? id));
  const paged = focus && boxes.size > FOCUS_BOX_LIMIT ? pageColumns(boxes, order, rep, pinned, options.show ?? {}) : {};
  return { sub, focus, path, rep, boxes, order, paged };
}

const nodeIndexes = new WeakMap<GraphModel, Map<string, GraphNode>>();

/** The model's nodes by id, built once per model (a focus on 85,000 nodes looked them up with a scan). */
export function nodeIndex(model: GraphModel): Map<string, GraphNode> {
  let index = nodeIndexes.get(model);
  if (!index) nodeIndexes.set(model, (index = new Map(model.nodes.map((n) => [n.id, n]))));
  return index;
}

const edgeIndexes = new WeakMap<GraphModel, { byId: Map<string, GraphEdge>; outOf: Map<string, GraphEdge[]> }>();

/** The model's edges by id and by source, built once per model. */
export function edgeIndex(model: GraphModel): { byId: Map<string, GraphEdge>; outOf: Map<string, GraphEdge[]> } {
  let index = edgeIndexes.get(model);
  if (!index) {
    index = { byId: new Map(), outOf: new Map() };
    for (const e of model.edges) {
      index.byId.set(e.id, e);
      (index.outOf.get(e.source) ?? index.outOf.set(e.source, []).get(e.source)!).push(e);
    }
    edgeIndexes.set(model, index);
  }
  return index;
}

/** A box standing for several nodes takes on the riskiest of them and counts their findings. */
function absorb(box: Omit<ViewNode, 'x' | 'y'>, n: Pick<GraphNode, 'risky' | 'worstFinding' | 'findingCount'>): void {
  box.risky = box.risky || n.risky;
  if (n.worstFinding && (!box.worstFinding || SEVERITIES.indexOf(n.worstFinding) < SEVERITIES.indexOf(box.worstFinding))) box.worstFinding = n.worstFinding;
  if (n.findingCount) box.findingCount = (box.findingCount ?? 0) + n.findingCount;
}

/**
 * Keeps a focused view legible: each column (resources excepted: at most ten) with more than
 * FOCUS_COLUMN_PAGE boxes keeps the focus, the path and then the boxes named by the worst findings,
 * risky before safe, in the model's order; the rest go behind one "+ N more" box, which the
 * reader opens a page at a time (`show`). Returns the hidden box count per tier.
 */
function pageColumns(
  boxes: Map<string, Omit<ViewNode, 'x' | 'y'>>,
  order: Map<string, number>,
  rep: Map<string, string>,
  pinned: ReadonlySet<string>,
  show: Partial<Record<GraphTier, number>>,
): Partial<Record<GraphTier, number>> {
  const columns = new Map<GraphTier, Omit<ViewNode, 'x' | 'y'>[]>();
  for (const b of boxes.values()) if (b.tier !== 3) (columns.get(b.tier) ?? columns.set(b.tier, []).get(b.tier)!).push(b);
  const rank = (b: Omit<ViewNode, 'x' | 'y'>) => [
    pinned.has(b.id) ? 0 : 1,
    b.worstFinding ? SEVERITIES.indexOf(b.worstFinding) : SEVERITIES.length,
    b.risky ? 0 : 1,
    order.get(b.id)!,
  ];
  const hiddenBy = new Map<string, string>();
  const paged: Partial<Record<GraphTier, number>> = {};
  for (const [tier, column] of columns) {
    const keep = Math.max(FOCUS_COLUMN_PAGE - 1, show[tier] ?? 0);
    if (column.length <= Math.max(FOCUS_COLUMN_PAGE, keep)) continue;
    const ranked = column.map((b) => ({ b, r: rank(b) })).sort((x, y) => compareRanks(x.r, y.r));
    const hidden = ranked.slice(keep).map((x) => x.b);
    const moreId = moreNodeId(tier);
    const kinds = new Set(hidden.map((b) => b.kind));
    const more: Omit<ViewNode, 'x' | 'y'> = {
      id: moreId,
      kind: hidden[0].kind,
      tier,
      name: kinds.size === 1 ? KIND_PLURAL[hidden[0].kind] : TIER_NOUNS[tier],
      group: 'more',
      risky: false,
      memberCount: 0,
      hiddenBoxes: hidden.length,
    };
    for (const b of hidden) {
      boxes.delete(b.id);
      hiddenBy.set(b.id, moreId);
      more.memberCount! += b.memberCount ?? 1;
      absorb(more, b);
      order.set(moreId, Math.max(order.get(moreId) ?? 0, order.get(b.id)!));
    }
    boxes.set(moreId, more);
    paged[tier] = hidden.length;
  }
  if (hiddenBy.size) for (const [id, box] of rep) if (hiddenBy.has(box)) rep.set(id, hiddenBy.get(box)!);
  return paged;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** A namespaced node whose own namespace group was not expanded (those stay, e.g. the focus's). */
function foldsAway(n: GraphNode, expanded: ReadonlySet<string>): boolean {
  return n.tier !== 3 && n.group.startsWith('ns/') && !expanded.has(groupNodeId(n.tier, n.group));
}

function mergeEdge(v: ViewEdge, e: GraphEdge): void {
  if (e.risky) v.risky = true;
  v.grants++;
  if (e.flagged) v.flaggedGrants++;
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
