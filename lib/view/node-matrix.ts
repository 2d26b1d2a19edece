import type { SubjectRef } from '@/lib/k8s/types';
import type { NodeReport, NodeStatusWriter, StatusWriterMode } from '@/lib/report/types';
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
  /** The broadest mode in the row, for sorting and colour. */
  worst: StatusWriterMode;
}

export interface NodeMatrix {
  nodes: string[];
  rows: MatrixRow[];
}

/** Most to least dangerous: legacy impersonation and plain RBAC reach any node. */
export const MODE_ORDER: readonly StatusWriterMode[] = ['impersonation', 'rbac', 'constrained-impersonation', 'node-authorizer'];

export const NODE_AUTHORIZER_ROW = 'node-authorizer/own';

/**
 * Rows are identities, columns nodes. Each node's own `system:node:<name>` (Node authorizer, own node)
 * is folded into one row so the matrix shows reporters, not a diagonal of kubelets.
 */
export function buildNodeMatrix(nodes: readonly NodeReport[]): NodeMatrix {
  const names = nodes.map((n) => n.name).sort(compareText);
  const rows = new Map<string, MatrixRow>();
  for (const node of nodes) {
    for (const w of node.statusWriters) {
      const own = w.mode === 'node-authorizer' && w.subject.kind === 'User' && w.subject.name === `system:node:${node.name}`;
      const key = own ? NODE_AUTHORIZER_ROW : subjectKey(w.subject);
      let row = rows.get(key);
      if (!row) {
        row = own
          ? { key, label: 'system:node:<node> (each kubelet, own node)', cells: {}, nodeCount: 0, worst: w.mode }
          : { key, subject: w.subject, label: subjectLabel(w.subject), cells: {}, nodeCount: 0, worst: w.mode };
        rows.set(key, row);
      }
      const cell = (row.cells[node.name] ??= []);
      if (!cell.some((c) => c.mode === w.mode && c.scope === w.scope)) cell.push({ mode: w.mode, scope: w.scope });
      if (MODE_ORDER.indexOf(w.mode) < MODE_ORDER.indexOf(row.worst)) row.worst = w.mode;
    }
  }
  for (const row of rows.values()) {
    row.nodeCount = Object.keys(row.cells).length;
    for (const cell of Object.values(row.cells)) cell.sort((a, b) => MODE_ORDER.indexOf(a.mode) - MODE_ORDER.indexOf(b.mode));
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      (a.key === NODE_AUTHORIZER_ROW ? 1 : 0) - (b.key === NODE_AUTHORIZER_ROW ? 1 : 0) ||
      MODE_ORDER.indexOf(a.worst) - MODE_ORDER.indexOf(b.worst) ||
      b.nodeCount - a.nodeCount ||
      compareText(a.label, b.label),
  );
  return { nodes: names, rows: sorted };
}

/** Claim-status writers of one node grouped by driver, drivers sorted, arbitrary-node writers first. */
export function claimWritersByDriver(node: NodeReport): { driver: string; writers: NodeReport['claimStatusWriters'] }[] {
  const by = new Map<string, NodeReport['claimStatusWriters']>();
  for (const w of node.claimStatusWriters) (by.get(w.driver) ?? by.set(w.driver, []).get(w.driver)!).push(w);
  return [...by]
    .sort(([a], [b]) => compareText(a, b))
    .map(([driver, writers]) => ({
      driver,
      writers: [...writers].sort((a, b) => (a.mode === b.mode ? compareText(subjectLabel(a.subject), subjectLabel(b.subject)) : a.mode === 'arbitrary-node' ? -1 : 1)),
    }));
}
