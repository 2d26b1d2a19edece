import { describeSubjectRef } from './render-markdown';
import type { ClaimStatusWriter, NodeStatusWriter, Report } from './types';

// How node status writers are grouped for people: a writer present on every node with scope
// all-nodes is listed once, the rest per node. Kept in one place because how the report represents
// all-node writers may change.

export interface NodeWriterGroups {
  everyNode: NodeStatusWriter[];
  perNode: { name: string; statusWriters: NodeStatusWriter[]; claimStatusWriters: ClaimStatusWriter[] }[];
}

export function groupNodeWriters(report: Pick<Report, 'nodes'>): NodeWriterGroups {
  if (report.nodes.length === 0) return { everyNode: [], perNode: [] };
  // A writer of all nodes is usually one object on every node: its key is built once.
  const keys = new Map<NodeStatusWriter, string>();
  const writerKey = (w: NodeStatusWriter) => {
    let k = keys.get(w);
    if (k === undefined) keys.set(w, (k = `${w.mode}|${describeSubjectRef(w.subject)}|${w.scope}`));
    return k;
  };
  const seen = new Map<string, number>();
  for (const n of report.nodes) for (const k of new Set(n.statusWriters.filter((w) => w.scope === 'all-nodes').map(writerKey))) seen.set(k, (seen.get(k) ?? 0) + 1);
  const everyNode = report.nodes[0].statusWriters.filter((w) => w.scope === 'all-nodes' && seen.get(writerKey(w)) === report.nodes.length);
  const shared = new Set(everyNode.map(writerKey));
  return {
    everyNode,
    perNode: report.nodes.map((n) => ({ name: n.name, statusWriters: n.statusWriters.filter((w) => !shared.has(writerKey(w))), claimStatusWriters: n.claimStatusWriters })),
  };
}
