import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, node, res, SA, slice, stateOf, User } from '@/lib/authz/__fixtures__/builders';
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

describe('POD003 without a template to patch: the reason is what Kubernetes allows for the owner', () => {
  // A DRA component pod (it mounts the kubelet plugin directories) lacking hardening, owned by each
  // kind the fix does not patch; the owner objects are not in the snapshot.
  const owned = (kind: string | undefined) => {
    const p = pluginPod('drv', 'drv-plugin', 'a', 'drv', 'worker-1', { securityContext: {} });
    p.metadata.ownerReferences = kind
      ? [{ apiVersion: kind === 'CronJob' || kind === 'Job' ? 'batch/v1' : 'apps/v1', kind, name: 'owner', uid: 'u', controller: true }]
      : [];
    return stateOf({
      namespaces: [namespace('drv')],
      nodes: NODES,
      pods: [p],
      clusterRoles: [sliceWriter('drv', 'drv').clusterRole],
      clusterRoleBindings: [sliceWriter('drv', 'drv').binding],
    });
  };
  const reasonFor = (kind: string | undefined) => {
    const issue = issueOf(owned(kind), 'POD003');
    expect(issue.fix?.changes ?? []).toEqual([]);
    return issue.remediation;
  };

  it('a ReplicaSet has a pod template, but does not replace its pods and may be a Deployment’s', () => {
    const text = reasonFor('ReplicaSet');
    expect(text).not.toMatch(/not a workload with a pod template/);
    expect(text).toMatch(/does not replace its running pods when its template changes/);
    expect(text).toMatch(/Deployment that owns it would undo a patch/);
  });
  it('a Job’s template is immutable; a CronJob’s job template is where to set it; a bare pod cannot change', () => {
    expect(reasonFor('Job')).toMatch(/a Job's pod template cannot be changed once the Job exists/);
    expect(reasonFor('CronJob')).toMatch(/spec\.jobTemplate\.spec\.template/);
    expect(reasonFor(undefined)).toMatch(/a pod without a workload: the API server refuses changes to a running pod's security context/);
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
    // Impersonation is what the plugin must send: its own Node, written as itself, is refused after the fix,
    // and the fix says so before anyone applies it.
    expect(engine.authorize({ user: plugin, resource: res('update', '', 'nodes', { name: 'worker-1' }) }).allowed).toBe(false);
    expect(issue.fix!.reason).toContain('Impersonate-User: system:node:<that node>');
    expect(issue.remediation).toContain('are refused once the rule is removed');
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

describe('DRA005: device-status writes', () => {
  const driverRule = (verbs: string[], resourceNames?: string[]): PolicyRule => ({
    apiGroups: [DRA],
    resources: ['resourceclaims/driver'],
    ...(resourceNames ? { resourceNames } : {}),
    verbs,
  });
  const claimWrite = (verb: string, name: string) => res(verb, DRA, 'resourceclaims', { subresource: 'driver', namespace: 'team-a', name });
  const controller: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'drv-controller', namespace: 'drv' },
    spec: { template: { spec: { serviceAccountName: 'drv-controller', containers: [{ name: 'c', args: ['--driver-name=gpu.example.com'] }] } } },
  };
  const state = stateOf({
    namespaces: [namespace('drv'), namespace('team-a')],
    nodes: NODES,
    deployments: [controller],
    pods: [
      pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1'),
      pluginPod('other', 'other-plugin', 'a', 'other-plugin', 'worker-2'),
      {
        ...pod('drv', 'drv-controller-x', { serviceAccountName: 'drv-controller', containers: [{ name: 'c', args: ['--driver-name=gpu.example.com'] }] }),
        metadata: { name: 'drv-controller-x', namespace: 'drv' },
      },
    ],
    resourceSlices: [slice('w1-gpu', 'gpu.example.com', 'worker-1'), slice('w2-other', 'other.example.com', 'worker-2')],
    clusterRoles: [
      sliceWriter('drv', 'drv-plugin').clusterRole,
      sliceWriter('other', 'other-plugin').clusterRole,
      clusterRole('plugin-status', [driverRule(['arbitrary-node:update', 'arbitrary-node:patch'], ['gpu.example.com'])]),
      clusterRole('controller-status', [driverRule(['arbitrary-node:update', 'arbitrary-node:patch'])]),
      clusterRole('ops-status', [{ apiGroups: [DRA], resources: ['resourceclaims', 'resourceclaims/driver'], verbs: ['*'] }]),
    ],
    clusterRoleBindings: [
      sliceWriter('drv', 'drv-plugin').binding,
      sliceWriter('other', 'other-plugin').binding,
      crb('plugin-status', { kind: 'ClusterRole', name: 'plugin-status' }, [SA('drv', 'drv-plugin')]),
      crb('controller-status', { kind: 'ClusterRole', name: 'controller-status' }, [SA('drv', 'drv-controller')]),
      crb('ops-status', { kind: 'ClusterRole', name: 'ops-status' }, [Group('gpu-ops')]),
    ],
  });
  const dra005Subjects = (s: ClusterState) =>
    buildReport(s)
      .findings.filter((f) => f.check === 'DRA005')
      .flatMap((f) => f.subjects.map((x) => x.name));

  it('a kubelet plugin gets associated-node verbs for its own driver instead of arbitrary-node verbs', () => {
    const issue = issueOf(state, 'DRA005', /plugin-status/);
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');
    expect(allows(state, plugin, claimWrite('arbitrary-node:update', 'gpu.example.com'))).toBe(true);
    expect(allows(after, plugin, claimWrite('arbitrary-node:update', 'gpu.example.com'))).toBe(false);
    expect(allows(after, plugin, claimWrite('arbitrary-node:patch', 'gpu.example.com'))).toBe(false);
    expect(allows(after, plugin, claimWrite('associated-node:update', 'gpu.example.com'))).toBe(true);
    expect(allows(after, plugin, claimWrite('associated-node:update', 'other.example.com'))).toBe(false);
    expect(dra005Subjects(after)).not.toContain('drv-plugin');
  });
  it('a multi-node controller keeps arbitrary-node verbs, scoped to the driver it serves', () => {
    const issue = issueOf(state, 'DRA005', /controller-status/);
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const ctl = serviceAccountUser('drv', 'drv-controller');
    expect(allows(after, ctl, claimWrite('arbitrary-node:update', 'gpu.example.com'))).toBe(true);
    expect(allows(state, ctl, claimWrite('arbitrary-node:update', 'other.example.com'))).toBe(true);
    expect(allows(after, ctl, claimWrite('arbitrary-node:update', 'other.example.com'))).toBe(false);
    expect(dra005Subjects(after)).not.toContain('drv-controller');
  });
  it('a group loses every verb on resourceclaims/driver and keeps the rest of its rule', () => {
    const issue = issueOf(state, 'DRA005', /ops-status/);
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const member = { name: 'alice', groups: ['gpu-ops', 'system:authenticated'] };
    for (const verb of ['arbitrary-node:update', 'associated-node:update', 'update'])
      expect(allows(after, member as never, claimWrite(verb, 'gpu.example.com')), verb).toBe(false);
    expect(allows(after, member as never, res('delete', DRA, 'resourceclaims', { namespace: 'team-a', name: 'c' }))).toBe(true);
    expect(dra005Subjects(after)).not.toContain('gpu-ops');
  });
});

describe('DRA007, DRA011, DRA003: the write comes out of the rule', () => {
  const state = stateOf({
    namespaces: [namespace('team-a')],
    nodes: NODES,
    serviceAccounts: [serviceAccount('team-a', 'allocator')],
    clusterRoles: [
      clusterRole('team-allocator', [
        { apiGroups: [DRA], resources: ['resourceclaims'], verbs: ['get', 'list'] },
        { apiGroups: [DRA], resources: ['resourceclaims/binding', 'resourceclaims/status'], verbs: ['update', 'patch'] },
      ]),
      clusterRole('taint-writer', [{ apiGroups: [DRA], resources: ['devicetaintrules', 'deviceclasses'], verbs: ['get', 'create', 'update', 'patch'] }]),
    ],
    clusterRoleBindings: [
      crb('team-allocator', { kind: 'ClusterRole', name: 'team-allocator' }, [SA('team-a', 'allocator')]),
      crb('taint-writer', { kind: 'ClusterRole', name: 'taint-writer' }, [SA('team-a', 'ops-bot')]),
    ],
  });
  const sa = serviceAccountUser('team-a', 'allocator');
  const bot = serviceAccountUser('team-a', 'ops-bot');

  it('DRA007: resourceclaims/binding (checked at cluster scope) is refused after the fix; claim reads and status stay', () => {
    const issue = issueOf(state, 'DRA007');
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const binding = res('update', DRA, 'resourceclaims', { subresource: 'binding' });
    expect(allows(state, sa, binding)).toBe(true);
    expect(allows(after, sa, binding)).toBe(false);
    expect(allows(after, sa, res('get', DRA, 'resourceclaims', { namespace: 'team-a', name: 'c' }))).toBe(true);
    expect(allows(after, sa, res('update', DRA, 'resourceclaims', { subresource: 'status', namespace: 'team-a', name: 'c' }))).toBe(true);
  });
  it('DRA011 and DRA003: DeviceTaintRule and DeviceClass writes are refused after the fix; reads stay', () => {
    for (const [check, resource] of [
      ['DRA011', 'devicetaintrules'],
      ['DRA003', 'deviceclasses'],
    ] as const) {
      const issue = issueOf(state, check);
      expect(issue.fix!.status, check).toBe('verified');
      const after = applied(state, issue.fix!);
      expect(allows(state, bot, res('create', DRA, resource))).toBe(true);
      expect(allows(after, bot, res('create', DRA, resource)), check).toBe(false);
      expect(allows(after, bot, res('patch', DRA, resource, { name: 'x' })), check).toBe(false);
      expect(allows(after, bot, res('get', DRA, resource, { name: 'x' })), check).toBe(true);
    }
  });
  it('DRA011 and DRA003 patch the same role: each fix names the other and says to apply one, then report again', () => {
    const taint = issueOf(state, 'DRA011');
    const classes = issueOf(state, 'DRA003');
    expect(taint.fix!.sharesObjectsWith).toEqual([classes.id]);
    expect(classes.fix!.sharesObjectsWith).toEqual([taint.id]);
    for (const i of [taint, classes]) expect(i.remediation).toMatch(/apply one of them, run the report again/);
    // Why: applied one after the other as printed, the later patch puts back what the earlier one removed.
    const both = applied(applied(state, taint.fix!), classes.fix!);
    expect(allows(both, bot, res('create', DRA, 'devicetaintrules'))).toBe(true);
    // An issue whose fix shares nothing carries no such note.
    expect(issueOf(state, 'DRA007').fix!.sharesObjectsWith).toBeUndefined();
  });
  it('DRA011: a driver whose role grants DeviceTaintRule writes keeps them unless an audit log shows it never writes them', async () => {
    const driver = stateOf({
      namespaces: [namespace('drv')],
      nodes: NODES,
      pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1')],
      resourceSlices: [slice('w1', 'gpu.example.com', 'worker-1')],
      clusterRoles: [
        sliceWriter('drv', 'drv-plugin').clusterRole,
        clusterRole('drv-taints', [{ apiGroups: [DRA], resources: ['devicetaintrules'], verbs: ['get', 'create'] }]),
      ],
      clusterRoleBindings: [
        sliceWriter('drv', 'drv-plugin').binding,
        crb('drv-taints', { kind: 'ClusterRole', name: 'drv-taints' }, [SA('drv', 'drv-plugin')]),
      ],
    });
    const issue = issueOf(driver, 'DRA011');
    expect(issue.fix!.status).toBe('none');
    expect(issue.remediation).toMatch(/^No safe automatic fix: ServiceAccount drv\/drv-plugin is a DRA component/);
    const { withFixes } = await import('./issue-fixes');
    const { buildReportWithContext } = await import('@/lib/report/build-report');
    const build = buildReportWithContext(driver);
    const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');
    const observed = new Map([[plugin.name, [res('get', DRA, 'devicetaintrules', { name: 'r' })]]]);
    const fixed = withFixes(build.context, build.report.issues, build.report.findings, observed).find((i) => i.check === 'DRA011')!;
    expect(fixed.fix!.status).toBe('verified');
    const after = applied(driver, fixed.fix!);
    expect(allows(after, plugin, res('create', DRA, 'devicetaintrules'))).toBe(false);
    expect(allows(after, plugin, res('get', DRA, 'devicetaintrules', { name: 'r' }))).toBe(true);
  });
  it('a stock role is not edited: the holder comes out of the binding', () => {
    const stock = stateOf({
      nodes: NODES,
      clusterRoles: [clusterRole('system:custom-scheduler', [{ apiGroups: [DRA], resources: ['resourceclaims/binding'], verbs: ['update', 'patch'] }])],
      clusterRoleBindings: [crb('ops-scheduler', { kind: 'ClusterRole', name: 'system:custom-scheduler' }, [Group('ops'), User('system:kube-scheduler')])],
    });
    const issue = issueOf(stock, 'DRA007', /ops/);
    expect(issue.fix!.status).toBe('verified');
    expect(issue.fix!.changes.map((c) => (c.action === 'patch' ? `${c.target.kind}/${c.target.name}` : 'create'))).toEqual([
      'ClusterRoleBinding/ops-scheduler',
    ]);
    const after = applied(stock, issue.fix!);
    expect(after.clusterRoles).toEqual(stock.clusterRoles);
    const member = { name: 'bob', groups: ['ops', 'system:authenticated'] };
    expect(allows(after, member as never, res('update', DRA, 'resourceclaims', { subresource: 'binding' }))).toBe(false);
    // The allocator the binding also names keeps the role.
    expect(after.clusterRoleBindings[0].subjects?.map((s) => s.name)).toEqual(['system:kube-scheduler']);
    expect(allows(after, { name: 'system:kube-scheduler', groups: [] } as never, res('update', DRA, 'resourceclaims', { subresource: 'binding' }))).toBe(true);
  });
});

describe('NODE001: nodes/status of every node', () => {
  const state = stateOf({
    namespaces: [namespace('drv')],
    nodes: NODES,
    pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1'), pluginPod('drv', 'drv-plugin', 'b', 'drv-plugin', 'worker-2')],
    clusterRoles: [
      sliceWriter('drv', 'drv-plugin').clusterRole,
      clusterRole('node-status', [{ apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] }]),
    ],
    clusterRoleBindings: [
      sliceWriter('drv', 'drv-plugin').binding,
      crb('node-status', { kind: 'ClusterRole', name: 'node-status' }, [SA('drv', 'drv-plugin')]),
    ],
  });

  it("a node-local holder keeps patching its own node's status only, as that node", () => {
    const issue = issueOf(state, 'NODE001');
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');
    const engine = createAuthzEngine(after);
    const status = (n: string) => res('patch', '', 'nodes', { subresource: 'status', name: n });
    expect(allows(state, plugin, status('worker-2'))).toBe(true);
    expect(engine.authorize({ user: plugin, resource: status('worker-2') }).allowed).toBe(false);
    expect(engine.authorizeImpersonated(plugin, { user: 'system:node:worker-1' }, { resource: status('worker-1') }).allowed).toBe(true);
    expect(engine.authorizeImpersonated(plugin, { user: 'system:node:worker-2' }, { resource: status('worker-2') }).allowed).toBe(false);
    expect(buildReport(after).findings.filter((f) => f.check === 'NODE001')).toEqual([]);
    expect(engine.authorize({ user: plugin, resource: status('worker-1') }).allowed).toBe(false);
    expect(issue.fix!.reason).toContain('Node status writes as the node its pod runs on');
  });
});

describe('DRA008: escalation-grade grants of a DRA component', () => {
  const base = (rules: PolicyRule[]) =>
    stateOf({
      namespaces: [namespace('drv'), namespace('team-a')],
      nodes: NODES,
      pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1')],
      resourceSlices: [slice('w1', 'gpu.example.com', 'worker-1')],
      clusterRoles: [sliceWriter('drv', 'drv-plugin').clusterRole, clusterRole('drv-extra', rules)],
      clusterRoleBindings: [sliceWriter('drv', 'drv-plugin').binding, crb('drv-extra', { kind: 'ClusterRole', name: 'drv-extra' }, [SA('drv', 'drv-plugin')])],
    });
  const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');

  it('Secret reads leave every other namespace but stay in its own; pods/exec goes; its slice writes stay', () => {
    const state = base([
      { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods/exec'], verbs: ['get', 'create'] },
    ]);
    const issue = issueOf(state, 'DRA008');
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const secret = (ns: string) => res('get', '', 'secrets', { namespace: ns, name: 's' });
    const exec = res('create', '', 'pods', { subresource: 'exec', namespace: 'team-a', name: 'p' });
    expect(allows(state, plugin, secret('team-a'))).toBe(true);
    expect(allows(state, plugin, exec)).toBe(true);
    expect(allows(after, plugin, secret('team-a'))).toBe(false);
    expect(allows(after, plugin, secret('drv'))).toBe(true);
    expect(allows(after, plugin, exec)).toBe(false);
    expect(allows(after, plugin, res('get', '', 'pods', { namespace: 'team-a', name: 'p' }))).toBe(true);
    expect(allows(after, plugin, res('create', DRA, 'resourceslices'))).toBe(true);
    expect(buildReport(after).findings.filter((f) => f.check === 'DRA008')).toEqual([]);
  });
  it('workload writes where privileged pods are admitted are left to a person: no safe automatic fix, and why', () => {
    const state = base([{ apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['create'] }]);
    const issue = issueOf(state, 'DRA008');
    expect(issue.fix!.status).toBe('none');
    expect(issue.remediation).toMatch(/^No safe automatic fix: .*create or change workload controllers.*Pod Security/);
  });
});

describe('NODE006: RBAC for node identities beyond the Node authorizer', () => {
  const state = stateOf({
    namespaces: [namespace('team-a')],
    nodes: NODES,
    clusterRoles: [clusterRole('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }])],
    clusterRoleBindings: [crb('nodes-read-secrets', { kind: 'ClusterRole', name: 'secret-reader' }, [Group('system:nodes'), User('ops')])],
  });
  const kubelet = { name: 'system:node:worker-1', groups: ['system:nodes', 'system:authenticated'] };
  const secret = res('get', '', 'secrets', { namespace: 'team-a', name: 'tenant-secret' });

  it('the node group comes out of the binding; the role and its other subjects stay', () => {
    const issue = issueOf(state, 'NODE006');
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    expect(allows(state, kubelet as never, secret)).toBe(true);
    expect(allows(after, kubelet as never, secret)).toBe(false);
    expect(allows(after, { name: 'ops', groups: ['system:authenticated'] } as never, secret)).toBe(true);
    expect(after.clusterRoles).toEqual(state.clusterRoles);
    expect(buildReport(after).findings.filter((f) => f.check === 'NODE006')).toEqual([]);
  });
  it('a bootstrap binding (reconciled by the API server) has no safe automatic fix', () => {
    const bootstrap = stateOf({
      ...state,
      clusterRoleBindings: [crb('system:nodes-read-secrets', { kind: 'ClusterRole', name: 'secret-reader' }, [Group('system:nodes')])],
    });
    const issue = issueOf(bootstrap, 'NODE006');
    expect(issue.fix!.status).toBe('none');
    expect(issue.remediation).toMatch(/^No safe automatic fix: .*bootstrap binding/);
  });
});

describe('DRA010: bind and escalate', () => {
  const RBAC = 'rbac.authorization.k8s.io';
  const state = stateOf({
    namespaces: [namespace('team-a')],
    nodes: NODES,
    clusterRoles: [
      clusterRole('claim-status-writer', [{ apiGroups: [DRA], resources: ['resourceclaims/status'], verbs: ['update'] }]),
      clusterRole('rbac-helper', [
        { apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['get', 'bind'] },
        { apiGroups: [RBAC], resources: ['clusterrolebindings', 'rolebindings'], verbs: ['create'] },
      ]),
    ],
    clusterRoleBindings: [crb('rbac-helper', { kind: 'ClusterRole', name: 'rbac-helper' }, [User('helper')])],
  });
  const helper = { name: 'helper', groups: ['system:authenticated'] };

  it('bind comes out; reading roles and creating bindings stay', () => {
    const issue = issueOf(state, 'DRA010');
    expect(issue.fix!.status).toBe('verified');
    const after = applied(state, issue.fix!);
    const bind = res('bind', RBAC, 'clusterroles', { name: 'claim-status-writer' });
    expect(allows(state, helper as never, bind)).toBe(true);
    expect(allows(after, helper as never, bind)).toBe(false);
    expect(allows(after, helper as never, res('get', RBAC, 'clusterroles', { name: 'claim-status-writer' }))).toBe(true);
    expect(allows(after, helper as never, res('create', RBAC, 'clusterrolebindings'))).toBe(true);
    expect(buildReport(after).findings.filter((f) => f.check === 'DRA010')).toEqual([]);
  });
});
