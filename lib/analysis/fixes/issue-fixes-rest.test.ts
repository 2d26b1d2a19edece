import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite } from '@/lib/authz/simulate-write';
import { clusterRole, crb, Group, node, rb, res, role, SA, slice, stateOf } from '@/lib/authz/__fixtures__/builders';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { UserInfo } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { KubeObject } from '@/lib/k8s/types';
import { claim, claimTemplate, daemonSet, dsPod, namespace, pluginPod, sliceWriter } from '@/lib/analysis/__fixtures__/builders';
import { CHECK_IDS } from '@/lib/analysis/catalog';
import type { Issue, IssueFix } from '@/lib/analysis/types';
import { buildReport } from '@/lib/report/build-report';
import { applyMergePatch } from './apply-patch';
import { checksWithFixes, checksWithManualRemedies } from './issue-fixes';

// The checks that had only hand-written remediation text (issue #24 item 1): each structured fix is
// applied here to the cluster's objects and judged by a fresh engine and the write simulation (the
// API server's chain), not by the engine the fix was checked with. Expectations come from Kubernetes
// semantics: a ValidatingAdmissionPolicy refuses what its validations reject for the users its
// matchConditions pick; the API server refuses a claim or template asking for adminAccess in a
// namespace without resource.kubernetes.io/admin-access=true; a RoleBinding's rule on `namespaces`
// applies to the Namespace object of the binding's namespace.

const DRA = 'resource.k8s.io';
const NODES = [node('worker-1'), node('worker-2')];
const ADMIN: UserInfo = { name: 'someone-admin', groups: ['system:masters'] };

const LISTS: Record<string, keyof ClusterState> = {
  ClusterRole: 'clusterRoles',
  Role: 'roles',
  ClusterRoleBinding: 'clusterRoleBindings',
  RoleBinding: 'roleBindings',
  Namespace: 'namespaces',
  ValidatingAdmissionPolicy: 'validatingAdmissionPolicies',
  ValidatingAdmissionPolicyBinding: 'validatingAdmissionPolicyBindings',
};

/** The cluster with the fix applied as a person would (every change here is a create or a merge patch). */
function applied(state: ClusterState, fix: IssueFix): ClusterState {
  const out = { ...state } as Record<string, unknown> & ClusterState;
  for (const c of fix.changes) {
    if (c.action === 'create') {
      const key = LISTS[c.object.kind as string];
      out[key] = [...(out[key] as KubeObject[]), c.object] as never;
      continue;
    }
    expect(c.patchType).toBe('merge');
    const key = LISTS[c.target.kind];
    out[key] = (out[key] as KubeObject[]).map((o) =>
      o.metadata.name === c.target.name && (o.metadata.namespace ?? '') === (c.target.namespace ?? '') ? applyMergePatch(o, c.patch) : o,
    ) as never;
  }
  return out;
}

function issueOf(state: ClusterState, check: string): Issue {
  const issues = buildReport(state).issues.filter((i) => i.check === check);
  expect(issues, check).toHaveLength(1);
  return issues[0];
}

const checksOf = (state: ClusterState) => new Set(buildReport(state).issues.map((i) => i.check));

