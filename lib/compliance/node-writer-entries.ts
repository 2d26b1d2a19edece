import { compareStrings as cmp } from '@/lib/k8s/compare-strings';
import type { SubjectRef } from '@/lib/k8s/types';
import { describeSubjectRef } from '@/lib/report/render-markdown';
import type { Report } from '@/lib/report/types';

// Node writers flattened for drift: one entry per (kind, subject, mode, scope or driver) with the
// nodes it reaches. The only place drift reads report.nodes, so a change in how the report
// represents all-node writers is absorbed here.

export interface NodeWriterEntry {
  key: string;
  kind: 'node-status' | 'claim-status';
  subject: SubjectRef;
  mode: string;
  /** node-status: own-node | all-nodes | named; claim-status: the driver. */
  scope: string;
  nodes: string[];
}

export function nodeWriterEntries(report: Pick<Report, 'nodes' | 'allNodes'>): Map<string, NodeWriterEntry> {
  const out = new Map<string, NodeWriterEntry>();
  const add = (kind: NodeWriterEntry['kind'], subject: SubjectRef, mode: string, scope: string, node: string) => {
    const key = `${kind}|${describeSubjectRef(subject)}|${mode}|${scope}`;
    let e = out.get(key);
    if (!e) out.set(key, (e = { key, kind, subject, mode, scope, nodes: [] }));
    if (e.nodes[e.nodes.length - 1] !== node) e.nodes.push(node);
  };
  // Writers of every node reach every node; those of every claim of a driver, the nodes with its claims.
  for (const n of report.nodes) {
    for (const w of report.allNodes.statusWriters) add('node-status', w.subject, w.mode, w.scope, n.name);
    for (const w of n.statusWriters) add('node-status', w.subject, w.mode, w.scope, n.name);
    const drivers = new Set(n.claimDrivers);
    for (const w of report.allNodes.claimStatusWriters) if (drivers.has(w.driver)) add('claim-status', w.subject, w.mode, w.driver, n.name);
    for (const w of n.claimStatusWriters) add('claim-status', w.subject, w.mode, w.driver, n.name);
  }
  for (const e of out.values()) e.nodes = [...new Set(e.nodes)].sort(cmp);
  return out;
}
