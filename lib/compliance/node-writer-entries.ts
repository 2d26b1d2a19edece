import { compareStrings } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import { describeSubject } from '@/lib/k8s/refs';
import type { Report } from '@/lib/analysis/types';

// Node writers for drift: one entry per (kind, subject, mode, scope or driver) with the nodes it
// reaches, as writersOfNode lists them node by node. Kept as the report keeps them: a writer of every
// node (or of every node with claims of its driver) is one flag, not 10,000 node names, so the digest
// of a large cluster stays small; only an entry that changed is spelled out node by node.

export interface NodeWriterEntry {
  key: string;
  kind: 'node-status' | 'claim-status';
  subject: SubjectRef;
  mode: string;
  /** node-status: own-node | all-nodes | named; claim-status: the driver. */
  scope: string;
  /** Writes every node (node-status), or every node with claims of its driver (claim-status). */
  everyNode: boolean;
  /** The other nodes it writes, sorted. */
  own: string[];
}

export interface NodeWriterDigest {
  /** Every node of the report, sorted. */
  nodes: string[];
  /** [driver, the nodes with claims of it, sorted]. */
  driverNodes: [string, string[]][];
  entries: NodeWriterEntry[];
}

const sortedUnique = (xs: Iterable<string>) => [...new Set(xs)].sort(compareStrings);

export function nodeWriterDigest(report: Pick<Report, 'nodes' | 'allNodes'>): NodeWriterDigest {
  const out = new Map<string, NodeWriterEntry>();
  const entry = (kind: NodeWriterEntry['kind'], subject: SubjectRef, mode: string, scope: string) => {
    const key = `${kind}|${describeSubject(subject)}|${mode}|${scope}`;
    let e = out.get(key);
    if (!e) out.set(key, (e = { key, kind, subject, mode, scope, everyNode: false, own: [] }));
    return e;
  };
  for (const w of report.allNodes.statusWriters) entry('node-status', w.subject, w.mode, w.scope).everyNode = true;
  for (const w of report.allNodes.claimStatusWriters) entry('claim-status', w.subject, w.mode, w.driver).everyNode = true;
  const driverNodes = new Map<string, string[]>();
  for (const n of report.nodes) {
    for (const w of n.statusWriters) entry('node-status', w.subject, w.mode, w.scope).own.push(n.name);
    for (const w of n.claimStatusWriters) entry('claim-status', w.subject, w.mode, w.driver).own.push(n.name);
    for (const d of n.claimDrivers) {
      let list = driverNodes.get(d);
      if (!list) driverNodes.set(d, (list = []));
      list.push(n.name);
    }
  }
  for (const e of out.values()) e.own = sortedUnique(e.own);
  return {
    nodes: sortedUnique(report.nodes.map((n) => n.name)),
    driverNodes: [...driverNodes].map(([d, nodes]) => [d, sortedUnique(nodes)]),
    entries: [...out.values()],
  };
}

/** The nodes an entry writes, sorted: none when the report has no node it applies to. */
export function entryNodes(digest: NodeWriterDigest, e: NodeWriterEntry, driverNodes = new Map(digest.driverNodes)): string[] {
  if (!e.everyNode) return e.own;
  const every = e.kind === 'node-status' ? digest.nodes : (driverNodes.get(e.scope) ?? []);
  return e.own.length === 0 ? every : sortedUnique([...every, ...e.own]);
}
