import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { clusterRole, crb, Group, node, pod, pv, rb, res, role, SA, slice, stateOf, User } from './__fixtures__/builders';

const state = stateOf({
  nodes: [node('n1'), node('n2')],
  pods: [pod('team-a', 'web', { nodeName: 'n1', volumes: [{ name: 's', secret: { secretName: 'db' } }] })],
  clusterRoles: [
    clusterRole('driver', [
      { verbs: ['associated-node:update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'] },
    ]),
    clusterRole('wild', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]),
    clusterRole('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]),
    clusterRole('node-status', [{ verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] }]),
  ],
  roles: [role('team-a', 'local', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }])],
  clusterRoleBindings: [
    crb('driver', { kind: 'ClusterRole', name: 'driver' }, [SA('drivers', 'plugin')]),
    crb('wild', { kind: 'ClusterRole', name: 'wild' }, [Group('gpu-ops')]),
    crb('reporter', { kind: 'ClusterRole', name: 'node-status' }, [SA('kube-system', 'reporter')]),
  ],
  roleBindings: [
    rb('team-a', 'reader', { kind: 'ClusterRole', name: 'secret-reader' }, [User('alice')]),
    rb('team-b', 'reader', { kind: 'ClusterRole', name: 'secret-reader' }, [User('bob')]),
    rb('team-a', 'local', { kind: 'Role', name: 'local' }, [SA(undefined, 'app')]),
  ],
});
const engine = createAuthzEngine(state);
const names = (entries: ReturnType<typeof engine.whoCan>) =>
  entries.map((e) => `${e.subject.kind}:${e.subject.namespace ? `${e.subject.namespace}/` : ''}${e.subject.name}`);

describe('who-can', () => {
  it('finds driver-scoped and wildcard grants on the synthetic driver subresource', () => {
    const r = engine.whoCan({
      resource: res('associated-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: 'team-a', name: 'gpu.example.com' }),
    });
    expect(names(r)).toEqual(['Group:gpu-ops', 'Group:system:masters', 'ServiceAccount:drivers/plugin']);
    expect(r.find((e) => e.subject.name === 'plugin')!.grants).toEqual([
      { binding: { kind: 'ClusterRoleBinding', name: 'driver' }, role: { kind: 'ClusterRole', name: 'driver' }, ruleIndex: 0 },
    ]);
  });
  it('another driver name only reaches the wildcard', () => {
    const r = engine.whoCan({
      resource: res('associated-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: 'team-a', name: 'gpu.nvidia.com' }),
    });
    expect(names(r)).toEqual(['Group:gpu-ops', 'Group:system:masters']);
  });
  it('RoleBindings only count in their namespace; the Node authorizer adds the node whose pod uses the secret', () => {
    const r = engine.whoCan({ resource: res('get', '', 'secrets', { namespace: 'team-a', name: 'db' }) });
    expect(names(r)).toEqual(['Group:system:masters', 'User:alice', 'User:system:node:n1', 'ServiceAccount:team-a/app']);
  });
  it('any node may update any nodes/status: reported once as group system:nodes', () => {
    const r = engine.whoCan({ resource: res('update', '', 'nodes', { subresource: 'status', name: 'n2' }) });
    expect(names(r)).toEqual(['Group:system:masters', 'Group:system:nodes', 'ServiceAccount:kube-system/reporter']);
  });
  it('agrees with authorize() for every listed user subject', () => {
    const attrs = res('get', '', 'secrets', { namespace: 'team-a', name: 'db' });
    for (const e of engine.whoCan({ resource: attrs })) {
      if (e.subject.kind !== 'User' || e.via !== 'rbac') continue;
      expect(engine.authorize({ user: { name: e.subject.name, groups: [] }, resource: attrs }).allowed).toBe(true);
    }
  });
  it('node identities through each graph vertex type: a PV via its bound claim, a slice by spec.nodeName', () => {
    const graphState = stateOf({
      nodes: [node('n1'), node('n2')],
      pods: [pod('team-a', 'db', { nodeName: 'n2', volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] })],
      persistentVolumes: [pv('pv-1', { namespace: 'team-a', name: 'data' })],
      resourceSlices: [slice('n1-gpu', 'gpu.example.com', 'n1')],
    });
    const e = createAuthzEngine(graphState, { chain: ['Node'] });
    const nodesOf = (attrs: ReturnType<typeof res>) =>
      e
        .whoCan({ resource: attrs })
        .filter((x) => x.via === 'node')
        .map((x) => x.subject.name);
    expect(nodesOf(res('get', '', 'persistentvolumes', { name: 'pv-1' }))).toEqual(['system:node:n2']);
    expect(nodesOf(res('get', '', 'persistentvolumeclaims', { namespace: 'team-a', name: 'data' }))).toEqual(['system:node:n2']);
    expect(nodesOf(res('get', 'resource.k8s.io', 'resourceslices', { name: 'n1-gpu' }))).toEqual(['system:node:n1']);
    expect(nodesOf(res('get', '', 'persistentvolumes', { name: 'pv-unbound' }))).toEqual([]);
  });
});
