import { describe, expect, it } from 'vitest';
import { buildRbacIndex } from '@/lib/authz/rbac-index';
import { clusterRole, crb, Group, rb, role, SA, User } from '@/lib/authz/__fixtures__/builders';
import { buildIdentityGraph } from './build-graph';
import { layoutColumns } from './layout';
import { groupNodeId, nodeId, parseNodeId } from './node-id';
import { ALL_NAMESPACES, AUTO_EXPAND_LIMIT, buildGraphView, focusSubgraph, MAX_COLUMN_BOXES, searchGraph } from './view';

const DRA = 'resource.k8s.io';

function cluster() {
  return {
    clusterRoles: [
      clusterRole('slice-writer', [{ apiGroups: [DRA], resources: ['resourceslices'], verbs: ['create', 'update'] }]),
      clusterRole('claim-reader', [{ apiGroups: [DRA], resources: ['resourceclaims'], verbs: ['get', 'list'] }]),
      clusterRole('pods-only', [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }]),
      clusterRole('dra-wild', [{ apiGroups: [DRA], resources: ['*'], verbs: ['*'] }]),
      clusterRole('driver-assoc', [
        { apiGroups: [DRA], resources: ['resourceclaims/driver'], verbs: ['associated-node:update'], resourceNames: ['gpu.example.com'] },
      ]),
    ],
    roles: [role('team-a', 'claims', [{ apiGroups: [DRA], resources: ['resourceclaims'], verbs: ['create'] }])],
    clusterRoleBindings: [
      crb('driver', { kind: 'ClusterRole', name: 'slice-writer' }, [SA('drivers', 'plugin')]),
      crb('readers', { kind: 'ClusterRole', name: 'claim-reader' }, [Group('sre'), User('<img src=x onerror=1>')]),
      crb('pods', { kind: 'ClusterRole', name: 'pods-only' }, [User('bob')]),
      crb('assoc', { kind: 'ClusterRole', name: 'driver-assoc' }, [SA('drivers', 'plugin')]),
    ],
    roleBindings: [rb('team-a', 'claims', { kind: 'Role', name: 'claims' }, [SA(undefined, 'runner'), User('alice')])],
  };
}

describe('buildIdentityGraph', () => {
  const model = buildIdentityGraph(buildRbacIndex(cluster()));
  const ids = model.nodes.map((n) => n.id);

  it('keeps only roles reaching DRA resources, their bindings and subjects', () => {
    expect(ids).not.toContain(nodeId('ClusterRole', undefined, 'pods-only'));
    expect(ids).not.toContain(nodeId('User', undefined, 'bob'));
    expect(ids).toContain(nodeId('ServiceAccount', 'team-a', 'runner'));
    expect(ids).toContain(nodeId('User', undefined, '<img src=x onerror=1>'));
    // an unbound wildcard role is still shown
    expect(ids).toContain(nodeId('ClusterRole', undefined, 'dra-wild'));
  });

  it('marks writes to sensitive resources risky, and the path leading to them', () => {
    const edge = (s: string, t: string) => model.edges.find((e) => e.source === s && e.target === t)!;
    const sliceEdge = edge(nodeId('ClusterRole', undefined, 'slice-writer'), nodeId('Resource', undefined, 'resourceslices'));
    expect(sliceEdge.risky).toBe(true);
    expect(sliceEdge.verbs).toEqual(['create', 'update']);
    expect(sliceEdge.reasons[0]).toMatchObject({ type: 'rule', ruleIndex: 0, resource: 'resourceslices' });
    expect(edge(nodeId('ServiceAccount', 'drivers', 'plugin'), nodeId('ClusterRoleBinding', undefined, 'driver')).risky).toBe(true);
    expect(edge(nodeId('ClusterRole', undefined, 'claim-reader'), nodeId('Resource', undefined, 'resourceclaims')).risky).toBe(false);
    // associated-node driver writes are limited to the caller's node
    expect(edge(nodeId('ClusterRole', undefined, 'driver-assoc'), nodeId('Resource', undefined, 'resourceclaims/driver')).risky).toBe(false);
    // a wildcard resource rule reaches every DRA subresource
    const wild = model.edges.filter((e) => e.source === nodeId('ClusterRole', undefined, 'dra-wild')).map((e) => e.target);
    expect(wild).toContain(nodeId('Resource', undefined, 'resourceclaims/binding'));
    expect(wild).not.toContain(nodeId('Resource', undefined, 'nodes/status'));
  });

  it('gives a ServiceAccount without namespace the RoleBinding namespace', () => {
    const e = model.edges.find((x) => x.source === nodeId('ServiceAccount', 'team-a', 'runner'))!;
    expect(e.reasons[0]).toEqual({
      type: 'subject',
      binding: { kind: 'RoleBinding', name: 'claims', namespace: 'team-a' },
      subject: { kind: 'ServiceAccount', name: 'runner', namespace: 'team-a' },
    });
  });

  it('is independent of input order', () => {
    const c = cluster();
    const shuffled = buildIdentityGraph(
      buildRbacIndex({
        clusterRoles: [...c.clusterRoles].reverse(),
        roles: c.roles,
        clusterRoleBindings: [...c.clusterRoleBindings].reverse(),
        roleBindings: c.roleBindings,
      }),
    );
    expect(shuffled).toEqual(model);
  });
});

