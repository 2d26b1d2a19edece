import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { ClaimStatusWriter, NodeReport, NodeStatusWriter, Report } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import { compareClaimWriters } from './claim-status-writers';
import { compareWriters } from './node-writer-accumulator';

// The one shape of node writers, as the report carries it: writers that reach every node once in
// `allNodes`, each node with only its own. `writersOfNode` is the only way back to a node's full lists.

export type NodeWriterLists = Pick<Report, 'allNodes' | 'nodes'>;

/** Writers of every node's nodes/status and of the status.devices of the claims allocated there. */
export function listNodeWriters(ctx: AnalysisContext): NodeWriterLists {
  const statusWriters = ctx.nodeStatusWriters;
  const claimWriters = ctx.claimWriters.run();
  const names = [...new Set([...ctx.engine.nodeNames, ...statusWriters.byNode.keys(), ...claimWriters.byNode.keys()])].sort(compareStrings);
  const nodes: NodeReport[] = names.map((name) => ({
    name,
    statusWriters: statusWriters.byNode.get(name) ?? [],
    claimDrivers: claimWriters.drivers.get(name) ?? [],
    claimStatusWriters: claimWriters.byNode.get(name) ?? [],
  }));
  return { allNodes: { statusWriters: statusWriters.allNodes, claimStatusWriters: claimWriters.allNodes }, nodes };
}

export interface NodeWriters {
  statusWriters: NodeStatusWriter[];
  claimStatusWriters: ClaimStatusWriter[];
}

/**
 * Everyone who can write this node's nodes/status and the status.devices of claims allocated on it:
 * the all-node writers (those of its claims' drivers) and its own, in the report's order.
 */
export function writersOfNode(writers: NodeWriterLists, node: string | NodeReport): NodeWriters {
  const own = typeof node === 'string' ? writers.nodes.find((n) => n.name === node) : node;
  if (!own) return { statusWriters: [], claimStatusWriters: [] };
  const drivers = new Set(own.claimDrivers);
  return {
    statusWriters: [...writers.allNodes.statusWriters, ...own.statusWriters].sort(compareWriters),
    claimStatusWriters: [...writers.allNodes.claimStatusWriters.filter((w) => drivers.has(w.driver)), ...own.claimStatusWriters].sort(compareClaimWriters),
  };
}
