import type { ClaimStatusWriter, NodeStatusWriter, Report } from './types';

// How node writers are grouped for people (HTML report): writers of every node once, the rest per
// node, as the report itself lists them.

export interface NodeWriterGroups {
  everyNode: NodeStatusWriter[];
  everyClaim: ClaimStatusWriter[];
  perNode: { name: string; statusWriters: NodeStatusWriter[]; claimDrivers: string[]; claimStatusWriters: ClaimStatusWriter[] }[];
}

export function groupNodeWriters(report: Pick<Report, 'nodes' | 'allNodes'>): NodeWriterGroups {
  return {
    everyNode: report.allNodes.statusWriters,
    everyClaim: report.allNodes.claimStatusWriters,
    perNode: report.nodes.map((n) => ({
      name: n.name,
      statusWriters: n.statusWriters,
      claimDrivers: n.claimDrivers,
      claimStatusWriters: n.claimStatusWriters,
    })),
  };
}
