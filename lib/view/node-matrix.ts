import type { SubjectRef } from '@/lib/k8s/types';
import type { ClaimStatusWriter, NodeStatusWriter, Report, StatusWriterMode } from '@/lib/report/types';
import { compareText, subjectKey, subjectLabel } from './subjects';

// The reporter × node matrix of nodes/status writers (Nodes page).

export interface MatrixCell {
  mode: StatusWriterMode;
  scope: NodeStatusWriter['scope'];
}

export interface MatrixRow {
  key: string;
  /** undefined for the synthetic "each node's own kubelet" row. */
  subject?: SubjectRef;
  label: string;
  /** Per node name, the ways this row's identity can write that node's status (usually one). */
  cells: Record<string, MatrixCell[]>;
  nodeCount: number;
  /** Writes every node's status (its cells are filled for the shown columns only). */
  everyNode: boolean;
  /** Every shown column has the same cell: drawn once across the row. */
  uniform: boolean;
  /** The broadest mode in the row, for sorting and colour. */
  worst: StatusWriterMode;
}

export interface NodeMatrix {
  /** The node columns shown. */
  nodes: string[];
  /** Nodes left out of the columns (pick them in the node list). */
  hiddenNodes: number;
  rows: MatrixRow[];
}

/** More columns than this and the matrix stops being readable (and renderable) in a browser. */
export const MAX_MATRIX_COLUMNS = 40;

/** Most to least dangerous: legacy impersonation and plain RBAC reach any node. */
export const MODE_ORDER: readonly StatusWriterMode[] = ['impersonation', 'rbac', 'constrained-impersonation', 'node-authorizer'];

export const NODE_AUTHORIZER_ROW = 'node-authorizer/own';

/**
 * Rows are identities, columns nodes. Each node's own `system:node:<name>` (Node authorizer, own node)
 * is folded into one row so the matrix shows reporters, not a diagonal of kubelets. On a large
 * cluster the columns are the nodes with writers of their own (beyond their kubelet) first, capped.
 */
export function buildNodeMatrix(report: Pick<Report, 'allNodes' | 'nodes'>, maxColumns = MAX_MATRIX_COLUMNS): NodeMatrix {
  const all = report.nodes.map((n) => n.name).sort(compareText);
  const isOwnKubelet = (w: NodeStatusWriter, node: string) =>
    w.mode === 'node-authorizer' && w.subject.kind === 'User' && w.subject.name === `system:node:${node}`;
  let shown = all;
  if (all.length > maxColumns) {
    const special = new Set(report.nodes.filter((n) => n.statusWriters.some((w) => !isOwnKubelet(w, n.name))).map((n) => n.name));
    shown = [...all.filter((n) => special.has(n)), ...all.filter((n) => !special.has(n))].slice(0, maxColumns).sort(compareText);
  }
  const shownSet = new Set(shown);
  const rows = new Map<string, MatrixRow>();
  const rowFor = (key: string, w: NodeStatusWriter, own: boolean) => {
    let row = rows.get(key);
    if (!row) {
      row = own
        ? { key, label: 'system:node:<node> (each kubelet, own node)', cells: {}, nodeCount: 0, everyNode: false, uniform: false, worst: w.mode }
        : { key, subject: w.subject, label: subjectLabel(w.subject), cells: {}, nodeCount: 0, everyNode: false, uniform: false, worst: w.mode };
      rows.set(key, row);
    }
    if (MODE_ORDER.indexOf(w.mode) < MODE_ORDER.indexOf(row.worst)) row.worst = w.mode;
    return row;
  };
  const addCell = (row: MatrixRow, node: string, w: NodeStatusWriter) => {
    const cell = (row.cells[node] ??= []);
    if (!cell.some((c) => c.mode === w.mode && c.scope === w.scope)) cell.push({ mode: w.mode, scope: w.scope });
  };
  for (const w of report.allNodes.statusWriters) {
    const row = rowFor(subjectKey(w.subject), w, false);
    row.everyNode = true;
    for (const node of shown) addCell(row, node, w);
  }
  const reached = new Map<string, Set<string>>();
  for (const node of report.nodes) {
    for (const w of node.statusWriters) {
      const own = isOwnKubelet(w, node.name);
      const row = rowFor(own ? NODE_AUTHORIZER_ROW : subjectKey(w.subject), w, own);
      let nodes = reached.get(row.key);
      if (!nodes) reached.set(row.key, (nodes = new Set()));
      nodes.add(node.name);
      if (shownSet.has(node.name)) addCell(row, node.name, w);
    }
  }
  for (const row of rows.values()) {
    row.nodeCount = row.everyNode ? all.length : (reached.get(row.key)?.size ?? 0);
    for (const cell of Object.values(row.cells)) cell.sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode));
    const first = JSON.stringify(row.cells[shown[0]] ?? null);
    row.uniform = row.everyNode && shown.every((n) => JSON.stringify(row.cells[n] ?? null) === first);
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      (a.key === NODE_AUTHORIZER_ROW ? 1 : 0) - (b.key === NODE_AUTHORIZER_ROW ? 1 : 0) ||
      MODE_ORDER.indexOf(a.worst) - MODE_ORDER.indexOf(b.worst) ||
      b.nodeCount - a.nodeCount ||
      compareText(a.label, b.label),
  );
  return { nodes: shown, hiddenNodes: all.length - shown.length, rows: sorted };
}

/** Claim-status writers of one node grouped by driver, drivers sorted, arbitrary-node writers first. */
export function claimWritersByDriver(node: { claimStatusWriters: ClaimStatusWriter[] }): { driver: string; writers: ClaimStatusWriter[] }[] {
  const by = new Map<string, ClaimStatusWriter[]>();
  for (const w of node.claimStatusWriters) (by.get(w.driver) ?? by.set(w.driver, []).get(w.driver)!).push(w);
  return [...by]
    .sort(([a], [b]) => compareText(a, b))
    .map(([driver, writers]) => ({
      driver,
      writers: [...writers].sort((a, b) =>
        a.mode === b.mode ? compareText(subjectLabel(a.subject), subjectLabel(b.subject)) : a.mode === 'arbitrary-node' ? -1 : 1,
      ),
    }));
}
