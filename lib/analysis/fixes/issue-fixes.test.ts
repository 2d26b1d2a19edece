import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, node, res, SA, slice, stateOf } from '@/lib/authz/__fixtures__/builders';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ClusterRole, Container, Deployment, KubeObject, PolicyRule } from '@/lib/k8s/types';
import { daemonSet, namespace, pluginPod, serviceAccount, sliceWriter } from '@/lib/analysis/__fixtures__/builders';
import { pod } from '@/lib/authz/__fixtures__/builders';
import type { Issue, IssueFix } from '@/lib/analysis/types';
import { buildReport } from '@/lib/report/build-report';
import { applyMergePatch, applyStrategicPatch } from './apply-patch';

// Each wrong fix the report printed before structured fixes (issue #24), as a cluster that shows it,
// judged from Kubernetes semantics: the API server's validation, the kubelet's runAsNonRoot test, the
// RBAC matching of resourceNames and subresources, the aggregation controller. Where a fix is
// verified, it is applied here to the cluster's objects and a fresh engine (not the one the fix was
// checked with) answers the requests.

const DRA = 'resource.k8s.io';
const NODES = [node('worker-1'), node('worker-2')];

function issueOf(state: ClusterState, check: string, title?: RegExp): Issue {
  const issues = buildReport(state).issues.filter((i) => i.check === check && (!title || title.test(i.title)));
  expect(issues, `${check} ${title ?? ''}`).toHaveLength(1);
  return issues[0];
}

/** The cluster with the fix applied, as a person applying it would leave it. */
function applied(state: ClusterState, fix: IssueFix): ClusterState {
  const out = { ...state } as Record<string, unknown> & ClusterState;
  const listOf: Record<string, keyof ClusterState> = {
    ClusterRole: 'clusterRoles',
    Role: 'roles',
    ClusterRoleBinding: 'clusterRoleBindings',
    RoleBinding: 'roleBindings',
    DaemonSet: 'daemonSets',
    Deployment: 'deployments',
  };
  for (const c of fix.changes) {
    if (c.action === 'create') {
      const key = listOf[c.object.kind as string];
      out[key] = [...(out[key] as KubeObject[]), c.object] as never;
      continue;
    }
    const key = listOf[c.target.kind];
    out[key] = (out[key] as KubeObject[]).map((o) =>
      o.metadata.name === c.target.name && (o.metadata.namespace ?? '') === (c.target.namespace ?? '')
        ? c.patchType === 'merge'
          ? applyMergePatch(o, c.patch)
          : applyStrategicPatch(o, c.patch)
        : o,
    ) as never;
  }
  return out;
}

const allows = (state: ClusterState, user: ReturnType<typeof serviceAccountUser>, attrs: ReturnType<typeof res>) =>
  createAuthzEngine(state).authorize({ user, resource: attrs }).allowed;

describe('POD003: the pod template patch', () => {
  const privileged: Container = { name: 'plugin', securityContext: { privileged: true } };
  const helper: Container = { name: 'helper', securityContext: {} };
  const root: Container = { name: 'root', securityContext: { runAsUser: 0, allowPrivilegeEscalation: false, seccompProfile: { type: 'RuntimeDefault' } } };
  const ds = daemonSet('drv', 'drv-plugin', { serviceAccountName: 'drv', containers: [privileged, helper, root] });
  const state = stateOf({
    namespaces: [namespace('drv')],
    nodes: NODES,
    daemonSets: [ds],
    pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv', 'worker-1')].map((p) => ({
      ...p,
      spec: { ...p.spec, containers: [{ ...privileged, volumeMounts: p.spec.containers[0].volumeMounts }, helper, root] },
    })),
    clusterRoles: [sliceWriter('drv', 'drv').clusterRole],
    clusterRoleBindings: [sliceWriter('drv', 'drv').binding],
  });
  const issue = issueOf(state, 'POD003');
  const fix = issue.fix!;
  const patched = applied(state, fix).daemonSets[0].spec.template.spec.containers;
  const sc = (name: string) => patched.find((c) => c.name === name)!.securityContext ?? {};

  it('names every flagged container, not only the first', () => {
    expect(fix.status).toBe('verified');
    expect(patched.map((c) => c.name)).toEqual(['plugin', 'helper', 'root']);
    expect(sc('helper')).toMatchObject({
      capabilities: { drop: ['ALL'] },
      readOnlyRootFilesystem: true,
      seccompProfile: { type: 'RuntimeDefault' },
      allowPrivilegeEscalation: false,
    });
    expect(sc('root')).toMatchObject({ capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
  });
  it('never sets allowPrivilegeEscalation: false on a privileged container (the API server refuses the pod)', () => {
    expect(sc('plugin').privileged).toBe(true);
    expect(sc('plugin').allowPrivilegeEscalation).not.toBe(false);
    expect(issue.remediation).not.toMatch(/"name":"plugin","securityContext":\{[^}]*"allowPrivilegeEscalation":false/);
  });
  it('never sets runAsNonRoot beside runAsUser 0 (the kubelet does not start it), and says so', () => {
    expect(sc('root').runAsUser).toBe(0);
    expect(sc('root').runAsNonRoot).toBeUndefined();
    expect(fix.reason).toMatch(/container root runs as root \(runAsUser: 0\)/);
  });
});

