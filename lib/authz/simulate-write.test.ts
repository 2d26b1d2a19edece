import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { simulateWrite } from './simulate-write';
import { clusterRole, crb, node, pod, rb, res, role, singleNodeSelector, SA, stateOf, User, user } from './__fixtures__/builders';
import { nodeUser, serviceAccountUser } from './user-info';

// The whole chain a write goes through (issue 16): impersonation, authorization, NodeRestriction,
// then the storage-layer checks on the body (RBAC escalation, DRA claim status fields).
const RBAC = 'rbac.authorization.k8s.io';
const statusRule = { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] };
const state = stateOf(
  {
    nodes: [node('n1'), node('n2')],
    clusterRoles: [
      clusterRole('role-writer', [{ verbs: ['create', 'update'], apiGroups: [RBAC], resources: ['roles', 'rolebindings'] }]),
      clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
      clusterRole('view-binder', [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['pod-reader'] }]),
      clusterRole('plugin', [
        statusRule,
        {
          verbs: ['associated-node:update', 'associated-node:patch'],
          apiGroups: ['resource.k8s.io'],
          resources: ['resourceclaims/driver'],
          resourceNames: ['gpu.example.com'],
        },
      ]),
      clusterRole('impersonate-bob', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }]),
    ],
    clusterRoleBindings: [
      crb('plugin', { kind: 'ClusterRole', name: 'plugin' }, [SA('drivers', 'plugin')]),
      crb('alice-impersonates-bob', { kind: 'ClusterRole', name: 'impersonate-bob' }, [User('alice')]),
    ],
    roleBindings: [
      rb('team', 'alice-writes-roles', { kind: 'ClusterRole', name: 'role-writer' }, [User('alice')]),
      rb('team', 'bob-writes-roles', { kind: 'ClusterRole', name: 'role-writer' }, [User('bob')]),
      rb('team', 'bob-reads-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [User('bob')]),
      rb('team', 'carol-writes-roles', { kind: 'ClusterRole', name: 'role-writer' }, [User('carol')]),
      rb('team', 'carol-binds', { kind: 'ClusterRole', name: 'view-binder' }, [User('carol')]),
    ],
    roles: [role('team', 'existing', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])],
  },
  'v1.36.3',
);
const engine = createAuthzEngine(state);
const podReaderRole = {
  apiVersion: `${RBAC}/v1`,
  kind: 'Role',
  metadata: { name: 'readers', namespace: 'team' },
  rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
};
const bindingTo = (name: string) => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'RoleBinding',
  metadata: { name: 'b', namespace: 'team' },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
  subjects: [{ kind: 'User', apiGroup: RBAC, name: 'dave' }],
});
const createIn = (resource: string) => res('create', RBAC, resource, { namespace: 'team' });

describe('simulateWrite: RBAC escalation prevention', () => {
  it('a Role granting what the requester does not hold is refused by the escalation check, naming the rules', () => {
    const r = simulateWrite(engine, { user: user('alice'), attributes: createIn('roles'), object: podReaderRole });
    expect(r).toMatchObject({ allowed: false, refusedBy: 'admission:rbac-escalation' });
    expect(r.steps.map((s) => `${s.step} ${s.allowed}`)).toEqual(['authorization true', 'admission:rbac-escalation false']);
    expect(r.steps[1].uncovered).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  });

  it('the same Role is accepted from someone who holds every rule it grants', () => {
    expect(simulateWrite(engine, { user: user('bob'), attributes: createIn('roles'), object: podReaderRole })).toMatchObject({ allowed: true });
  });

  it('a binding: accepted with bind on that role (without holding it), or holding its rules; refused otherwise', () => {
    expect(simulateWrite(engine, { user: user('carol'), attributes: createIn('rolebindings'), object: bindingTo('role-writer') }).steps[1].reason).toContain(
      'holds every rule',
    );
    expect(simulateWrite(engine, { user: user('carol'), attributes: createIn('rolebindings'), object: bindingTo('pod-reader') }).steps[1].reason).toContain(
      'may bind',
    );
    expect(simulateWrite(engine, { user: user('carol'), attributes: createIn('rolebindings'), object: bindingTo('plugin') }).refusedBy).toBe(
      'admission:rbac-escalation',
    );
  });

  it('an update that only changes ownerReferences skips the check; one that adds rules does not', () => {
    const old = { ...podReaderRole, metadata: { ...podReaderRole.metadata, name: 'existing' } };
    const gcOnly = { ...old, metadata: { ...old.metadata, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'u' }] } };
    const update = res('update', RBAC, 'roles', { namespace: 'team', name: 'existing' });
    expect(simulateWrite(engine, { user: user('alice'), attributes: update, object: gcOnly, oldObject: old })).toMatchObject({ allowed: true });
    expect(simulateWrite(engine, { user: user('alice'), attributes: update, object: old, oldObject: { ...old, rules: [] } }).refusedBy).toBe(
      'admission:rbac-escalation',
    );
  });

  it('impersonation and authorization refuse first, and the request is decided as the impersonated user', () => {
    expect(simulateWrite(engine, { user: user('dave'), attributes: createIn('roles'), object: podReaderRole }).refusedBy).toBe('authorization');
    const asBob = simulateWrite(engine, { user: user('alice'), impersonate: { user: 'bob' }, attributes: createIn('roles'), object: podReaderRole });
    expect(asBob).toMatchObject({ allowed: true, decidedAs: { name: 'bob' } });
    expect(simulateWrite(engine, { user: user('alice'), impersonate: { user: 'carol' }, attributes: createIn('roles'), object: podReaderRole }).refusedBy).toBe(
      'impersonation',
    );
  });
});