function sliceObject(nodeName: string): Record<string, unknown> {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${nodeName}-s` },
    spec: { driver: 'gpu.example.com', pool: { name: nodeName, generation: 1, resourceSliceCount: 1 }, nodeName, devices: [] },
  };
}

const createSlice = (state: ClusterState, user: UserInfo, nodeName: string) =>
  simulateWrite(createAuthzEngine(state), { user, attributes: res('create', DRA, 'resourceslices'), object: sliceObject(nodeName) }).allowed;

describe('every check has a structured fix or a reason in words', () => {
  it('no check is left with only its hand-written text', () => {
    const covered = new Set([...checksWithFixes(), ...checksWithManualRemedies()]);
    expect(CHECK_IDS.filter((id) => !covered.has(id))).toEqual([]);
    expect(checksWithFixes().filter((id) => checksWithManualRemedies().includes(id))).toEqual([]);
  });
});

describe('DRA012: a pinning policy per node-local writer', () => {
  const state = stateOf({
    namespaces: [namespace('drv')],
    nodes: NODES,
    pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1')],
    resourceSlices: [slice('w1', 'gpu.example.com', 'worker-1')],
    clusterRoles: [sliceWriter('drv', 'drv-plugin').clusterRole],
    clusterRoleBindings: [sliceWriter('drv', 'drv-plugin').binding],
  });
  const issue = issueOf(state, 'DRA012');
  const after = applied(state, issue.fix!);
  const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');

  it('is verified, adds a policy and a binding, and changes no RBAC', () => {
    expect(issue.fix!.status).toBe('verified');
    expect(issue.fix!.changes.map((c) => (c.action === 'create' ? c.object.kind : c.target.kind))).toEqual([
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(issue.remediation).toMatch(/kind: ValidatingAdmissionPolicyBinding/);
  });
  it('after it, a slice of another node is refused and one of its own node accepted, and DRA012 is gone', () => {
    expect(createSlice(state, plugin, 'worker-2')).toBe(true);
    expect(createSlice(after, plugin, 'worker-2')).toBe(false);
    expect(createSlice(after, plugin, 'worker-1')).toBe(true);
    expect(checksOf(after).has('DRA012')).toBe(false);
  });
  it('its probes are the writes that decide it', () => {
    const writes = issue.fix!.probes.filter((p) => p.write);
    expect(writes.map((p) => [p.expect, (p.write!.object.spec as { nodeName: string }).nodeName])).toEqual([
      ['allowed', 'worker-1'],
      ['denied', 'worker-2'],
    ]);
  });
});

describe('DRA001: a kubelet plugin bound to cluster-admin', () => {
  const state = stateOf({
    namespaces: [namespace('drv')],
    nodes: NODES,
    pods: [pluginPod('drv', 'drv-plugin', 'a', 'drv-plugin', 'worker-1')],
    resourceSlices: [slice('w1', 'gpu.example.com', 'worker-1')],
    clusterRoles: [clusterRole('cluster-admin', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }])],
    clusterRoleBindings: [crb('drv-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [SA('drv', 'drv-plugin'), Group('ops')])],
  });
  const issue = issueOf(state, 'DRA001');
  const after = applied(state, issue.fix!);
  const plugin = serviceAccountUser('drv', 'drv-plugin', 'worker-1');
  const allows = (s: ClusterState, user: UserInfo, attrs: ReturnType<typeof res>) => createAuthzEngine(s).authorize({ user, resource: attrs }).allowed;

  it('takes the account out of the binding (the group keeps it) and binds a kubelet-plugin role for its own driver', () => {
    expect(issue.fix!.status).toBe('verified');
    expect(after.clusterRoleBindings.find((b) => b.metadata.name === 'drv-admin')!.subjects).toEqual([Group('ops')]);
    expect(after.clusterRoles.find((r) => r.metadata.name === 'cluster-admin')!.rules).toEqual(state.clusterRoles[0].rules);
  });
  it('after it, admin requests are refused and the plugin’s own requests allowed', () => {
    expect(allows(after, plugin, res('get', '', 'secrets', { namespace: 'kube-system', name: 's' }))).toBe(false);
    expect(allows(after, plugin, res('create', DRA, 'resourceslices'))).toBe(true);
    const driverWrite = (name: string) => res('associated-node:update', DRA, 'resourceclaims', { subresource: 'driver', namespace: 'drv', name });
    expect(allows(after, plugin, driverWrite('gpu.example.com'))).toBe(true);
    expect(allows(after, plugin, driverWrite('other.example.com'))).toBe(false);
    expect(allows(after, { name: 'x', groups: ['ops'] }, res('get', '', 'secrets', { namespace: 'kube-system', name: 's' }))).toBe(true);
  });
  it('pins its slice writes too, so the new role is not a DRA012 finding', () => {
    expect(createSlice(after, plugin, 'worker-2')).toBe(false);
    expect([...checksOf(after)].filter((c) => c === 'DRA001' || c === 'DRA012')).toEqual([]);
  });
});

describe('CLAIM003: a tenant that can patch its own Namespace', () => {
  const state = stateOf({
    namespaces: [namespace('tenant-a')],
    nodes: NODES,
    roles: [role('tenant-a', 'self-label', [{ apiGroups: [''], resources: ['namespaces'], resourceNames: ['tenant-a'], verbs: ['get', 'patch'] }])],
    roleBindings: [rb('tenant-a', 'self-label', { kind: 'Role', name: 'self-label' }, [Group('tenant-a-devs')])],
  });
  const issue = issueOf(state, 'CLAIM003');
  const after = applied(state, issue.fix!);
  const dev: UserInfo = { name: 'dev', groups: ['tenant-a-devs'] };
  const own = (verb: string) => res(verb, '', 'namespaces', { namespace: 'tenant-a', name: 'tenant-a' });

  it('keeps get and takes patch out of the Role', () => {
    expect(issue.fix!.status).toBe('verified');
    expect(createAuthzEngine(state).authorize({ user: dev, resource: own('patch') }).allowed).toBe(true);
    expect(createAuthzEngine(after).authorize({ user: dev, resource: own('patch') }).allowed).toBe(false);
    expect(createAuthzEngine(after).authorize({ user: dev, resource: own('get') }).allowed).toBe(true);
    expect(checksOf(after).has('CLAIM003')).toBe(false);
  });
});

describe('CLAIM001 and CLAIM005: namespace labels', () => {
  const labelled = stateOf({
    namespaces: [
      namespace('tenant-c', { 'resource.kubernetes.io/admin-access': 'true' }),
      namespace('kube-system', { 'resource.k8s.io/admin-access': 'true' }),
    ],
    nodes: NODES,
    resourceClaimTemplates: [claimTemplate('tenant-c', 'debug', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com', adminAccess: true } }])],
    resourceClaims: [claim('tenant-c', 'work', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com' } }])],
  });
  const adminClaim = (ns: string) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'x', namespace: ns },
    spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com', adminAccess: true } }] } },
  });
  const createClaim = (s: ClusterState, object: Record<string, unknown>) =>
    simulateWrite(createAuthzEngine(s), { user: ADMIN, attributes: res('create', DRA, 'resourceclaims', { namespace: 'tenant-c' }), object }).allowed;

  it('CLAIM001: the label comes off the tenant namespace (a merge patch the server reads as delete), and adminAccess claims are refused there', () => {
    const issue = issueOf(labelled, 'CLAIM001');
    expect(issue.fix!.status).toBe('verified');
    expect(issue.remediation).toContain(
      `kubectl patch namespace tenant-c --type merge -p '{"metadata":{"labels":{"resource.kubernetes.io/admin-access":null}}}'`,
    );
    const after = applied(labelled, issue.fix!);
    expect(after.namespaces.find((n) => n.metadata.name === 'tenant-c')!.metadata.labels).toEqual({});
    expect(createClaim(labelled, adminClaim('tenant-c'))).toBe(true);
    expect(createClaim(after, adminClaim('tenant-c'))).toBe(false);
    expect(issue.fix!.reason).toMatch(/ResourceClaimTemplate tenant-c\/debug asks for adminAccess/);
  });
  it('CLAIM005: the inert legacy label is removed on 1.34+, and not touched on 1.33 where it is the one read', () => {
    const issue = issueOf(labelled, 'CLAIM005');
    expect(issue.fix!.status).toBe('verified');
    expect(applied(labelled, issue.fix!).namespaces.find((n) => n.metadata.name === 'kube-system')!.metadata.labels).toEqual({});
    const old = issueOf({ ...labelled, source: { ...labelled.source, kubernetesVersion: 'v1.33.4' } }, 'CLAIM005');
    expect(old.fix!.status).toBe('none');
    expect(old.remediation).toMatch(/^No safe automatic fix: the cluster runs v1\.33\.4/);
  });
});

describe('checks without an object change: no unchecked YAML', () => {
  const state = stateOf({
    namespaces: [namespace('tenant-a'), namespace('tenant-b')],
    nodes: NODES,
    deviceClasses: [
      {
        apiVersion: 'resource.k8s.io/v1',
        kind: 'DeviceClass',
        metadata: { name: 'gpu.example.com' },
        spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
      },
    ],
    resourceClaims: [
      claim('tenant-a', 'a', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com', allocationMode: 'All' } }]),
      claim('tenant-b', 'b', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com' } }]),
    ],
  });
  const issues = buildReport(state).issues;

  it('each issue says why there is no safe automatic fix, carries no change, and prints no object', () => {
    const checks = issues.map((i) => i.check);
    // CLAIM004 too: no class here has zeroing, so an allow-list of zeroed classes would refuse every claim.
    for (const id of ['ZERO001', 'ZERO002', 'QUOTA004', 'CLAIM004']) expect(checks, id).toContain(id);
    for (const i of issues.filter((x) => !checksWithFixes().includes(x.check) || x.check === 'CLAIM004')) {
      expect(i.fix, i.check).toBeDefined();
      expect(i.fix!.status, i.check).toBe('none');
      expect(i.fix!.changes).toEqual([]);
      expect(i.remediation, i.check).toMatch(/^No safe automatic fix: /);
      expect(i.remediation, i.check).not.toMatch(/^\s*(apiVersion|kind|metadata|spec|rules):/m);
    }
  });
  it('zeroing is recorded with a command once the platform zeroes devices, not with a manifest', () => {
    const zero = issues.find((i) => i.check === 'ZERO001')!;
    expect(zero.remediation).toContain('kubectl annotate deviceclass gpu.example.com dra-posture.io/zero-on-release=true');
  });
});

describe('POD004: a tenant workload that mounts the kubelet plugin directories', () => {
  // A DaemonSet's pod template can be changed (its pods restart without the host path); a bare Pod's
  // volumes cannot (a pod's spec is immutable). Neither is judged by the engine: whether the workload
  // still works without the path is not in the cluster state.
  const spec = {
    volumes: [{ name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins' } }],
    containers: [{ name: 'c', volumeMounts: [{ name: 'plugins', mountPath: '/plugins' }] }],
  };
  const state = stateOf({
    namespaces: [namespace('tenant-a')],
    nodes: NODES,
    daemonSets: [daemonSet('tenant-a', 'sniffer', spec)],
    pods: [dsPod('tenant-a', 'sniffer', 'x1', { ...spec, nodeName: 'worker-1' })],
  });

  it('says why for the DaemonSet, naming it, and prints no object', () => {
    const issue = issueOf(state, 'POD004');
    expect(issue.fix!.status).toBe('none');
    expect(issue.fix!.reason).toContain('removing the volumes from the pod template of DaemonSet tenant-a/sniffer');
    expect(issue.fix!.reason).not.toContain("a running pod's volumes cannot be changed");
    expect(issue.remediation).not.toMatch(/^\s*(apiVersion|kind|metadata|spec):/m);
  });
});
