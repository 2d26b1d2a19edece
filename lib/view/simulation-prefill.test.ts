import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite } from '@/lib/authz/simulate-write';
import { simulatedWriteOf } from '@/lib/authz/question-write';
import { writeFromManifest } from '@/lib/authz/write-request';
import { missingReferences } from '@/lib/authz/write-references';
import type { UserInfo } from '@/lib/authz/types';
import { clusterRole, crb, node, res, SA, singleNodeSelector, slice, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ResourceClaim } from '@/lib/k8s/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { defaultSimulatorPrefill, simulatorPrefillFor, type SimulatorPrefill } from './simulation-prefill';

// The explorer's simulator is filled from the loaded source: the write must be one the API server
// would decide by the check the who-can question asked about (dra-facts §10 for the claim status
// checks), sent by the row's subject, naming objects the source has.

const DRA = 'resource.k8s.io';
const GPU = 'gpu.example.com';

function allocated(namespace: string, name: string, nodeName: string, driver = GPU): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace, uid: `uid-${name}`, resourceVersion: '42' },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
    status: {
      allocation: { devices: { results: [{ request: 'gpu', driver, pool: nodeName, device: 'gpu-0' }] }, nodeSelector: singleNodeSelector(nodeName) },
      reservedFor: [{ resource: 'pods', name: 'p', uid: 'pod-uid' }],
    },
  };
}

const statusRule = { verbs: ['update', 'patch'], apiGroups: [DRA], resources: ['resourceclaims/status'] };
const state: ClusterState = stateOf(
  {
    namespaces: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'drivers' } },
    ],
    serviceAccounts: [
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'plugin', namespace: 'drivers' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'allocator', namespace: 'team' } },
    ],
    nodes: [node('n1'), node('n2'), node('cp')],
    resourceSlices: [slice('n2-gpu', GPU, 'n2'), slice('n1-gpu', GPU, 'n1')],
    resourceClaims: [allocated('team', 'train', 'n2')],
    clusterRoles: [
      clusterRole('forger', [statusRule, { verbs: ['update', 'patch'], apiGroups: [DRA], resources: ['resourceclaims/binding'] }]),
      clusterRole('status-only', [statusRule]),
      clusterRole('plugin', [statusRule, { verbs: ['associated-node:update'], apiGroups: [DRA], resources: ['resourceclaims/driver'], resourceNames: [GPU] }]),
    ],
    clusterRoleBindings: [
      crb('forger', { kind: 'ClusterRole', name: 'forger' }, [SA('team', 'allocator')]),
      crb('status-only', { kind: 'ClusterRole', name: 'status-only' }, [User('carol')]),
      crb('plugin', { kind: 'ClusterRole', name: 'plugin' }, [SA('drivers', 'plugin')]),
    ],
  },
  'v1.36.3',
);
const engine = createAuthzEngine(state);

/** The prefilled form sent as the dashboard sends it. */
function simulate(p: SimulatorPrefill, u: UserInfo) {
  const sim = writeFromManifest(parseYaml(p.object), {
    user: u,
    verb: p.verb || undefined,
    subresource: p.subresource,
    old: p.old ? parseYaml(p.old) : undefined,
    where: 'the object',
  });
  return { sim, result: simulateWrite(engine, sim) };
}

describe('simulatedWriteOf: which questions are writes the simulator sends', () => {
  it('maps the synthetic claim-status checks to an update of resourceclaims/status', () => {
    expect(simulatedWriteOf(res('update', DRA, 'resourceclaims', { subresource: 'binding' }))).toMatchObject({
      verb: 'update',
      subresource: 'status',
      claimCheck: 'binding',
    });
    expect(simulatedWriteOf(res('associated-node:patch', DRA, 'resourceclaims', { subresource: 'driver' }))).toMatchObject({
      verb: 'patch',
      subresource: 'status',
      claimCheck: 'driver',
      driverMode: 'associated-node',
    });
    // The driver check is asked only with a node-prefixed verb: a plain update there is never checked.
    expect(simulatedWriteOf(res('update', DRA, 'resourceclaims', { subresource: 'driver' }))).toBeUndefined();
  });

  it('leaves out reads, wildcards, unknown kinds and subresources that are not written', () => {
    expect(simulatedWriteOf(res('get', DRA, 'resourceclaims'))).toBeUndefined();
    expect(simulatedWriteOf(res('*', DRA, 'resourceslices'))).toBeUndefined();
    expect(simulatedWriteOf(res('create', 'example.com', 'widgets'))).toBeUndefined();
    expect(simulatedWriteOf(res('create', '', 'pods', { subresource: 'exec' }))).toBeUndefined();
    expect(simulatedWriteOf(res('create', DRA, 'resourceslices'))).toMatchObject({ verb: 'create', subresource: '' });
    expect(simulatedWriteOf(res('patch', '', 'nodes', { subresource: 'status' }))).toMatchObject({ verb: 'patch', subresource: 'status' });
  });
});

