import { describe, expect, it } from 'vitest';
import type { AttackPath, Issue } from '@/lib/analysis/types';
import { buildRbacIndex } from '@/lib/authz/rbac-index';
import { clusterRole, crb, Group, rb, role, SA, User } from '@/lib/authz/__fixtures__/builders';
import { buildReportWithContext } from '@/lib/report/build-report';
import { topRisks } from '@/lib/view/overview';
import { loadDemo } from '@/server/sources/demo-source';
import { attackPathNodeIds } from './attack-path-nodes';
import { annotateFindings, buildIdentityGraph } from './build-graph';
import { nodeId } from './node-id';
import { buildTopRisksView, topRiskPaths } from './top-risks-view';

const DRA = 'resource.k8s.io';

// A driver's plugin can write every ResourceSlice (a DRA grant); a support group can impersonate
// anyone (no DRA grant: the identity graph leaves it out); a tenant reads its claims.
const model = buildIdentityGraph(
  buildRbacIndex({
    clusterRoles: [
      clusterRole('slice-writer', [{ apiGroups: [DRA], resources: ['resourceslices'], verbs: ['create', 'update', 'delete'] }]),
      clusterRole('everything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
      clusterRole('impersonator', [{ apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] }]),
    ],
    roles: [role('team-a', 'claims', [{ apiGroups: [DRA], resources: ['resourceclaims'], verbs: ['get'] }])],
    clusterRoleBindings: [
      crb('plugin-slices', { kind: 'ClusterRole', name: 'slice-writer' }, [SA('drivers', 'plugin')]),
      crb('plugin-admin', { kind: 'ClusterRole', name: 'everything' }, [SA('drivers', 'plugin')]),
      crb('support', { kind: 'ClusterRole', name: 'impersonator' }, [Group('support')]),
    ],
    roleBindings: [rb('team-a', 'claims', { kind: 'Role', name: 'claims' }, [User('alice')])],
  }),
);

function issue(id: string, score: number): Issue {
  return {
    id,
    check: 'DRA001',
    severity: 'critical',
    title: `issue ${id}`,
    rootCause: [],
    affected: {},
    findingIds: [],
    remediation: '',
    risk: { score, severity: 1, reach: 1, exposure: 1, reasons: [] },
  };
}

/** An attack path whose last step's grant is (binding, role), optionally acting on a DRA resource. */
function attackPath(
  issueId: string,
  subject: AttackPath['subject'],
  binding: { kind: string; name: string },
  role: { kind: string; name: string },
  resource?: { group: string; resource: string },
): AttackPath {
  return {
    issueId,
    subject,
    foothold: '',
    impact: '',
    steps: [
      {
        text: 'uses its grant',
        evidence: [{ type: 'grant', binding, role, ruleIndex: 0, rule: { verbs: ['*'] } }],
        ...(resource
          ? { review: { user: '', groups: [], extra: {}, resourceAttributes: { verb: 'update', ...resource, subresource: '', namespace: '', name: '' } } }
          : {}),
      },
    ],
  };
}

const plugin = { kind: 'ServiceAccount' as const, namespace: 'drivers', name: 'plugin' };
const issues = [issue('a'.repeat(16), 9), issue('b'.repeat(16), 8), issue('c'.repeat(16), 7), issue('d'.repeat(16), 6)];
const paths = [
  attackPath(
    issues[0].id,
    plugin,
    { kind: 'ClusterRoleBinding', name: 'plugin-slices' },
    { kind: 'ClusterRole', name: 'slice-writer' },
    { group: DRA, resource: 'resourceslices' },
  ),
  attackPath(issues[1].id, { kind: 'Group', name: 'support' }, { kind: 'ClusterRoleBinding', name: 'support' }, { kind: 'ClusterRole', name: 'impersonator' }),
  attackPath(issues[2].id, plugin, { kind: 'ClusterRoleBinding', name: 'plugin-admin' }, { kind: 'ClusterRole', name: 'everything' }),
  // issues[3] has no attack path.
];

