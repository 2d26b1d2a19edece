import type { AttackPath, Issue } from '@/lib/analysis/types';
import { attackPathNodeIds } from './attack-path-nodes';
import { offGraphEdge, offGraphNode } from './off-graph';
import type { GraphEdge, GraphModel, GraphView, TopRiskPath, ViewEdge, ViewNode } from './types';
import { edgeIndex, layoutView, nodeIndex, VIEW_REASON_LIMIT } from './view';

// The graph's default view: the attack paths of the highest-ranked issues, so the page opens on what
// to fix first instead of every grant of the cluster collapsed into a few boxes.

/** The top risks (issues in the overview's order, rolled up as there) with their attack paths' node ids. */
export function topRiskPaths(issues: readonly Issue[], attackPaths: readonly AttackPath[]): TopRiskPath[] {
  const byIssue = new Map(attackPaths.map((p) => [p.issueId, p]));
  return issues.map((issue, i) => {
    const path = byIssue.get(issue.id);
    return {
      rank: i + 1,
      issueId: issue.id,
      check: issue.check,
      severity: issue.severity,
      title: issue.title,
      score: issue.risk.score,
      // A path of the identity alone (a kubelet, whose access is the Node authorizer's) has no grant to draw.
      nodeIds: path ? drawable(attackPathNodeIds(path)) : [],
    };
  });
}

function drawable(ids: string[]): string[] {
  return ids.length >= 2 ? ids : [];
}

/**
 * The union of the top risks' attack paths (identity → binding → role → DRA resource), each box
 * labelled with the ranks of the paths through it. A path whose role grants no DRA resource (an
 * impersonation grant) is still drawn, its boxes marked off-graph; a path that ends at a role shows
 * what the role reaches among the DRA resources. Edges keep their own colours (orange: a finding
 * reports the grant); path edges are marked `onPath`.
 */
export function buildTopRisksView(model: GraphModel, risks: readonly TopRiskPath[]): GraphView {
  const known = nodeIndex(model);
  const { byId: modelEdges, outOf } = edgeIndex(model);
  const boxes = new Map<string, Omit<ViewNode, 'x' | 'y'>>();
  const order = new Map<string, number>();
  const edges = new Map<string, ViewEdge>();
  const onPathEdges = new Set<string>();

  const addBox = (id: string): Omit<ViewNode, 'x' | 'y'> | undefined => {
    let box = boxes.get(id);
    if (box) return box;
    const node = known.get(id) ?? offGraphNode(id);
    if (!node) return undefined;
    box = { ...node };
    boxes.set(id, box);
    order.set(id, boxes.size);
    return box;
  };
  const addEdge = (e: GraphEdge) => {
    if (edges.has(e.id)) return;
    edges.set(e.id, { ...e, reasons: e.reasons.slice(0, VIEW_REASON_LIMIT), reasonCount: e.reasons.length, grants: 1, flaggedGrants: e.flagged ? 1 : 0 });
  };

  for (const risk of risks) {
    const ids = risk.nodeIds.filter((id) => addBox(id));
    for (const id of ids) {
      const box = boxes.get(id)!;
      box.onPath = true;
      box.pathRanks = [...(box.pathRanks ?? []), risk.rank].filter((r, i, all) => all.indexOf(r) === i);
    }
    ids.slice(1).forEach((id, i) => {
      const edge = modelEdges.get(`${ids[i]}→${id}`) ?? offGraphEdge(ids[i], id);
      if (!edge) return;
      addEdge(edge);
      onPathEdges.add(edge.id);
    });
    // A path that ends at a role: the DRA resources that role reaches, in the model's colours.
    const last = known.get(ids.at(-1) ?? '');
    if (last?.tier === 2) for (const e of outOf.get(last.id) ?? []) if (addBox(e.target)) addEdge(e);
  }

  const view = layoutView(boxes, order, edges, []);
  for (const e of view.edges) if (onPathEdges.has(e.id)) e.onPath = true;
  return {
    ...view,
    focus: null,
    path: [],
    totalNodes: model.nodes.length,
    subgraphNodes: boxes.size,
    mode: 'top-risks',
    topRisks: risks.map((r) => ({ ...r })),
  };
}
