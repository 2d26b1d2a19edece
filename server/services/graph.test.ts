import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphParams, graphQueryString, parseGraphQuery } from '@/lib/api/routes';
import { topRisks } from '@/lib/view/overview';
import { getIdentityGraph, getReport } from './get-report';
import { DEFAULT_CONFIRM_BOXES, getGraphView, TOP_RISKS_DRAWN } from './graph';

// The graph service on the demo: the default view, the box threshold and the URL state the page and
// its client share.

const saved = { source: process.env.DRA_POSTURE_SOURCE, snapshot: process.env.DRA_POSTURE_SNAPSHOT, confirm: process.env.DRA_POSTURE_GRAPH_CONFIRM_BOXES };

beforeAll(() => {
  process.env.DRA_POSTURE_SOURCE = 'demo';
  delete process.env.DRA_POSTURE_SNAPSHOT;
  delete process.env.DRA_POSTURE_GRAPH_CONFIRM_BOXES;
});

afterAll(() => {
  for (const [k, env] of [
    ['source', 'DRA_POSTURE_SOURCE'],
    ['snapshot', 'DRA_POSTURE_SNAPSHOT'],
    ['confirm', 'DRA_POSTURE_GRAPH_CONFIRM_BOXES'],
  ] as const) {
    if (saved[k] === undefined) delete process.env[env];
    else process.env[env] = saved[k];
  }
});

describe('getGraphView', () => {
  it('opens on the top risks of the overview, in its order; any option, or view=overview, shows the overview', async () => {
    const report = await getReport();
    const view = await getGraphView({});
    expect(view.mode).toBe('top-risks');
    expect(view.topRisks!.map((r) => r.issueId)).toEqual(topRisks(report.issues, TOP_RISKS_DRAWN).map((r) => r.issue.id));
    const drawn = view.topRisks!.find((r) => r.nodeIds.length > 0)!;
    expect(view.nodes.filter((n) => n.pathRanks?.includes(drawn.rank)).map((n) => n.id)).toEqual(expect.arrayContaining(drawn.nodeIds));
    expect((await getGraphView({ view: 'overview' })).mode).toBe('overview');
    expect((await getGraphView({ risky: '1' })).mode).toBe('overview');
  });

  it('answers a view above the threshold with its box count and no boxes, and draws it once agreed', async () => {
    const model = await getIdentityGraph();
    expect(model.nodes.length).toBeLessThan(DEFAULT_CONFIRM_BOXES);
    expect((await getGraphView({ all: '1' })).nodes).toHaveLength(model.nodes.length);

    const asked = await getGraphView({ all: '1', confirmAbove: '20' });
    expect(asked.confirm).toEqual({ boxes: model.nodes.length, threshold: 20 });
    expect(asked.nodes).toEqual([]);
    const agreed = await getGraphView({ all: '1', confirmAbove: '20', draw: String(model.nodes.length) });
    expect(agreed.confirm).toBeUndefined();
    expect(agreed.nodes).toHaveLength(model.nodes.length);
    // Agreeing to fewer boxes than the view has is not agreeing to it.
    expect((await getGraphView({ all: '1', confirmAbove: '20', draw: '21' })).confirm).toBeDefined();

    // The server's threshold comes from the environment; a request may only lower it.
    process.env.DRA_POSTURE_GRAPH_CONFIRM_BOXES = '30';
    try {
      expect((await getGraphView({ all: '1' })).confirm?.threshold).toBe(30);
      expect((await getGraphView({ all: '1', confirmAbove: '100000' })).confirm?.threshold).toBe(30);
    } finally {
      delete process.env.DRA_POSTURE_GRAPH_CONFIRM_BOXES;
    }
  });

  it('refuses malformed paging and counts', async () => {
    await expect(getGraphView({ show: ['3:10'] })).rejects.toThrow();
    await expect(getGraphView({ draw: '-1' })).rejects.toThrow();
    await expect(getGraphView({ view: 'everything' })).rejects.toThrow();
  });
});

describe('the graph URL state', () => {
  it('round-trips through the page URL and reaches the API as the service reads it', () => {
    const q = { focus: 'ClusterRole::edit', expand: ['group:0:users'], overview: true, show: ['0:20', '1:30'], draw: 2400, confirmAbove: 40 };
    const url = graphQueryString(q);
    expect(parseGraphQuery(new URLSearchParams(url.slice(1)))).toEqual(q);
    expect(graphParams(q)).toEqual({
      focus: 'ClusterRole::edit',
      expand: ['group:0:users'],
      view: 'overview',
      show: ['0:20', '1:30'],
      draw: '2400',
      confirmAbove: '40',
    });
    expect(parseGraphQuery(new URLSearchParams('show=9:5&draw=lots'))).toEqual({});
  });
});
