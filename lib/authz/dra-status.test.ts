import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { allocatedNodeName } from './dra-status';
import { claimAllocatedTo, clusterRole, crb, rb, singleNodeSelector, SA, stateOf, User, user } from './__fixtures__/builders';
import { serviceAccountUser } from './user-info';

// authz-semantics.md §8 / dra-facts.md §10: v1.36 granular ResourceClaim status authorization.
const statusRule = { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] };
const state = stateOf({
  clusterRoles: [
    clusterRole('plugin', [
      statusRule,
      {
        verbs: ['associated-node:update', 'associated-node:patch'],
        apiGroups: ['resource.k8s.io'],
        resources: ['resourceclaims/driver'],
        resourceNames: ['gpu.example.com'],
      },
    ]),
    clusterRole('controller', [
      statusRule,
      { verbs: ['arbitrary-node:update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'] },
    ]),
    clusterRole('allocator', [statusRule, { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] }]),
    clusterRole('legacy-status-only', [statusRule]),
    clusterRole('wildcard', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]),
  ],
  clusterRoleBindings: [
    crb('plugin', { kind: 'ClusterRole', name: 'plugin' }, [SA('drivers', 'plugin')]),
    crb('controller', { kind: 'ClusterRole', name: 'controller' }, [SA('drivers', 'controller')]),
    crb('allocator', { kind: 'ClusterRole', name: 'allocator' }, [User('allocator')]),
    crb('legacy', { kind: 'ClusterRole', name: 'legacy-status-only' }, [User('old-driver')]),
    crb('wild', { kind: 'ClusterRole', name: 'wildcard' }, [User('gpu-ops')]),
  ],
  roleBindings: [rb('team-a', 'ns-allocator', { kind: 'ClusterRole', name: 'allocator' }, [User('ns-allocator')])],
});
const engine = createAuthzEngine(state);
const onN1 = claimAllocatedTo('team-a', 'c1', singleNodeSelector('n1'));
const multiNode = claimAllocatedTo('team-a', 'c2', { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] }] });
const devices = (driver: string) => ({ verb: 'update' as const, changesBinding: false, drivers: [driver] });

describe('allocatedNodeName', () => {
  it.each([
    { sel: singleNodeSelector('n1'), node: 'n1' },
    { sel: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1', 'n2'] }] }] }, node: undefined },
    { sel: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] }] }, node: undefined },
    { sel: { nodeSelectorTerms: [...singleNodeSelector('n1').nodeSelectorTerms, ...singleNodeSelector('n2').nodeSelectorTerms] }, node: undefined },
    {
      sel: {
        nodeSelectorTerms: [{ matchFields: singleNodeSelector('n1').nodeSelectorTerms[0].matchFields, matchExpressions: [{ key: 'a', operator: 'Exists' }] }],
      },
      node: undefined,
    },
  ])('strict single-node form only → $node', ({ sel, node }) => {
    expect(allocatedNodeName(claimAllocatedTo('ns', 'c', sel))).toBe(node);
  });
});

describe('claim status writes', () => {
  it('a kubelet plugin bound to n1 writes devices of a claim on n1 via associated-node', () => {
    const d = engine.claimStatusWrite(serviceAccountUser('drivers', 'plugin', 'n1'), onN1, devices('gpu.example.com'));
    expect(d).toMatchObject({ allowed: true, drivers: [{ driver: 'gpu.example.com', allowed: true, mode: 'associated-node' }] });
  });
  it('the same plugin on n2 cannot (arbitrary-node not granted)', () => {
    const d = engine.claimStatusWrite(serviceAccountUser('drivers', 'plugin', 'n2'), onN1, devices('gpu.example.com'));
    expect(d.allowed).toBe(false);
    expect(d.reason).toContain('arbitrary-node:update on resourceclaims/driver "gpu.example.com"');
  });
  it('associated-node never reaches a multi-node claim', () => {
    expect(engine.claimStatusWrite(serviceAccountUser('drivers', 'plugin', 'n1'), multiNode, devices('gpu.example.com')).allowed).toBe(false);
  });
  it('the plugin cannot write another driver’s devices', () => {
    expect(engine.claimStatusWrite(serviceAccountUser('drivers', 'plugin', 'n1'), onN1, devices('gpu.nvidia.com')).allowed).toBe(false);
  });
  it('a controller with arbitrary-node:update reaches every node, multi-node too', () => {
    expect(engine.claimStatusWrite(serviceAccountUser('drivers', 'controller'), multiNode, devices('gpu.example.com'))).toMatchObject({
      allowed: true,
      drivers: [{ mode: 'arbitrary-node' }],
    });
  });
  it('but only for the verb it holds (patch denied)', () => {
    expect(engine.claimStatusWrite(serviceAccountUser('drivers', 'controller'), onN1, { ...devices('gpu.example.com'), verb: 'patch' }).allowed).toBe(false);
  });
  it('changing allocation needs resourceclaims/binding at cluster scope', () => {
    const write = { verb: 'update' as const, changesBinding: true, drivers: [] };
    expect(engine.claimStatusWrite(user('allocator'), onN1, write).allowed).toBe(true);
    expect(engine.claimStatusWrite(serviceAccountUser('drivers', 'plugin', 'n1'), onN1, write).allowed).toBe(false);
  });
  it('a RoleBinding can never grant resourceclaims/binding (cluster scope)', () => {
    expect(engine.claimStatusWrite(user('ns-allocator'), onN1, { verb: 'update', changesBinding: true, drivers: [] }).allowed).toBe(false);
  });
  it('a status-only grant breaks on 1.36 but works before', () => {
    expect(engine.claimStatusWrite(user('old-driver'), onN1, devices('gpu.example.com')).allowed).toBe(false);
    const v135 = createAuthzEngine({ ...state, source: { ...state.source, kubernetesVersion: 'v1.35.2' } });
    expect(v135.claimStatusWrite(user('old-driver'), onN1, devices('gpu.example.com')).allowed).toBe(true);
  });
  it('a wildcard on resource.k8s.io covers status, binding and driver', () => {
    expect(engine.claimStatusWrite(user('gpu-ops'), multiNode, { verb: 'patch', changesBinding: true, drivers: ['a', 'b'] }).allowed).toBe(true);
  });
});
