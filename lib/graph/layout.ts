import type { GraphTier } from './types';

// Four columns fit a 1440 px screen's canvas (beside the details panel) at READABLE_ZOOM.
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 48;
export const COLUMN_GAP = 48;
export const ROW_GAP = 14;
/** The smallest text of a box, in px at zoom 1 (its subtitle; the name is 13 px). */
export const NODE_MIN_FONT_PX = 12;
/** The zoom at which a box's smallest text is 10 px: a view opens no further out (the reader may zoom out). */
// Rounded up: the browser keeps the zoom in single precision, and 10/12 came back as 9.999996 px.
export const READABLE_ZOOM = Math.ceil((10 / NODE_MIN_FONT_PX) * 1000) / 1000;
/** A small view is not blown up beyond this. */
export const MAX_FIT_ZOOM = 1.1;
/** Room above the first row for the column headers. */
export const HEADER_SPACE = 44;

export interface LayoutInput {
  id: string;
  tier: GraphTier;
  /** Position in the tier before barycentre ordering (the sorted order of the model). */
  order: number;
  /** Drawn at the bottom of its column whatever its neighbours (a "+ N more" box). */
  last?: boolean;
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
  for (const col of columns) col.sort((a, b) => Number(!!a.last) - Number(!!b.last) || a.order - b.order);

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
    keyed.sort((a, b) => Number(!!a.n.last) - Number(!!b.n.last) || (a.bary === b.bary ? a.n.order - b.n.order : a.bary - b.bary));
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

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/**
 * Where a view opens in a canvas of `canvas` px: the whole view when it fits at READABLE_ZOOM or
 * closer (centred, at most MAX_FIT_ZOOM), otherwise READABLE_ZOOM with `anchor` (the focus, or the
 * first box of a path) in the middle, or the top-left corner without one, never past the view's edges.
 * Screen position = world position × zoom + (x, y).
 */
export function openingViewport(
  view: { width: number; height: number },
  canvas: { width: number; height: number },
  anchor?: { x: number; y: number },
  padding = 24,
): Viewport {
  const top = -HEADER_SPACE;
  const w = view.width + 2 * padding;
  const h = view.height - top + 2 * padding;
  const zoom = Math.min(MAX_FIT_ZOOM, Math.max(READABLE_ZOOM, Math.min(canvas.width / w, canvas.height / h)));
  const axis = (size: number, screen: number, start: number, centre: number | undefined): number => {
    if (size * zoom <= screen) return (screen - size * zoom) / 2 - start * zoom;
    if (centre === undefined) return -start * zoom;
    // Centre the anchor, but keep the view's edges at or beyond the canvas edges.
    const want = screen / 2 - centre * zoom;
    return Math.min(-start * zoom, Math.max(screen - (start + size) * zoom, want));
  };
  const cx = anchor ? anchor.x + NODE_WIDTH / 2 : undefined;
  const cy = anchor ? anchor.y + NODE_HEIGHT / 2 : undefined;
  return {
    x: axis(w, canvas.width, -padding, cx),
    y: axis(h, canvas.height, top - padding, cy),
    zoom,
  };
}
