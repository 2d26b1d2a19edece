import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { Severity } from '@/lib/analysis/types';

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
  x: number;
  y: number;
}

export interface ViewEdge extends Omit<GraphEdge, 'reasons'> {
  /** Between two consecutive nodes of the highlighted attack path. */
  onPath?: boolean;
  /** At most VIEW_REASON_LIMIT reasons; `reasonCount` tells how many there are. */
  reasons: EdgeReason[];
  reasonCount: number;
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
}

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
}

export interface GraphSearchHit {
  id: string;
  kind: GraphNodeKind;
  name: string;
  namespace?: string;
}
