import { describe, expect, it } from 'vitest';
import { MAX_FIT_ZOOM, NODE_HEIGHT, NODE_MIN_FONT_PX, NODE_WIDTH, openingViewport, READABLE_ZOOM } from './layout';

const canvas = { width: 820, height: 600 };
/** Where a world point lands on the screen. */
const screen = (v: { x: number; y: number; zoom: number }, p: { x: number; y: number }) => ({ x: p.x * v.zoom + v.x, y: p.y * v.zoom + v.y });

describe('openingViewport', () => {
  it('keeps the smallest text at 10 px or more, however large the view', () => {
    for (const height of [200, 2_000, 200_000]) {
      const v = openingViewport({ width: 944, height }, canvas);
      expect(v.zoom * NODE_MIN_FONT_PX).toBeGreaterThanOrEqual(10 - 1e-9);
    }
    expect(openingViewport({ width: 944, height: 200_000 }, canvas).zoom).toBeCloseTo(READABLE_ZOOM);
  });

  it('fits a small view whole, centred, without blowing it up', () => {
    const v = openingViewport({ width: 400, height: 100 }, canvas);
    expect(v.zoom).toBeLessThanOrEqual(MAX_FIT_ZOOM);
    const topLeft = screen(v, { x: 0, y: 0 });
    const bottomRight = screen(v, { x: 400, y: 100 });
    expect(topLeft.x).toBeGreaterThan(0);
    expect(bottomRight.x).toBeLessThan(canvas.width);
    expect(Math.abs(topLeft.x - (canvas.width - bottomRight.x))).toBeLessThan(1);
  });

  it('centres the anchor of a view too tall to fit, and never scrolls past its edges', () => {
    const view = { width: 944, height: 20_000 };
    const anchor = { x: 248, y: 9_000 };
    const v = openingViewport(view, canvas, anchor);
    const centre = screen(v, { x: anchor.x + NODE_WIDTH / 2, y: anchor.y + NODE_HEIGHT / 2 });
    expect(centre.y).toBeCloseTo(canvas.height / 2);
    // An anchor at the very top: the view's top stays at the canvas top (no empty band above).
    const top = openingViewport(view, canvas, { x: 0, y: 0 });
    expect(screen(top, { x: 0, y: -44 - 24 }).y).toBeCloseTo(0);
    // Without an anchor, the top-left corner.
    const corner = openingViewport(view, canvas);
    expect(screen(corner, { x: -24, y: -44 - 24 }).x).toBeCloseTo(0);
    expect(screen(corner, { x: -24, y: -44 - 24 }).y).toBeCloseTo(0);
  });
});