describe('topRiskPaths', () => {
  it('ranks the issues in their order and gives each its path’s node ids, or none', () => {
    const risks = topRiskPaths(issues, paths);
    expect(risks.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
    expect(risks[0].nodeIds).toEqual([
      nodeId('ServiceAccount', 'drivers', 'plugin'),
      nodeId('ClusterRoleBinding', undefined, 'plugin-slices'),
      nodeId('ClusterRole', undefined, 'slice-writer'),
      nodeId('Resource', undefined, 'resourceslices'),
    ]);
    expect(risks[3].nodeIds).toEqual([]);
  });

  it('draws nothing for a path of the identity alone (no grant to follow)', () => {
    const kubelet: AttackPath = {
      issueId: issues[0].id,
      subject: { kind: 'User', name: 'system:node:n1' },
      foothold: '',
      impact: '',
      steps: [{ text: 'a node' }],
    };
    expect(topRiskPaths([issues[0]], [kubelet])[0].nodeIds).toEqual([]);
  });
});

describe('buildTopRisksView', () => {
  const view = buildTopRisksView(model, topRiskPaths(issues, paths));
  const box = (id: string) => view.nodes.find((n) => n.id === id);

  it('draws the paths of the top risks and nothing else of the cluster', () => {
    expect(view.mode).toBe('top-risks');
    expect(box(nodeId('User', undefined, 'alice'))).toBeUndefined();
    expect(box(nodeId('RoleBinding', 'team-a', 'claims'))).toBeUndefined();
    for (const r of topRiskPaths(issues, paths)) for (const id of r.nodeIds) expect(box(id)?.onPath, id).toBe(true);
  });

  it('labels each box with the ranks of the paths through it', () => {
    // The plugin is the identity of risks 1 and 3; its two bindings each belong to one.
    expect(box(nodeId('ServiceAccount', 'drivers', 'plugin'))?.pathRanks).toEqual([1, 3]);
    expect(box(nodeId('ClusterRoleBinding', undefined, 'plugin-slices'))?.pathRanks).toEqual([1]);
    expect(box(nodeId('ClusterRoleBinding', undefined, 'plugin-admin'))?.pathRanks).toEqual([3]);
  });

  it('marks consecutive steps of each path as path edges', () => {
    const onPath = view.edges.filter((e) => e.onPath).map((e) => e.id);
    expect(onPath).toContain(`${nodeId('ServiceAccount', 'drivers', 'plugin')}→${nodeId('ClusterRoleBinding', undefined, 'plugin-slices')}`);
    expect(onPath).toContain(`${nodeId('ClusterRole', undefined, 'slice-writer')}→${nodeId('Resource', undefined, 'resourceslices')}`);
    expect(onPath).toContain(`${nodeId('Group', undefined, 'support')}→${nodeId('ClusterRoleBinding', undefined, 'support')}`);
    // Every path edge joins two boxes of one path, in order.
    for (const e of view.edges.filter((x) => x.onPath)) expect(box(e.target)!.tier).toBe(box(e.source)!.tier + 1);
  });

  it('draws a path whose role has no DRA grant from the path itself, marked off-graph', () => {
    expect(model.nodes.some((n) => n.id === nodeId('ClusterRole', undefined, 'impersonator'))).toBe(false);
    const roleBox = box(nodeId('ClusterRole', undefined, 'impersonator'));
    expect(roleBox).toMatchObject({ offGraph: true, pathRanks: [2], tier: 2 });
    const roleRef = view.edges.find((e) => e.target === roleBox!.id)!;
    expect(roleRef.reasons[0]).toEqual({
      type: 'roleRef',
      binding: { kind: 'ClusterRoleBinding', name: 'support' },
      role: { kind: 'ClusterRole', name: 'impersonator' },
    });
  });

  it('shows what a path ending at a role reaches among the DRA resources, off the path', () => {
    // "everything" (* on *) reaches every DRA resource; those edges are not path edges.
    const everything = nodeId('ClusterRole', undefined, 'everything');
    const reached = view.edges.filter((e) => e.source === everything);
    expect(reached.length).toBe(model.nodes.filter((n) => n.tier === 3).length);
    expect(reached.every((e) => !e.onPath)).toBe(true);
    // slice-writer's path ends at its resource: nothing more is added for it.
    expect(view.edges.filter((e) => e.source === nodeId('ClusterRole', undefined, 'slice-writer'))).toHaveLength(1);
  });

  it('lays the boxes out without overlaps, one column per tier', () => {
    expect(new Set(view.nodes.map((n) => `${n.x},${n.y}`)).size).toBe(view.nodes.length);
    for (const n of view.nodes) expect(n.x).toBe(view.nodes.find((m) => m.tier === n.tier)!.x);
  });
});

describe('the demo’s default view', () => {
  it('draws the attack path of each top risk that has one, in order, with its rank', async () => {
    const { report, context } = buildReportWithContext(await loadDemo());
    const demoModel = annotateFindings(buildIdentityGraph(context.engine.rbac), report.findings);
    const top = topRisks(report.issues, 5).map((r) => r.issue);
    const view = buildTopRisksView(demoModel, topRiskPaths(top, report.attackPaths));
    let drawn = 0;
    top.forEach((issue, i) => {
      const path = report.attackPaths.find((p) => p.issueId === issue.id);
      const ids = path ? attackPathNodeIds(path) : [];
      if (ids.length < 2) return;
      drawn++;
      for (const id of ids) expect(view.nodes.find((n) => n.id === id)?.pathRanks, id).toContain(i + 1);
      for (let k = 1; k < ids.length; k++) expect(view.edges.find((e) => e.source === ids[k - 1] && e.target === ids[k])?.onPath).toBe(true);
    });
    expect(drawn).toBeGreaterThanOrEqual(1);
    // Only the paths (and the DRA resources their roles reach) are drawn: far fewer boxes than the graph.
    expect(view.nodes.length).toBeLessThan(demoModel.nodes.length / 2);
  });
});
