import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { CheckId, Severity } from '@/lib/analysis/types';

// The identity graph: identities → bindings → roles → DRA resources (DESIGN.md §7).

/** Column of a node: 0 identities, 1 bindings, 2 roles, 3 DRA resources and subresources. */
export type GraphTier = 0 | 1 | 2 | 3;

export type GraphNodeKind = 'User' | 'Group' | 'ServiceAccount' | 'ClusterRoleBinding' | 'RoleBinding' | 'ClusterRole' | 'Role' | 'Resource';

export interface GraphNode {
  /** `Kind:namespace:name` (namespaces never contain ':'), e.g. `User::alice`, `Resource::resourceclaims/status`. */
  id: string;
  kind: GraphNodeKind;
  tier: GraphTier;
  name: string;
  namespace?: string;
  /** For resources: the API group. */
  apiGroup?: string;
  /** Collapse group within the tier: `ns/<namespace>`, `users`, `groups`, `cluster`, or `resources`. */
  group: string;
  /** On a path that grants a write to a sensitive DRA resource (or wildcard writes). */
  risky: boolean;
  /** The most severe finding naming this node as a subject or object, and how many do. */
  worstFinding?: Severity;
  findingCount?: number;
}

export type EdgeReason =
  | { type: 'subject'; binding: ObjectRef; subject: SubjectRef }
  | { type: 'roleRef'; binding: ObjectRef; role: ObjectRef }
  | { type: 'rule'; role: ObjectRef; ruleIndex: number; rule: PolicyRule; aggregatedFrom?: string; resource: string };

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: 'subject' | 'roleRef' | 'rule';
  risky: boolean;
  /**
   * A finding reports this grant (over-privilege): its evidence names the binding and role (and the
   * subject, or the role's rule for a rule edge). What the graph draws orange.
   */
  flagged?: boolean;
  /** rule edges: the verbs granted on the target resource (union over matching rules). */
  verbs: string[];
  reasons: EdgeReason[];
}

export interface GraphModel {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** A node as displayed: a real node or a collapsed group standing for several. */
export interface ViewNode extends GraphNode {
  /** On the highlighted attack path. */
  onPath?: boolean;
  /** Set for a collapsed group: how many real nodes it stands for. */
  memberCount?: number;
  /**
   * Set for the "+ N more" box of a paged column in a focused view: how many boxes it hides (each
   * a node or a collapsed group; `memberCount` counts the nodes).
   */
  hiddenBoxes?: number;
  /** In the top-risks view: the ranks (1 = highest) of the top risks whose attack path passes here. */
  pathRanks?: number[];
  /** Drawn for an attack path although the identity graph has no such node (its role reaches no DRA resource). */
  offGraph?: boolean;
  x: number;
  y: number;
}

export interface ViewEdge extends Omit<GraphEdge, 'reasons'> {
  /** Between two consecutive nodes of the highlighted attack path. */
  onPath?: boolean;
  /** At most VIEW_REASON_LIMIT reasons; `reasonCount` tells how many there are. */
  reasons: EdgeReason[];
  reasonCount: number;
  /**
   * The model's edges this one stands for (more than one between collapsed groups) and how many of
   * them a finding reports. `flagged` (orange) only when all of them are: an edge between two groups
   * of thousands is not orange because one grant among them is.
   */
  grants: number;
  flaggedGrants: number;
  /**
   * Some but not all of them are reported (drawn dashed orange): on a large cluster every edge between
   * groups mixes reported and other grants, and the collapsed overview would show no finding at all.
   */
  partlyFlagged?: boolean;
}

export interface GraphViewOptions {
  /** A node id: show only the paths through it. */
  focus?: string;
  /** Group ids (`group:<tier>:<group>`) to show expanded; every other group is collapsed. */
  expand?: string[];
  /** Expand every group. */
  expandAll?: boolean;
  /** Keep only risky edges (and the nodes on them). */
  riskyOnly?: boolean;
  /** Node ids of an attack path (identity → binding → role → resource): drawn highlighted, focused on its first node. */
  path?: string[];
  /**
   * Boxes shown in a paged column of a focused view, by tier (the rest stand behind one "+ N more"
   * box); unset: FOCUS_COLUMN_PAGE - 1.
   */
  show?: Partial<Record<GraphTier, number>>;
}

/** One of the top risks drawn by the default view: its issue and its attack path's node ids. */
export interface TopRiskPath {
  /** 1 = the highest-ranked issue (the overview's order). */
  rank: number;
  issueId: string;
  check: CheckId;
  severity: Severity;
  title: string;
  score: number;
  /** Identity → binding → role (→ resource). Empty when the issue has no attack path with a grant. */
  nodeIds: string[];
}

/** The view has this many boxes, more than the caller agreed to draw: nothing was laid out. */
export interface DrawConfirmation {
  boxes: number;
  /** Views with more boxes than this ask first. */
  threshold: number;
}

/**
 * `top-risks`: the attack paths of the highest-ranked issues (the default); `overview`: every path,
 * collapsed by namespace; `focus`: the paths through one node; `path`: one issue's attack path.
 */
export type GraphViewMode = 'top-risks' | 'overview' | 'focus' | 'path';

export interface GraphView {
  nodes: ViewNode[];
  edges: ViewEdge[];
  focus: string | null;
  /** The highlighted attack path's node ids, in order (empty when none). */
  path: string[];
  /** Node count of the whole model and of the (possibly focused) subgraph before collapsing. */
  totalNodes: number;
  subgraphNodes: number;
  width: number;
  height: number;
  mode: GraphViewMode;
  /** top-risks mode: the risks considered, drawn or not (no attack path in the identity graph). */
  topRisks?: TopRiskPath[];
  /** Set instead of boxes when the view would draw more than the threshold (`nodes` and `edges` are empty). */
  confirm?: DrawConfirmation;
  /** Boxes per tier hidden behind "+ N more" boxes (focused views with more than FOCUS_BOX_LIMIT boxes). */
  paged?: Partial<Record<GraphTier, number>>;
}

export interface GraphSearchHit {
  id: string;
  kind: GraphNodeKind;
  name: string;
  namespace?: string;
}
