import { describe, expect, it } from 'vitest';
import { buildRbacIndex } from '@/lib/authz/rbac-index';
import { clusterRole, crb, Group, rb, SA, User } from '@/lib/authz/__fixtures__/builders';
import { annotateFindings, buildIdentityGraph } from './build-graph';
import { groupNodeId, moreNodeId, nodeId } from './node-id';
import { ALL_NAMESPACES, buildGraphView, countViewBoxes, FOCUS_BOX_LIMIT, FOCUS_COLUMN_PAGE } from './view';
import type { GraphViewOptions } from './types';

const DRA = 'resource.k8s.io';
const TEAMS = 50;

// One group of developers bound in 50 team namespaces to a ClusterRole that writes claims, beside
// other teams' service accounts: focusing on the group reaches 50 RoleBindings.
function cluster() {
  const roleBindings = [];
  for (let i = 0; i < TEAMS; i++) {
    roleBindings.push(rb(`team-${i}`, 'devs-claims', { kind: 'ClusterRole', name: 'claim-writer' }, [Group('devs')]));
    roleBindings.push(rb(`team-${i}`, 'runner-claims', { kind: 'ClusterRole', name: 'claim-writer' }, [SA(`team-${i}`, 'runner'), SA(`team-${i}`, 'batch')]));
  }
  return {
    clusterRoles: [
      clusterRole('claim-writer', [{ apiGroups: [DRA], resources: ['resourceclaims'], verbs: ['create', 'delete'] }]),
      clusterRole('slice-writer', [{ apiGroups: [DRA], resources: ['resourceslices'], verbs: ['update'] }]),
    ],
    roles: [],
    clusterRoleBindings: [crb('slices', { kind: 'ClusterRole', name: 'slice-writer' }, [User('ops')])],
    roleBindings,
  };
}

const model = buildIdentityGraph(buildRbacIndex(cluster()));
const devs = nodeId('Group', undefined, 'devs');

describe('a focused view with many neighbours', () => {
  const view = buildGraphView(model, { focus: devs });
  const column = (tier: number) => view.nodes.filter((n) => n.tier === tier);

  it('pages the long column: a page of boxes and one "+ N more" box, within the focus limit', () => {
    expect(view.nodes.length).toBeLessThanOrEqual(FOCUS_BOX_LIMIT);
    const bindings = column(1);
    expect(bindings).toHaveLength(FOCUS_COLUMN_PAGE);
    const more = bindings.find((n) => n.id === moreNodeId(1))!;
    expect(more.memberCount).toBe(TEAMS - (FOCUS_COLUMN_PAGE - 1));
    expect(more.hiddenBoxes).toBe(TEAMS - (FOCUS_COLUMN_PAGE - 1));
    expect(more.name).toBe('RoleBindings');
    expect(view.paged).toEqual({ 1: TEAMS - (FOCUS_COLUMN_PAGE - 1) });
  });

  it('keeps every path: the focus reaches each shown binding or the "+ N more" box, and the role through both', () => {
    const fromFocus = view.edges.filter((e) => e.source === devs).map((e) => e.target);
    expect(fromFocus.sort()).toEqual(
      column(1)
        .map((n) => n.id)
        .sort(),
    );
    const role = nodeId('ClusterRole', undefined, 'claim-writer');
    expect(view.edges.some((e) => e.source === moreNodeId(1) && e.target === role)).toBe(true);
    // The other teams' service accounts are not on a path through the group.
    expect(view.nodes.some((n) => n.kind === 'ServiceAccount')).toBe(false);
  });

  it('shows first the boxes named by the worst findings', () => {
    const flagged = nodeId('RoleBinding', 'team-42', 'devs-claims');
    const annotated = annotateFindings(model, [
      {
        id: 'f',
        check: 'DRA006',
        severity: 'high',
        issueId: 'i',
        subjects: [{ kind: 'Group', name: 'devs' }],
        objects: [{ kind: 'RoleBinding', namespace: 'team-42', name: 'devs-claims' }],
        evidence: [],
      },
    ]);
    expect(buildGraphView(model, { focus: devs }).nodes.some((n) => n.id === flagged)).toBe(false);
    expect(buildGraphView(annotated, { focus: devs }).nodes.some((n) => n.id === flagged)).toBe(true);
  });

  it('opens a page at a time, and fully', () => {
    const more = buildGraphView(model, { focus: devs, show: { 1: 30 } });
    expect(more.nodes.filter((n) => n.tier === 1 && n.id !== moreNodeId(1))).toHaveLength(30);
    expect(more.nodes.find((n) => n.id === moreNodeId(1))!.memberCount).toBe(TEAMS - 30);
    const all = buildGraphView(model, { focus: devs, show: { 1: TEAMS } });
    expect(all.nodes.filter((n) => n.tier === 1)).toHaveLength(TEAMS);
    expect(all.paged).toBeUndefined();
  });

  it('never pages an unfocused view', () => {
    const overview = buildGraphView(model, { expandAll: true });
    expect(overview.nodes.some((n) => n.hiddenBoxes !== undefined)).toBe(false);
    expect(overview.nodes).toHaveLength(model.nodes.length);
  });
});

describe('countViewBoxes', () => {
  it('counts the boxes the view draws, for every kind of view, without drawing it', () => {
    const cases: GraphViewOptions[] = [
      {},
      { expandAll: true },
      { riskyOnly: true },
      { focus: devs },
      { focus: devs, show: { 1: 25 } },
      { focus: nodeId('ClusterRole', undefined, 'claim-writer') },
      { expand: [groupNodeId(0, ALL_NAMESPACES)] },
      { expand: [groupNodeId(1, 'ns/team-3')] },
    ];
    for (const options of cases) expect(countViewBoxes(model, options), JSON.stringify(options)).toBe(buildGraphView(model, options).nodes.length);
    // "Expand all groups" draws every node of the graph.
    expect(countViewBoxes(model, { expandAll: true })).toBe(model.nodes.length);
  });
});