describe('simulatorPrefillFor: the write of a who-can row', () => {
  it('binding: sets the allocation of a real claim, so the API server asks resourceclaims/binding', () => {
    const p = simulatorPrefillFor(state, res('update', DRA, 'resourceclaims', { subresource: 'binding' }), {
      kind: 'ServiceAccount',
      namespace: 'team',
      name: 'allocator',
    })!;
    expect(p.user).toBe('system:serviceaccount:team:allocator');
    const forger = simulate(p, serviceAccountUser('team', 'allocator'));
    expect(forger.sim.attributes).toMatchObject({ verb: 'update', resource: 'resourceclaims', subresource: 'status', namespace: 'team', name: 'train' });
    expect(forger.result.allowed).toBe(true);
    expect(forger.result.steps.at(-1)!.reason).toContain('changes status.allocation or status.reservedFor');
    // Without resourceclaims/binding the same write is refused by the DRA status check, not by RBAC on status.
    const carol = simulate(simulatorPrefillFor(state, res('update', DRA, 'resourceclaims', { subresource: 'binding' }), { kind: 'User', name: 'carol' })!, {
      name: 'carol',
      groups: ['system:authenticated'],
    });
    expect(carol.result.refusedBy).toBe('admission:dra-status');
    expect(missingReferences(state, forger.sim)).toEqual([]);
  });

  it('driver with associated-node: writes status.devices of a claim on the token’s node', () => {
    const p = simulatorPrefillFor(state, res('associated-node:update', DRA, 'resourceclaims', { subresource: 'driver', name: GPU }), {
      kind: 'ServiceAccount',
      namespace: 'drivers',
      name: 'plugin',
    })!;
    expect(p.node).toBe('n2');
    const r = simulate(p, serviceAccountUser('drivers', 'plugin', p.node));
    expect(r.result.allowed).toBe(true);
    expect(r.result.steps.at(-1)!.reason).toContain(`status.devices of ${GPU}`);
    // From another node the associated-node grant does not apply (dra-facts §10): refused.
    expect(simulate(p, serviceAccountUser('drivers', 'plugin', 'n1')).result.allowed).toBe(false);
  });

  it('a group is sent as a real member: system:nodes as the node the question names', () => {
    const p = simulatorPrefillFor(state, res('patch', '', 'nodes', { subresource: 'status', name: 'n1' }), { kind: 'Group', name: 'system:nodes' })!;
    expect(p.user).toBe('system:node:n1');
    expect(parseYaml(p.object)).toMatchObject({ kind: 'Node', metadata: { name: 'n1' } });
    expect(p.verb).toBe('patch');
    expect(p.old).not.toBe('');
  });

  it('a create copies an object of the source without server-set metadata; a made-up one is said to be', () => {
    const p = simulatorPrefillFor(state, res('create', DRA, 'resourceclaims', { namespace: 'team' }), { kind: 'User', name: 'carol' })!;
    const o = parseYaml(p.object);
    expect(o.metadata).toEqual({ name: 'train', namespace: 'team' });
    expect(o.status).toBeUndefined();
    expect(p.old).toBe('');
    const none = simulatorPrefillFor(state, res('create', DRA, 'resourceclaimtemplates', { namespace: 'team' }), { kind: 'User', name: 'carol' })!;
    expect(parseYaml(none.object)).toMatchObject({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { namespace: 'team' } });
    expect(none.note).toContain('made-up');
  });

  it('is undefined for a question that is not a write', () => {
    expect(simulatorPrefillFor(state, res('list', DRA, 'resourceclaims'), { kind: 'User', name: 'carol' })).toBeUndefined();
  });
});

describe('defaultSimulatorPrefill: the form’s opening write', () => {
  it('a node with devices publishes a slice for another node of this source, with its driver', () => {
    const p = defaultSimulatorPrefill(state);
    const o = parseYaml(p.object);
    expect(o).toMatchObject({ kind: 'ResourceSlice', spec: { nodeName: 'n1', driver: GPU } });
    // The sender is the other node with devices, not the control-plane node.
    expect(p.user).toBe('system:node:n2');
    const sim = writeFromManifest(o, { user: { name: p.user, groups: ['system:nodes', 'system:authenticated'] }, where: 'the object' });
    expect(missingReferences(state, sim)).toEqual([]);
  });

  it('names no node of another cluster when the source has none', () => {
    const p = defaultSimulatorPrefill(stateOf({}));
    const sim = writeFromManifest(parseYaml(p.object), { user: { name: p.user, groups: ['system:nodes'] }, where: 'the object' });
    // The placeholder is flagged as missing rather than passed off as a node of this source.
    expect(missingReferences(stateOf({}), sim).map((m) => m.kind)).toContain('Node');
  });
});

describe('simulatorPrefillFor: a source without an object of the kind', () => {
  it('a made-up slice is for the sending node, so NodeRestriction has a node to check', () => {
    const bare = stateOf({ nodes: [node('only')] });
    const p = simulatorPrefillFor(bare, res('create', DRA, 'resourceslices'), { kind: 'User', name: 'system:node:only' })!;
    expect(parseYaml(p.object)).toMatchObject({ kind: 'ResourceSlice', spec: { nodeName: 'only' } });
    expect(p.note).toContain('made-up');
  });
});
