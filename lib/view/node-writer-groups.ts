import type { Evidence, NodeStatusWriter, Report, StatusWriterMode } from '@/lib/analysis/types';
import type { SubjectRef } from '@/lib/k8s/types';
import { compareStrings, describeSubject, refKey } from '@/lib/k8s/refs';
import { MODE_ORDER } from './node-matrix';

// The Nodes page's writers, grouped by how an identity writes nodes/status: the mode (Node
// authorizer, constrained or legacy impersonation, plain RBAC) and how far it reaches (its own node,
// some nodes, all nodes). Each identity is in exactly one group, that of its broadest way, so the
// group counts add up to the number of identities; its other ways are listed on its row.

/** How far a way of writing reaches: the report's `named` is "some nodes" here. */
export type WriterReach = 'all-nodes' | 'some-nodes' | 'own-node';

export const REACH_ORDER: readonly WriterReach[] = ['all-nodes', 'some-nodes', 'own-node'];
export const REACH_LABEL: Record<WriterReach, string> = { 'all-nodes': 'all nodes', 'some-nodes': 'some nodes', 'own-node': 'own node' };

export const reachOf = (scope: NodeStatusWriter['scope']): WriterReach => (scope === 'named' ? 'some-nodes' : scope);

/** What an impersonating writer acts as, in the legend's words (legacy impersonation is not always a kubelet). */
export type ActsAs = 'a kubelet' | 'system:masters' | 'a status writer';

export interface WriterWay {
  mode: StatusWriterMode;
  scope: NodeStatusWriter['scope'];
  /** Whom it impersonates, as the analysis describes the target (impersonation modes only). */
  target?: string;
}

export interface GroupedWriter {
  key: string;
  /** undefined for the folded "each kubelet, own node" row. */
  subject?: SubjectRef;
  label: string;
  /** How many identities this row stands for (each node's kubelet is one row). */
  identities: number;
  /** Every way it writes, broadest first (the first decides its group). */
  ways: WriterWay[];
  everyNode: boolean;
  /** Nodes whose status it writes (every node when everyNode). */
  nodeCount: number;
  /** The nodes, sorted, when not every node. */
  nodes: string[];
  /** The evidence of its broadest way (a bounded list: the page shows it on demand). */
  via: Evidence[];
}

export interface WriterGroup {
  key: string;
  mode: StatusWriterMode;
  reach: WriterReach;
  /** Identities in the group (the kubelet row counts each kubelet). */
  identities: number;
  /** For impersonation groups: how many act as a kubelet, as system:masters, as another status writer. */
  actsAs: Partial<Record<ActsAs, number>>;
  rows: GroupedWriter[];
}

export interface NodeWriterGroups {
  /** Every identity that can write some node's status (kubelets counted one by one). */
  identities: number;
  nodeCount: number;
  groups: WriterGroup[];
}

export const groupKey = (mode: StatusWriterMode, reach: WriterReach) => `${mode}/${reach}`;

export const KUBELET_ROW = 'node-authorizer/own';

const isOwnKubelet = (w: NodeStatusWriter, node: string) =>
  w.mode === 'node-authorizer' && w.scope === 'own-node' && w.subject.kind === 'User' && w.subject.name === `system:node:${node}`;

/**
 * Whom an impersonating writer acts as, read from the note the node-status analysis writes for it
 * ("impersonates <target> (<mode> impersonation)", "impersonates <target> (arbitrary-node…)").
 */
