import { describe, expect, it } from 'vitest';
import { buildReportWithContext } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { attackPathNodeIds } from './attack-path-nodes';
import { buildIdentityGraph } from './build-graph';
import { buildGraphView } from './view';

describe('attack paths on the identity graph', () => {
  it('each demo path with a grant is drawn: identity → binding → role (→ resource), nodes and edges marked, focused on the identity', async () => {
    const { report, context } = buildReportWithContext(await loadDemo());
    const model = buildIdentityGraph(context.engine.rbac);
    let drawn = 0;
    for (const path of report.attackPaths) {
      const ids = attackPathNodeIds(path);
      const view = buildGraphView(model, { path: ids });
      const present = ids.filter((id) => model.nodes.some((n) => n.id === id));
      expect(view.path).toEqual(present);
      if (present.length < 3) continue;
      drawn++;
      expect(view.focus).toBe(present[0]);
      for (const id of present) expect(view.nodes.find((n) => n.id === id)?.onPath, id).toBe(true);
      const marked = view.edges.filter((e) => e.onPath).map((e) => `${e.source}→${e.target}`);
      expect(marked).toEqual(
        expect.arrayContaining(
          present
            .slice(1)
            .map((id, i) => `${present[i]}→${id}`)
            .filter((k) => view.edges.some((e) => `${e.source}→${e.target}` === k)),
        ),
      );
      expect(marked.length).toBeGreaterThanOrEqual(2);
    }
    expect(drawn).toBeGreaterThanOrEqual(3);
    // Without a path nothing is marked.
    expect(buildGraphView(model).edges.some((e) => e.onPath)).toBe(false);
  });
});