describe('DRA004: resourceNames is the driver the holder serves', () => {
  const state = stateOf({
    namespaces: [namespace('sriov'), namespace('gpu')],
    nodes: NODES,
    serviceAccounts: [serviceAccount('sriov', 'sriov-plugin')],
    pods: [pluginPod('sriov', 'sriov-plugin', 'a', 'sriov-plugin', 'worker-1'), pluginPod('gpu', 'gpu-plugin', 'a', 'gpu-plugin', 'worker-2')],
    resourceSlices: [
      slice('w1-sriov', 'sriovnetwork.example.io', 'worker-1'),
      slice('w2-gpu', 'gpu.example.com', 'worker-2'),
      slice('w2-other', 'other.example.com', 'worker-2'),
    ],
    clusterRoles: [
      clusterRole('sriov-plugin', [
        { apiGroups: [DRA], resources: ['resourceslices'], verbs: ['create', 'update'] },
        { apiGroups: [DRA], resources: ['resourceclaims', 'resourceclaims/driver'], verbs: ['get', 'associated-node:update'] },
      ]),
      sliceWriter('gpu', 'gpu-plugin').clusterRole,
    ],
    clusterRoleBindings: [
      crb('sriov-plugin', { kind: 'ClusterRole', name: 'sriov-plugin' }, [SA('sriov', 'sriov-plugin')]),
      sliceWriter('gpu', 'gpu-plugin').binding,
    ],
  });
  const issue = issueOf(state, 'DRA004');
  const after = applied(state, issue.fix!);
  const plugin = serviceAccountUser('sriov', 'sriov-plugin', 'worker-1');
  const driverWrite = (name: string) => res('associated-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: 'gpu', name });

  it('names only its own driver, not every driver of the cluster', () => {
    expect(issue.fix!.status).toBe('verified');
    const rules = (after.clusterRoles.find((r) => r.metadata.name === 'sriov-plugin')!.rules ?? []) as PolicyRule[];
    expect(rules.filter((r) => r.resources?.includes('resourceclaims/driver')).map((r) => r.resourceNames)).toEqual([['sriovnetwork.example.io']]);
  });
  it('after the fix the plugin writes device status for its driver only, and still reads claims', () => {
    expect(allows(state, plugin, driverWrite('gpu.example.com'))).toBe(true);
    expect(allows(after, plugin, driverWrite('gpu.example.com'))).toBe(false);
    expect(allows(after, plugin, driverWrite('sriovnetwork.example.io'))).toBe(true);
    expect(allows(after, plugin, res('get', DRA, 'resourceclaims', { namespace: 'gpu', name: 'c' }))).toBe(true);
  });
});

describe('NODE003: Node writes', () => {
  const nodesRule: PolicyRule = { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'update', 'patch'] };
  const controller: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'drv-controller', namespace: 'drv' },
    spec: { template: { spec: { serviceAccountName: 'drv-controller', containers: [{ name: 'c' }] } } },
  };
  const base = {
    namespaces: [namespace('drv')],
    nodes: NODES,
    deployments: [controller],
    pods: [
      pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1'),
      pluginPod('drv', 'drv-plugin', 'b', 'drv-plugin', 'worker-2'),
      {
        ...pod('drv', 'drv-controller-x', { serviceAccountName: 'drv-controller', containers: [{ name: 'c' }] }),
        metadata: { name: 'drv-controller-x', namespace: 'drv' },
      },
    ],
    clusterRoles: [sliceWriter('drv', 'drv-plugin').clusterRole, clusterRole('plugin-nodes', [nodesRule]), clusterRole('controller-nodes', [nodesRule])],
    clusterRoleBindings: [
      sliceWriter('drv', 'drv-plugin').binding,
      crb('plugin-nodes', { kind: 'ClusterRole', name: 'plugin-nodes' }, [SA('drv', 'drv-plugin')]),
      crb('controller-nodes', { kind: 'ClusterRole', name: 'controller-nodes' }, [SA('drv', 'drv-controller')]),
    ],
  };
  const state = stateOf(base);

  it('a controller Deployment (no associated node) gets no associated-node fix: no safe automatic fix, and why', () => {
    const issue = issueOf(state, 'NODE003', /controller-nodes/);
    expect(issue.fix!.status).toBe('none');
    expect(issue.remediation).toMatch(/^No safe automatic fix: .*runs no pod on a node of its own/);
    expect(issue.remediation).not.toMatch(/impersonate:associated-node|apiVersion:/);
  });
  it('a kubelet plugin that updates its Node keeps update and patch on its own Node only, by constrained impersonation', () => {
    const issue = issueOf(state, 'NODE003', /plugin-nodes/);
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const created = issue.fix!.changes.flatMap((c) =>
      c.action === 'create' && c.object.kind === 'ClusterRole' ? ((c.object as unknown as ClusterRole).rules ?? []) : [],
    );
    expect(created.flatMap((r) => r.verbs).sort()).toEqual([
      'impersonate-on:associated-node:get',
      'impersonate-on:associated-node:patch',
      'impersonate-on:associated-node:update',
      'impersonate:associated-node',
    ]);
    const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');
    const engine = createAuthzEngine(after);
    expect(engine.authorize({ user: plugin, resource: res('update', '', 'nodes', { name: 'worker-2' }) }).allowed).toBe(false);
    for (const verb of ['update', 'patch'])
      expect(
        engine.authorizeImpersonated(plugin, { user: 'system:node:worker-1' }, { resource: res(verb, '', 'nodes', { name: 'worker-1' }) }).allowed,
        verb,
      ).toBe(true);
    expect(engine.authorizeImpersonated(plugin, { user: 'system:node:worker-2' }, { resource: res('update', '', 'nodes', { name: 'worker-2' }) }).allowed).toBe(
      false,
    );
  });
  it('a controller observed never writing Nodes loses the verbs (an audit log settles it)', async () => {
    const { withFixes } = await import('./issue-fixes');
    const { buildReportWithContext } = await import('@/lib/report/build-report');
    const build = buildReportWithContext(state);
    const observed = new Map([['system:serviceaccount:drv:drv-controller', [res('get', '', 'nodes', { name: 'worker-1' })]]]);
    const issues = withFixes(build.context, build.report.issues, build.report.findings, observed);
    const issue = issues.find((i) => i.check === 'NODE003' && /controller-nodes/.test(i.title))!;
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const ctl = serviceAccountUser('drv', 'drv-controller');
    expect(allows(after, ctl, res('update', '', 'nodes', { name: 'worker-1' }))).toBe(false);
    expect(allows(after, ctl, res('get', '', 'nodes', { name: 'worker-1' }))).toBe(true);
  });
});

