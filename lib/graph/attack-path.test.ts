import { describe, expect, it } from 'vitest';
import { buildRbacIndex } from '@/lib/authz/rbac-index';
import { clusterRole, crb, Group } from '@/lib/authz/__fixtures__/builders';
import { buildReportWithContext } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { attackPathNodeIds } from './attack-path-nodes';
import { buildIdentityGraph } from './build-graph';
import { buildGraphView, countViewBoxes } from './view';

describe('attack paths on the identity graph', () => {
  it('each demo path with a grant is drawn: identity → binding → role (→ resource), nodes and edges marked, focused on the identity', async () => {
    const { report, context } = buildReportWithContext(await loadDemo());
    const model = buildIdentityGraph(context.engine.rbac);
    let drawn = 0;
    for (const path of report.attackPaths) {
      const ids = attackPathNodeIds(path);
      const view = buildGraphView(model, { path: ids });
      // Every step is drawn, the model's nodes as they are and the others off-graph (a grant that
      // reaches no DRA resource: the graph holds only those).
      expect(view.path).toEqual(ids);
      if (ids.length < 3) continue;
      drawn++;
      expect(view.focus).toBe(ids[0]);
      for (const id of ids) {
        const box = view.nodes.find((n) => n.id === id);
        expect(box?.onPath, id).toBe(true);
        expect(!!box?.offGraph, id).toBe(!model.nodes.some((n) => n.id === id));
      }
      const marked = view.edges.filter((e) => e.onPath).map((e) => `${e.source}→${e.target}`);
      expect(marked).toEqual(expect.arrayContaining(ids.slice(1).map((id, i) => `${ids[i]}→${id}`)));
    }
    expect(drawn).toBeGreaterThanOrEqual(3);
    // Without a path nothing is marked.
    expect(buildGraphView(model).edges.some((e) => e.onPath)).toBe(false);
  });

  it('draws a path whose grant reaches no DRA resource (reading Secrets), off-graph, with the identity’s other grants around it', () => {
    // A group bound to a DRA role (in the graph) and, through another binding, to a role that reads
    // every Secret (not in the graph: it holds only grants that reach DRA resources).
    const model = buildIdentityGraph(
      buildRbacIndex({
        clusterRoles: [
          clusterRole('claims-editor', [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['update'] }]),
          clusterRole('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }]),
        ],
        roles: [],
        clusterRoleBindings: [
          crb('edit-claims', { kind: 'ClusterRole', name: 'claims-editor' }, [Group('team-a')]),
          crb('read-secrets', { kind: 'ClusterRole', name: 'secret-reader' }, [Group('team-a')]),
        ],
        roleBindings: [],
      }),
    );
    const path = ['Group::team-a', 'ClusterRoleBinding::read-secrets', 'ClusterRole::secret-reader'];
    expect(model.nodes.map((n) => n.id)).not.toContain('ClusterRole::secret-reader');
    const view = buildGraphView(model, { path });
    expect(view.mode).toBe('path');
    expect(view.path).toEqual(path);
    const box = (id: string) => view.nodes.find((n) => n.id === id);
    expect(box('Group::team-a')).toMatchObject({ onPath: true });
    expect(box('Group::team-a')?.offGraph).toBeUndefined();
    expect(box('ClusterRoleBinding::read-secrets')).toMatchObject({ onPath: true, offGraph: true });
    expect(box('ClusterRole::secret-reader')).toMatchObject({ onPath: true, offGraph: true });
    expect(view.edges.filter((e) => e.onPath).map((e) => e.id)).toEqual([
      'ClusterRoleBinding::read-secrets→ClusterRole::secret-reader',
      'Group::team-a→ClusterRoleBinding::read-secrets',
    ]);
    // The group's grant in the graph is still shown beside the path.
    expect(box('ClusterRoleBinding::edit-claims')).toBeDefined();
    // The box count the page asks about before drawing counts the off-graph boxes too.
    expect(countViewBoxes(model, { path })).toBe(view.nodes.length);

    // An identity the graph does not hold at all is drawn too, alone with its path.
    const alone = buildGraphView(model, { path: ['Group::team-b', 'ClusterRoleBinding::b-secrets', 'ClusterRole::secret-reader'] });
    expect(alone.mode).toBe('path');
    expect(alone.nodes.map((n) => [n.id, !!n.onPath, !!n.offGraph])).toEqual(
      expect.arrayContaining([
        ['Group::team-b', true, true],
        ['ClusterRoleBinding::b-secrets', true, true],
        ['ClusterRole::secret-reader', true, true],
      ]),
    );
    expect(alone.edges.filter((e) => e.onPath)).toHaveLength(2);
  });
});