export function impersonationTarget(via: readonly Evidence[]): string | undefined {
  for (const e of via) {
    if (e.type !== 'note') continue;
    const m = /impersonates (.+?) \((?:(?:legacy|serviceaccount|user-info) impersonation|(?:arbitrary|associated)-node)/.exec(e.text);
    if (m) return m[1];
  }
  return undefined;
}

/** The legend's three kinds of identity a legacy impersonator may act as. */
export function actsAsOf(target: string | undefined): ActsAs | undefined {
  if (!target) return undefined;
  if (target.startsWith('any node identity') || target.startsWith('system:node:')) return 'a kubelet';
  if (target.includes('system:masters')) return 'system:masters';
  return 'a status writer';
}

interface Acc {
  row: GroupedWriter;
  best: NodeStatusWriter;
  nodes: Set<string>;
  ways: Map<string, WriterWay>;
}

const rank = (w: { mode: StatusWriterMode; scope: NodeStatusWriter['scope'] }) => REACH_ORDER.indexOf(reachOf(w.scope)) * 10 + MODE_ORDER.indexOf(w.mode);

/**
 * Groups the writers of a set of nodes: `allNodes` writers reach every one of `nodeNames`, each
 * node's own writers only it. Pass the whole report for the cluster, or one node's lists.
 */
export function groupNodeWriters(writers: Pick<Report, 'allNodes' | 'nodes'>, nodeCount = writers.nodes.length): NodeWriterGroups {
  const acc = new Map<string, Acc>();
  let kubelets = 0;
  const add = (w: NodeStatusWriter, node: string | undefined) => {
    const own = node !== undefined && isOwnKubelet(w, node);
    if (own) kubelets++;
    const key = own ? KUBELET_ROW : refKey(w.subject);
    let a = acc.get(key);
    if (!a) {
      a = {
        row: {
          key,
          subject: own ? undefined : w.subject,
          label: own ? 'system:node:<node> (each kubelet, own node)' : describeSubject(w.subject),
          identities: 1,
          ways: [],
          everyNode: false,
          nodeCount: 0,
          nodes: [],
          via: [],
        },
        best: w,
        nodes: new Set(),
        ways: new Map(),
      };
      acc.set(key, a);
    } else if (rank(w) < rank(a.best)) a.best = w;
    if (node === undefined) a.row.everyNode = true;
    else a.nodes.add(node);
    const wayKey = `${w.mode}|${w.scope}`;
    if (!a.ways.has(wayKey)) a.ways.set(wayKey, { mode: w.mode, scope: w.scope, target: impersonationTarget(w.via) });
  };
  for (const w of writers.allNodes.statusWriters) add(w, undefined);
  for (const n of writers.nodes) for (const w of n.statusWriters) add(w, n.name);

  const groups = new Map<string, WriterGroup>();
  for (const a of acc.values()) {
    const row = a.row;
    if (row.key === KUBELET_ROW) {
      row.identities = kubelets;
      // One node's own kubelet is itself, not "each kubelet".
      if (kubelets === 1) Object.assign(row, { subject: a.best.subject, label: describeSubject(a.best.subject) });
    }
    row.ways = [...a.ways.values()].sort((x, y) => rank(x) - rank(y));
    row.nodeCount = row.everyNode ? nodeCount : a.nodes.size;
    row.nodes = row.everyNode ? [] : [...a.nodes].sort(compareStrings);
    row.via = a.best.via;
    const reach = reachOf(a.best.scope);
    const key = groupKey(a.best.mode, reach);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, mode: a.best.mode, reach, identities: 0, actsAs: {}, rows: [] }));
    g.identities += row.identities;
    g.rows.push(row);
    const kind = a.best.mode === 'impersonation' ? actsAsOf(row.ways[0].target) : undefined;
    if (kind) g.actsAs[kind] = (g.actsAs[kind] ?? 0) + 1;
  }
  const sorted = [...groups.values()].sort(
    (a, b) => REACH_ORDER.indexOf(a.reach) - REACH_ORDER.indexOf(b.reach) || MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode),
  );
  for (const g of sorted) g.rows.sort((a, b) => b.nodeCount - a.nodeCount || compareStrings(a.label, b.label));
  return { identities: sorted.reduce((n, g) => n + g.identities, 0), nodeCount, groups: sorted };
}

export interface WriterGroupPage {
  group: string;
  /** Rows matching the filter. */
  total: number;
  offset: number;
  rows: GroupedWriter[];
}

export const GROUP_PAGE_SIZE = 20;
/** A row lists at most this many node names (the count says the rest). */
export const ROW_NODE_NAMES = 12;

/** One page of a group's rows, optionally filtered by a case-insensitive substring of the identity's name. */
export function pageOfGroup(group: WriterGroup, options: { offset?: number; limit?: number; q?: string } = {}): WriterGroupPage {
  const q = options.q?.trim().toLowerCase() ?? '';
  const rows = q ? group.rows.filter((r) => r.label.toLowerCase().includes(q)) : group.rows;
  const limit = Math.max(1, Math.min(options.limit ?? GROUP_PAGE_SIZE, 100));
  const offset = Math.max(0, Math.min(options.offset ?? 0, Math.max(0, rows.length - 1)));
  return {
    group: group.key,
    total: rows.length,
    offset,
    rows: rows.slice(offset, offset + limit).map((r) => ({ ...r, nodes: r.nodes.slice(0, ROW_NODE_NAMES) })),
  };
}