describe('DRA002: a */driver rule', () => {
  const state = stateOf({
    namespaces: [namespace('drv')],
    nodes: NODES,
    pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1')],
    resourceSlices: [slice('w1', 'gpu.example.com', 'worker-1')],
    clusterRoles: [
      sliceWriter('drv', 'drv-plugin').clusterRole,
      clusterRole('drv-status', [{ apiGroups: [DRA], resources: ['*/driver'], resourceNames: ['gpu.example.com'], verbs: ['associated-node:update'] }]),
    ],
    clusterRoleBindings: [sliceWriter('drv', 'drv-plugin').binding, crb('drv-status', { kind: 'ClusterRole', name: 'drv-status' }, [SA('drv', 'drv-plugin')])],
  });
  const issue = issueOf(state, 'DRA002');
  const after = applied(state, issue.fix!);
  const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');

  it('keeps the driver subresource and its verb, and grants node verbs on nothing else', () => {
    expect(issue.fix!.status).toBe('verified');
    const rules = after.clusterRoles.find((r) => r.metadata.name === 'drv-status')!.rules!;
    expect(rules).toEqual([{ apiGroups: [DRA], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'], verbs: ['associated-node:update'] }]);
  });
  it("the driver's own status write is still allowed", () => {
    const write = res('associated-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: 'drv', name: 'gpu.example.com' });
    expect(allows(state, plugin, write)).toBe(true);
    expect(allows(after, plugin, write)).toBe(true);
  });
});

describe('aggregated ClusterRoles: the fix goes to the source role', () => {
  const sourceRules: PolicyRule[] = [
    { apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
  ];
  const state = stateOf({
    nodes: NODES,
    clusterRoles: [
      clusterRole('agg-1', [], { aggregate: [{ matchLabels: { 'example.com/aggregate-to-support': 'true' } }] }),
      clusterRole('support-source', sourceRules, { labels: { 'example.com/aggregate-to-support': 'true' } }),
    ],
    clusterRoleBindings: [crb('support', { kind: 'ClusterRole', name: 'agg-1' }, [Group('support-engineers')])],
  });
  const issue = issueOf(state, 'NODE002');

  it('edits the ClusterRole the rule is aggregated from, not agg-1 (the controller would undo it)', () => {
    expect(issue.fix!.status).toBe('verified');
    const targets = issue.fix!.changes.map((c) => (c.action === 'patch' ? c.target.name : ''));
    expect(targets).toEqual(['support-source']);
    expect(issue.remediation).not.toMatch(/ClusterRole agg-1 rule #/);
  });
  it('after the aggregation controller recomputes agg-1, the group can no longer impersonate, and keeps its other rule', () => {
    const after = applied(state, issue.fix!);
    const member = { name: 'alice', groups: ['support-engineers', 'system:authenticated'] };
    expect(allows(state, member as never, res('impersonate', '', 'groups', { name: 'system:masters' }))).toBe(true);
    expect(allows(after, member as never, res('impersonate', '', 'groups', { name: 'system:masters' }))).toBe(false);
    expect(allows(after, member as never, res('get', '', 'pods', { namespace: 'x', name: 'p' }))).toBe(true);
  });
});