describe('node ids', () => {
  it('round-trips names containing colons', () => {
    expect(parseNodeId(nodeId('User', undefined, 'system:node:n1'))).toEqual({ kind: 'User', namespace: '', name: 'system:node:n1' });
    expect(parseNodeId(nodeId('ServiceAccount', 'ns', 'a:b'))).toEqual({ kind: 'ServiceAccount', namespace: 'ns', name: 'a:b' });
  });
});

describe('views', () => {
  const model = buildIdentityGraph(buildRbacIndex(cluster()));

  it('focus keeps only paths through the focused node', () => {
    const sub = focusSubgraph(model, nodeId('ServiceAccount', 'drivers', 'plugin'));
    expect(sub.nodes.map((n) => n.id).sort()).toEqual(
      [
        nodeId('ServiceAccount', 'drivers', 'plugin'),
        nodeId('ClusterRoleBinding', undefined, 'driver'),
        nodeId('ClusterRoleBinding', undefined, 'assoc'),
        nodeId('ClusterRole', undefined, 'slice-writer'),
        nodeId('ClusterRole', undefined, 'driver-assoc'),
        nodeId('Resource', undefined, 'resourceslices'),
        nodeId('Resource', undefined, 'resourceclaims/driver'),
      ].sort(),
    );
    const res = focusSubgraph(model, nodeId('Resource', undefined, 'resourceclaims'));
    expect(res.nodes.map((n) => n.id)).toContain(nodeId('User', undefined, 'alice'));
    expect(res.nodes.map((n) => n.id)).not.toContain(nodeId('Resource', undefined, 'resourceslices'));
  });

  it('collapses groups of a large graph and merges their edges', () => {
    const big = { ...model, nodes: [...model.nodes], edges: [...model.edges] };
    for (let i = 0; i < AUTO_EXPAND_LIMIT; i++) {
      const sa = nodeId('ServiceAccount', 'bulk', `sa-${i}`);
      big.nodes.push({ id: sa, kind: 'ServiceAccount', tier: 0, name: `sa-${i}`, namespace: 'bulk', group: 'ns/bulk', risky: false });
      big.edges.push({
        id: `${sa}→b`,
        source: sa,
        target: nodeId('ClusterRoleBinding', undefined, 'readers'),
        kind: 'subject',
        risky: false,
        verbs: [],
        reasons: [],
      });
    }
    const view = buildGraphView(big);
    const bulk = view.nodes.find((n) => n.id === groupNodeId(0, 'ns/bulk'))!;
    expect(bulk.memberCount).toBe(AUTO_EXPAND_LIMIT);
    const merged = view.edges.filter((e) => e.source === bulk.id);
    expect(merged).toHaveLength(1);
    // resources are never collapsed
    expect(view.nodes.filter((n) => n.tier === 3).every((n) => n.memberCount === undefined)).toBe(true);
    const expanded = buildGraphView(big, { expand: [groupNodeId(0, 'ns/bulk')] });
    expect(expanded.nodes.filter((n) => n.namespace === 'bulk' && n.tier === 0)).toHaveLength(AUTO_EXPAND_LIMIT);
  });

  it('folds a column of many small namespaces into one group; expanding it or focusing undoes that', () => {
    const big = { ...model, nodes: [...model.nodes], edges: [...model.edges] };
    const target = nodeId('ClusterRoleBinding', undefined, 'readers');
    for (let i = 0; i <= MAX_COLUMN_BOXES; i++) {
      // Two service accounts per namespace: too few to collapse each namespace on its own.
      for (const n of [0, 1]) {
        const sa = nodeId('ServiceAccount', `t-${i}`, `sa-${n}`);
        big.nodes.push({ id: sa, kind: 'ServiceAccount', tier: 0, name: `sa-${n}`, namespace: `t-${i}`, group: `ns/t-${i}`, risky: false });
        big.edges.push({ id: `${sa}→b`, source: sa, target, kind: 'subject', risky: false, verbs: [], reasons: [] });
      }
    }
    const view = buildGraphView(big);
    const all = view.nodes.find((n) => n.id === groupNodeId(0, ALL_NAMESPACES))!;
    const namespaced = big.nodes.filter((n) => n.tier === 0 && n.group.startsWith('ns/')).length;
    expect(all.memberCount).toBe(namespaced);
    expect(view.nodes.filter((n) => n.tier === 0).length).toBeLessThanOrEqual(MAX_COLUMN_BOXES);
    expect(view.edges.filter((e) => e.source === all.id).map((e) => e.target)).toContain(target);

    const opened = buildGraphView(big, { expand: [groupNodeId(0, ALL_NAMESPACES)] });
    expect(opened.nodes.some((n) => n.id === groupNodeId(0, ALL_NAMESPACES))).toBe(false);
    expect(opened.nodes.filter((n) => n.namespace === 't-3' && n.tier === 0)).toHaveLength(2);

    // An expanded namespace stays on its own beside the folded rest.
    const one = buildGraphView(big, { expand: [groupNodeId(0, 'ns/t-3')] });
    expect(one.nodes.filter((n) => n.namespace === 't-3' && n.tier === 0)).toHaveLength(2);
    expect(one.nodes.find((n) => n.id === groupNodeId(0, ALL_NAMESPACES))!.memberCount).toBe(namespaced - 2);
  });

  it('riskyOnly drops safe paths', () => {
    const view = buildGraphView(model, { riskyOnly: true });
    expect(view.edges.every((e) => e.risky)).toBe(true);
    expect(view.nodes.map((n) => n.id)).not.toContain(nodeId('User', undefined, 'alice'));
  });

  it('lays out columns deterministically, without overlaps', () => {
    const view = buildGraphView(model);
    const seen = new Set(view.nodes.map((n) => `${n.x},${n.y}`));
    expect(seen.size).toBe(view.nodes.length);
    expect(buildGraphView(model)).toEqual(view);
    for (const n of view.nodes) expect(n.x).toBe(view.nodes.find((m) => m.tier === n.tier)!.x);
  });

  it('search finds by name or namespace/name, prefix first', () => {
    const hits = searchGraph(model, 'team-a/');
    expect(hits.map((h) => h.name)).toContain('runner');
    expect(searchGraph(model, 'slice')[0].name).toBe('slice-writer');
    expect(searchGraph(model, '   ')).toEqual([]);
  });
});

