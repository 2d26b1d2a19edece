import type { GraphTier } from './types';

export const NODE_WIDTH = 232;
export const NODE_HEIGHT = 48;
export const COLUMN_GAP = 88;
export const ROW_GAP = 14;

export interface LayoutInput {
  id: string;
  tier: GraphTier;
  /** Position in the tier before barycentre ordering (the sorted order of the model). */
  order: number;
}

export interface LayoutResult {
  positions: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
}

/**
 * Deterministic layered layout: one column per tier. The last column keeps its given order; every
 * column to its left is ordered by the barycentre of its neighbours in the column to the right (ties
 * by the given order), which removes most crossings of a 4-tier DAG. Columns are centred vertically.
 */
export function layoutColumns(nodes: readonly LayoutInput[], edges: readonly { source: string; target: string }[]): LayoutResult {
  const columns: LayoutInput[][] = [[], [], [], []];
  for (const n of nodes) columns[n.tier].push(n);
  for (const col of columns) col.sort((a, b) => a.order - b.order);

  const targets = new Map<string, string[]>();
  for (const e of edges) {
    const list = targets.get(e.source);
    if (list) list.push(e.target);
    else targets.set(e.source, [e.target]);
  }

  const rank = new Map<string, number>();
  const lastFilled = [3, 2, 1, 0].find((t) => columns[t].length > 0) ?? 3;
  columns[lastFilled].forEach((n, i) => rank.set(n.id, i));
  for (let t = lastFilled - 1; t >= 0; t--) {
    const keyed = columns[t].map((n) => {
      const ranks = (targets.get(n.id) ?? []).map((id) => rank.get(id)).filter((r): r is number => r !== undefined);
      const bary = ranks.length ? ranks.reduce((a, b) => a + b, 0) / ranks.length : Number.POSITIVE_INFINITY;
      return { n, bary };
    });
    keyed.sort((a, b) => (a.bary === b.bary ? a.n.order - b.n.order : a.bary - b.bary));
    columns[t] = keyed.map((k) => k.n);
    columns[t].forEach((n, i) => rank.set(n.id, i));
  }

  const tallest = Math.max(1, ...columns.map((c) => c.length));
  const height = tallest * (NODE_HEIGHT + ROW_GAP) - ROW_GAP;
  const positions = new Map<string, { x: number; y: number }>();
  columns.forEach((col, t) => {
    const colHeight = col.length * (NODE_HEIGHT + ROW_GAP) - ROW_GAP;
    const top = Math.round((height - colHeight) / 2);
    col.forEach((n, i) => positions.set(n.id, { x: t * (NODE_WIDTH + COLUMN_GAP), y: top + i * (NODE_HEIGHT + ROW_GAP) }));
  });
  return { positions, width: 4 * NODE_WIDTH + 3 * COLUMN_GAP, height };
}
