import { compareClaimWriters } from '@/lib/analysis/node-writers/claim-status-writers';
import { compareWriters } from '@/lib/analysis/node-writers/node-status-writers';
import type { ClaimStatusWriter, NodeStatusWriter, Report } from './types';

// The report lists writers of every node once (Report.allNodes); this puts a node's full lists back
// together, in the report's order, for views and consumers that look at one node.

export interface NodeWriters {
  statusWriters: NodeStatusWriter[];
  claimStatusWriters: ClaimStatusWriter[];
}

/** Everyone who can write this node's nodes/status and the status.devices of claims allocated on it. */
export function writersOfNode(report: Pick<Report, 'allNodes' | 'nodes'>, name: string): NodeWriters {
  const node = report.nodes.find((n) => n.name === name);
  if (!node) return { statusWriters: [], claimStatusWriters: [] };
  const drivers = new Set(node.claimDrivers);
  return {
    statusWriters: [...report.allNodes.statusWriters, ...node.statusWriters].sort(compareWriters),
    claimStatusWriters: [...report.allNodes.claimStatusWriters.filter((w) => drivers.has(w.driver)), ...node.claimStatusWriters].sort(compareClaimWriters),
  };
}