describe('layoutColumns', () => {
  it('orders a column by the barycentre of its targets', () => {
    const r = layoutColumns(
      [
        { id: 'r1', tier: 3, order: 0 },
        { id: 'r2', tier: 3, order: 1 },
        { id: 'a', tier: 2, order: 0 },
        { id: 'b', tier: 2, order: 1 },
      ],
      [
        { source: 'a', target: 'r2' },
        { source: 'b', target: 'r1' },
      ],
    );
    expect(r.positions.get('b')!.y).toBeLessThan(r.positions.get('a')!.y);
  });

  it('keeps a "+ N more" box at the bottom of its column, whatever its neighbours', () => {
    const r = layoutColumns(
      [
        { id: 'r1', tier: 3, order: 0 },
        { id: 'r2', tier: 3, order: 1 },
        { id: 'more', tier: 2, order: 0, last: true },
        { id: 'b', tier: 2, order: 1 },
      ],
      [
        { source: 'more', target: 'r1' },
        { source: 'b', target: 'r2' },
      ],
    );
    expect(r.positions.get('more')!.y).toBeGreaterThan(r.positions.get('b')!.y);
  });
});

import { annotateFindings } from './build-graph';

describe('annotateFindings', () => {
  it('marks subjects and RBAC objects with their worst finding', () => {
    const model = buildIdentityGraph(buildRbacIndex(cluster()));
    const f = (severity: 'high' | 'low', subject: { kind: 'ServiceAccount'; namespace: string; name: string }) => ({
      id: severity,
      check: 'DRA003' as const,
      severity,
      issueId: `issue-${severity}`,
      title: '',
      subjects: [subject],
      objects: [{ kind: 'ClusterRoleBinding', name: 'driver' }],
      message: '',
      evidence: [],
      remediation: '',
    });
    const out = annotateFindings(model, [
      f('low', { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' }),
      f('high', { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' }),
    ]);
    const sa = out.nodes.find((n) => n.id === nodeId('ServiceAccount', 'drivers', 'plugin'))!;
    expect(sa).toMatchObject({ worstFinding: 'high', findingCount: 2 });
    expect(out.nodes.find((n) => n.id === nodeId('ClusterRoleBinding', undefined, 'driver'))!.worstFinding).toBe('high');
  });
});

describe('edges a finding reports (orange)', () => {
  const model = buildIdentityGraph(buildRbacIndex(cluster()));
  const grant = (binding: { kind: string; name: string; namespace?: string }, role: { kind: string; name: string; namespace?: string }, ruleIndex: number) => ({
    type: 'grant' as const,
    binding,
    role,
    ruleIndex,
    rule: { verbs: ['*'] },
  });
  const finding = (
    check: string,
    severity: 'high' | 'medium' | 'low',
    subject: { kind: 'ServiceAccount' | 'User'; namespace?: string; name: string },
    evidence: ReturnType<typeof grant>,
  ) => ({
    id: `${check}-${severity}`,
    check: check as 'DRA003',
    severity,
    issueId: 'i',
    subjects: [subject],
    objects: [],
    evidence: [evidence],
  });
  const edge = (m: typeof model, s: string, t: string) => m.edges.find((e) => e.source === s && e.target === t)!;
  const plugin = nodeId('ServiceAccount', 'drivers', 'plugin');

  it('marks the subject → binding → role → resource edges of a reported grant, and only the cited rule', () => {
    const out = annotateFindings(model, [
      finding(
        'DRA003',
        'high',
        { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
        grant({ kind: 'ClusterRoleBinding', name: 'driver' }, { kind: 'ClusterRole', name: 'slice-writer' }, 0),
      ),
    ]);
    expect(edge(out, plugin, nodeId('ClusterRoleBinding', undefined, 'driver')).flagged).toBe(true);
    expect(edge(out, nodeId('ClusterRoleBinding', undefined, 'driver'), nodeId('ClusterRole', undefined, 'slice-writer')).flagged).toBe(true);
    expect(edge(out, nodeId('ClusterRole', undefined, 'slice-writer'), nodeId('Resource', undefined, 'resourceslices')).flagged).toBe(true);
    // The plugin's other binding (associated-node driver writes) is not reported.
    expect(edge(out, plugin, nodeId('ClusterRoleBinding', undefined, 'assoc')).flagged).toBeUndefined();
    // A rule the evidence does not cite stays unmarked.
    const other = annotateFindings(model, [
      finding(
        'DRA003',
        'high',
        { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
        grant({ kind: 'ClusterRoleBinding', name: 'driver' }, { kind: 'ClusterRole', name: 'slice-writer' }, 5),
      ),
    ]);
    expect(edge(other, nodeId('ClusterRole', undefined, 'slice-writer'), nodeId('Resource', undefined, 'resourceslices')).flagged).toBeUndefined();
  });

  it('leaves grants cited by low findings and by quota findings unmarked (not over-privilege)', () => {
    const ev = grant({ kind: 'RoleBinding', namespace: 'team-a', name: 'claims' }, { kind: 'Role', namespace: 'team-a', name: 'claims' }, 0);
    const alice = { kind: 'User' as const, name: 'alice' };
    const out = annotateFindings(model, [finding('QUOTA001', 'medium', alice, ev), finding('DRA006', 'low', alice, ev)]);
    expect(out.edges.some((e) => e.flagged)).toBe(false);
    const reported = annotateFindings(model, [finding('DRA006', 'medium', alice, ev)]);
    expect(edge(reported, nodeId('User', undefined, 'alice'), nodeId('RoleBinding', 'team-a', 'claims')).flagged).toBe(true);
  });

  it('draws an edge between groups orange when every grant behind it is reported, dashed orange when some are', () => {
    const base = annotateFindings(model, [
      finding(
        'DRA003',
        'high',
        { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
        grant({ kind: 'ClusterRoleBinding', name: 'driver' }, { kind: 'ClusterRole', name: 'slice-writer' }, 0),
      ),
    ]);
    // Enough service accounts in the plugin's namespace to collapse it into one group.
    const big = { nodes: [...base.nodes], edges: [...base.edges] };
    for (let i = 0; i < AUTO_EXPAND_LIMIT; i++) {
      const sa = nodeId('ServiceAccount', 'drivers', `extra-${i}`);
      big.nodes.push({ id: sa, kind: 'ServiceAccount', tier: 0, name: `extra-${i}`, namespace: 'drivers', group: 'ns/drivers', risky: true });
      big.edges.push({
        id: `${sa}→x`,
        source: sa,
        target: nodeId('ClusterRoleBinding', undefined, 'driver'),
        kind: 'subject',
        risky: true,
        verbs: [],
        reasons: [],
      });
    }
    const merged = buildGraphView(big).edges.filter((e) => e.source === groupNodeId(0, 'ns/drivers'));
    const toDriver = merged.find((e) => e.flaggedGrants > 0)!;
    expect(toDriver.flaggedGrants).toBe(1);
    expect(toDriver.grants).toBeGreaterThan(1);
    expect(toDriver.flagged).toBeUndefined();
    // Still shown as reported in part (dashed): a collapsed overview of a large cluster mixes reported
    // and other grants behind every edge, and would otherwise show no finding at all.
    expect(toDriver.partlyFlagged).toBe(true);
    expect(merged.filter((e) => e.flaggedGrants === 0).every((e) => e.partlyFlagged === undefined)).toBe(true);
  });
});
