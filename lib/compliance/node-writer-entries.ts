import { compareStrings } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import { describeSubject } from '@/lib/k8s/refs';
import type { Report } from '@/lib/analysis/types';
import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';

// Node writers flattened for drift: one entry per (kind, subject, mode, scope or driver) with the
// nodes it reaches, each node's full lists taken from writersOfNode.

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
    const key = `${kind}|${describeSubject(subject)}|${mode}|${scope}`;
    let e = out.get(key);
    if (!e) out.set(key, (e = { key, kind, subject, mode, scope, nodes: [] }));
    if (e.nodes[e.nodes.length - 1] !== node) e.nodes.push(node);
  };
  for (const n of report.nodes) {
    const { statusWriters, claimStatusWriters } = writersOfNode(report, n);
    for (const w of statusWriters) add('node-status', w.subject, w.mode, w.scope, n.name);
    for (const w of claimStatusWriters) add('claim-status', w.subject, w.mode, w.driver, n.name);
  }
  for (const e of out.values()) e.nodes = [...new Set(e.nodes)].sort(compareStrings);
  return out;
}
