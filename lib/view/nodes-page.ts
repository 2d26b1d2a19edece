import type { BlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
import type { ClaimStatusWriter, NodeReport, Report } from '@/lib/analysis/types';
import { summarizeBlastRadius, type BlastSummary } from './node-blast-summary';
import { claimWritersByDriver } from './node-matrix';
import { groupNodeWriters, type NodeWriterGroups } from './node-writer-groups';

// One node as the Nodes page shows it at the top: its writers and its blast radius, bounded in size
// whatever the cluster's (a node switch sends only this).

export interface NodeView {
  name: string;
  /** The writers of this node's nodes/status, grouped as the cluster's are (each group's first rows only). */
  statusWriters: NodeWriterGroups;
  claimWriters: { driver: string; writers: ClaimStatusWriter[] }[];
  blastRadius: BlastSummary;
}

/** Rows listed per group of one node's writers; the group's count and the matrix give the rest. */
export const NODE_GROUP_ROWS = 5;

/** The element id of a writer group's section in the matrix (#writers-<mode>-<reach>): a node's panel links to it. */
export const groupAnchor = (key: string) => `writers-${key.replace('/', '-')}`;

export function buildNodeView(report: Pick<Report, 'allNodes' | 'nodes'>, node: NodeReport, nodeCount: number, radius: BlastRadius): NodeView {
  const grouped = groupNodeWriters({ allNodes: report.allNodes, nodes: [node] }, nodeCount);
  return {
    name: node.name,
    statusWriters: { ...grouped, groups: grouped.groups.map((g) => ({ ...g, rows: g.rows.slice(0, NODE_GROUP_ROWS) })) },
    claimWriters: claimWritersByDriver(writersOfNode(report, node)),
    blastRadius: summarizeBlastRadius(radius),
  };
}