describe('simulateWrite: DRA claim status and NodeRestriction', () => {
  const claim = (node: string, devices: unknown[] = [], extra: Record<string, unknown> = {}) => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'c', namespace: 'team' },
    status: { allocation: { devices: { results: [] }, nodeSelector: singleNodeSelector(node) }, devices, ...extra },
  });
  const gpu = { driver: 'gpu.example.com', pool: 'p', device: 'd0', conditions: [{ type: 'Ready', status: 'True' }] };
  const statusUpdate = res('update', 'resource.k8s.io', 'resourceclaims', { namespace: 'team', name: 'c', subresource: 'status' });

  it('a kubelet plugin’s pod-bound token writes device status of its own node’s claim, not another node’s, and never the allocation', () => {
    const onN1 = serviceAccountUser('drivers', 'plugin', 'n1');
    expect(simulateWrite(engine, { user: onN1, attributes: statusUpdate, oldObject: claim('n1'), object: claim('n1', [gpu]) })).toMatchObject({
      allowed: true,
    });
    const other = simulateWrite(engine, { user: onN1, attributes: statusUpdate, oldObject: claim('n2'), object: claim('n2', [gpu]) });
    expect(other.refusedBy).toBe('admission:dra-status');
    expect(other.steps.at(-1)!.reason).toContain('arbitrary-node:update');
    const rebind = simulateWrite(engine, {
      user: onN1,
      attributes: statusUpdate,
      oldObject: claim('n1'),
      object: claim('n1', [], { reservedFor: [{ resource: 'pods', name: 'p', uid: '1' }] }),
    });
    expect(rebind.refusedBy).toBe('admission:dra-status');
    expect(rebind.steps.at(-1)!.reason).toContain('resourceclaims/binding');
  });

  it('a node may create its own ResourceSlice, not another node’s (the Node authorizer allows both creates)', () => {
    const create = res('create', 'resource.k8s.io', 'resourceslices');
    const slice = (nodeName: string) => ({
      metadata: { name: 's' },
      spec: { nodeName, driver: 'gpu.example.com', pool: { name: 'p', generation: 1, resourceSliceCount: 1 } },
    });
    expect(simulateWrite(engine, { user: nodeUser('n1'), attributes: create, object: slice('n1') })).toMatchObject({ allowed: true });
    const foreign = simulateWrite(engine, { user: nodeUser('n1'), attributes: create, object: slice('n2') });
    expect(foreign.steps.map((s) => `${s.step} ${s.allowed}`)).toEqual(['authorization true', 'admission:node-restriction false']);
  });
});

describe('simulateWrite: NodeRestriction follows the cluster', () => {
  // kube-apiserver runs NodeRestriction only when --enable-admission-plugins names it; the Node
  // authorizer lets any node update any nodes/status (authz-semantics.md §6).
  const apiServer = (admission: string) =>
    pod('kube-system', 'kube-apiserver-cp', {
      containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', '--authorization-mode=Node,RBAC', `--enable-admission-plugins=${admission}`] }],
    });
  const withServer = (admission: string) => createAuthzEngine({ ...state, pods: [apiServer(admission)] });
  const otherStatus = res('patch', '', 'nodes', { name: 'n2', subresource: 'status' });
  const nodeObject = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, status: { conditions: [] } });
  const patch = { user: nodeUser('n1'), attributes: otherStatus, object: nodeObject('n2'), oldObject: nodeObject('n2') };

  it('off: a kubelet patching another node’s status is accepted, with the skipped step said', () => {
    const r = simulateWrite(withServer('PodSecurity'), patch);
    expect(r.allowed).toBe(true);
    expect(r.steps.map((s) => `${s.step} ${s.allowed}`)).toEqual(['authorization true', 'admission:node-restriction true']);
    expect(r.steps[1].reason).toBe('NodeRestriction admission is off on this cluster (flags of kube-system/kube-apiserver-cp): not checked');
  });

  it('on: the same patch is refused by NodeRestriction', () => {
    const r = simulateWrite(withServer('PodSecurity,NodeRestriction'), patch);
    expect(r.refusedBy).toBe('admission:node-restriction');
  });

  it('stated off on the command line, over an assumed on (no API server pod)', () => {
    expect(simulateWrite(engine, patch).refusedBy).toBe('admission:node-restriction');
    expect(simulateWrite(createAuthzEngine(state, { overrides: { nodeRestriction: false } }), patch).allowed).toBe(true);
  });
});
