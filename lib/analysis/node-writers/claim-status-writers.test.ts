import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, node, pod, rb, SA, singleNodeSelector, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { NodeSelector, Pod, ResourceClaim } from '@/lib/k8s/types';
import type { ClaimStatusWriter } from '@/lib/analysis/types';
import { computeBlastRadius } from './blast-radius';
import { placeAllocatedClaims } from './claim-placement';
import { listNodeWriters, writersOfNode, type NodeWriterLists } from './node-writers';

// The full writer list of every node with claims, from the all-nodes list and each node's own.
const perNode = (w: NodeWriterLists) => new Map(w.nodes.filter((n) => n.claimDrivers.length > 0).map((n) => [n.name, writersOfNode(w, n).claimStatusWriters]));

// dra-facts §10 / authz-semantics §8: who can write status.devices of the claims on each node.

const statusRule = { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] };

function claim(namespace: string, name: string, driver: string, nodeSelector: NodeSelector | undefined, reservedFor: Pod[] = []): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace, uid: `claim-${name}` },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: driver } }] } },
    status: {
      allocation: { devices: { results: [{ request: 'gpu', driver, pool: 'p', device: 'd0' }] }, ...(nodeSelector ? { nodeSelector } : {}) },
      reservedFor: reservedFor.map((p) => ({ resource: 'pods', name: p.metadata.name, uid: p.metadata.uid! })),
    },
  };
}

const workerA = pod('team-a', 'worker-a', { nodeName: 'n1' });
const workerB = pod('team-a', 'worker-b', { nodeName: 'n2' });

function fixture(): ClusterState {
  return stateOf({
    nodes: [node('n1'), node('n2'), node('n3')],
    pods: [
      pod('drivers', 'plugin-n1', { nodeName: 'n1', serviceAccountName: 'plugin' }),
      pod('drivers', 'plugin-n2', { nodeName: 'n2', serviceAccountName: 'plugin' }),
      pod('drivers', 'controller-0', { nodeName: 'n3', serviceAccountName: 'controller' }),
      pod('kube-system', 'intel-reporter-n1', { nodeName: 'n1', serviceAccountName: 'intel-reporter' }),
      workerA,
      workerB,
    ],
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
      clusterRole('wildcard', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]),
      clusterRole('driver-only', [{ verbs: ['arbitrary-node:update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] }]),
      clusterRole('node-status-patch-role', [{ verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] }]),
    ],
    clusterRoleBindings: [
      crb('plugin', { kind: 'ClusterRole', name: 'plugin' }, [SA('drivers', 'plugin')]),
      crb('controller', { kind: 'ClusterRole', name: 'controller' }, [SA('drivers', 'controller')]),
      crb('gpu-ops', { kind: 'ClusterRole', name: 'wildcard' }, [User('gpu-ops')]),
      crb('driver-only', { kind: 'ClusterRole', name: 'driver-only' }, [User('no-status')]),
      crb('intel-reporter', { kind: 'ClusterRole', name: 'node-status-patch-role' }, [SA('kube-system', 'intel-reporter')]),
    ],
    roleBindings: [rb('team-b', 'team-b-wild', { kind: 'ClusterRole', name: 'wildcard' }, [User('team-b-admin')])],
    resourceClaims: [
      claim('team-a', 'on-n1', 'gpu.example.com', singleNodeSelector('n1'), [workerA]),
      // Multi-node: a label-based selector, reserved for pods on n1 and n2.
      claim('team-a', 'multi', 'gpu.example.com', { nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['a'] }] }] }, [
        workerA,
        workerB,
      ]),
      claim('team-a', 'other-driver', 'other.example.com', singleNodeSelector('n2')),
      claim('team-b', 'unreserved', 'gpu.example.com', undefined),
    ],
  });
}

const label = (w: ClaimStatusWriter) => `${w.driver} ${w.mode} ${w.subject.kind}/${w.subject.namespace ? `${w.subject.namespace}/` : ''}${w.subject.name}`;

function analyse(state = fixture()) {
  const engine = createAuthzEngine(state);
  const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
  return { ctx, map: perNode(listNodeWriters(ctx)) };
}

describe('placeAllocatedClaims', () => {
  it('uses the strict allocated node, else the nodes of the reserved pods; skips claims with no node', () => {
    const placement = placeAllocatedClaims(fixture());
    const flat = [...placement].map(([n, byDriver]) => [n, [...byDriver].map(([d, cs]) => `${d}: ${cs.map((c) => c.metadata.name).join(',')}`)]);
    expect(flat).toEqual([
      ['n1', ['gpu.example.com: multi,on-n1']],
      ['n2', ['gpu.example.com: multi', 'other.example.com: other-driver']],
    ]);
  });
});

describe('claim status writers (listNodeWriters)', () => {
  const { map } = analyse();

  it('associated-node only through pods of that service account on that node; arbitrary-node and wildcard everywhere', () => {
    expect([...map.keys()]).toEqual(['n1', 'n2']);
    expect(map.get('n1')!.map(label)).toEqual([
      'gpu.example.com associated-node ServiceAccount/drivers/plugin',
      'gpu.example.com arbitrary-node User/gpu-ops',
      'gpu.example.com arbitrary-node ServiceAccount/drivers/controller',
    ]);
  });

  it('a multi-node claim takes only arbitrary-node writers (the plugin on n2 has no strict node match)', () => {
    expect(map.get('n2')!.map(label)).toEqual([
      'gpu.example.com arbitrary-node User/gpu-ops',
      'gpu.example.com arbitrary-node ServiceAccount/drivers/controller',
      'other.example.com arbitrary-node User/gpu-ops',
    ]);
  });

  it('a driver grant without resourceclaims/status is not enough; a RoleBinding elsewhere does not apply', () => {
    const all = [...map.values()].flat().map(label).join('\n');
    expect(all).not.toContain('no-status');
    expect(all).not.toContain('team-b-admin');
  });

  it('evidence names the status and driver grants', () => {
    const w = map.get('n1')!.find((x) => x.mode === 'associated-node')!;
    expect(w.via.filter((e) => e.type === 'grant').map((e) => (e.type === 'grant' ? `${e.role.name}#${e.ruleIndex}` : ''))).toEqual(['plugin#0', 'plugin#1']);
  });

  it('before 1.36 (no granular authorization) resourceclaims/status alone writes devices', () => {
    const s = fixture();
    s.source = { ...s.source, kubernetesVersion: '1.35' };
    s.clusterRoles.push(clusterRole('status-only', [statusRule]));
    s.clusterRoleBindings.push(crb('old-driver', { kind: 'ClusterRole', name: 'status-only' }, [User('old-driver')]));
    const { map: m } = analyse(s);
    expect(m.get('n1')!.map(label)).toContain('gpu.example.com arbitrary-node User/old-driver');
    expect(m.get('n1')!.map(label)).toContain('gpu.example.com arbitrary-node ServiceAccount/drivers/plugin');
  });

  // Found by e2e/integration/capability-differential.test.ts against a real kube-apiserver.
  it('before 1.36, a ClusterRoleBinding whose resourceclaims/status rule names claims writes those claims', () => {
    const s = fixture();
    s.source = { ...s.source, kubernetesVersion: '1.35' };
    s.clusterRoles.push(clusterRole('status-on-n1', [{ ...statusRule, verbs: ['update'], resourceNames: ['on-n1'] }]));
    s.clusterRoleBindings.push(crb('named-claims', { kind: 'ClusterRole', name: 'status-on-n1' }, [User('named-writer')]));
    const { map: m } = analyse(s);
    expect(m.get('n1')!.map(label)).toContain('gpu.example.com arbitrary-node User/named-writer');
    expect(m.get('n2')!.map(label)).not.toContain('gpu.example.com arbitrary-node User/named-writer');
  });

  it('a service account writes device status with its own resourceclaims/status grant and its group’s resourceclaims/driver grant', () => {
    const s = fixture();
    const sa = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount' as const, metadata: { namespace, name } });
    s.serviceAccounts.push(sa('ops', 'status-writer'), sa('ops', 'idle'), sa('ops2', 'member'));
    s.clusterRoles.push(
      clusterRole('status-only', [statusRule]),
      clusterRole('arbitrary-gpu', [
        { verbs: ['arbitrary-node:update', 'arbitrary-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
      ]),
      clusterRole('both', [statusRule, { verbs: ['arbitrary-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] }]),
    );
    s.clusterRoleBindings.push(
      crb('ops-status', { kind: 'ClusterRole', name: 'status-only' }, [SA('ops', 'status-writer'), SA('ops2', 'member')]),
      crb('ops-driver', { kind: 'ClusterRole', name: 'arbitrary-gpu' }, [Group('system:serviceaccounts:ops')]),
      // A group that writes on its own: its members are not listed one by one beside it.
      crb('ops2-both', { kind: 'ClusterRole', name: 'both' }, [Group('system:serviceaccounts:ops2')]),
    );
    const { map: m } = analyse(s);
    const n1 = m.get('n1')!.map(label);
    expect(n1).toContain('gpu.example.com arbitrary-node ServiceAccount/ops/status-writer');
    expect(n1).toContain('gpu.example.com arbitrary-node Group/system:serviceaccounts:ops2');
    expect(n1.filter((l) => /ops\/idle|system:serviceaccounts:ops$|ops2\/member/.test(l))).toEqual([]);
  });
});

describe('computeBlastRadius', () => {
  const { ctx } = analyse();

  it('n1: the node identity and the service accounts of its pods, with what they reach', () => {
    const r = computeBlastRadius(ctx, 'n1', listNodeWriters(ctx));
    expect(r.identities.map((i) => `${i.subject.kind}/${i.subject.namespace ?? ''}/${i.subject.name}`)).toEqual([
      'User//system:node:n1',
      'ServiceAccount/drivers/plugin',
      'ServiceAccount/kube-system/intel-reporter',
      'ServiceAccount/team-a/default',
    ]);
    const byName = new Map(r.identities.map((i) => [i.subject.name, i]));
    expect(byName.get('system:node:n1')).toMatchObject({ statusNodes: ['n1'], allNodes: false, claims: [] });
    expect(byName.get('plugin')!.claims).toEqual([{ namespace: 'team-a', name: 'on-n1', driver: 'gpu.example.com', mode: 'associated-node' }]);
    expect(byName.get('intel-reporter')).toMatchObject({ statusNodes: ['n1', 'n2', 'n3'], allNodes: true });
    expect(r.otherNodes).toEqual(['n2', 'n3']);
    expect(r.allNodes).toBe(true);
    expect(r.claims).toEqual([{ namespace: 'team-a', name: 'on-n1', driver: 'gpu.example.com' }]);
  });

  it('n3: the controller (arbitrary-node) reaches allocated claims anywhere, placed on a node or not', () => {
    const r = computeBlastRadius(ctx, 'n3', listNodeWriters(ctx));
    const controller = r.identities.find((i) => i.subject.name === 'controller')!;
    expect(controller.claims.map((c) => `${c.namespace}/${c.name}:${c.mode}`)).toEqual([
      'team-a/multi:arbitrary-node',
      'team-a/on-n1:arbitrary-node',
      'team-b/unreserved:arbitrary-node',
    ]);
    expect(r.otherNodes).toEqual([]);
  });
});

describe('scale', () => {
  it('5,000 nodes and 50,000 allocated claims stay fast', () => {
    const nodes = Array.from({ length: 5000 }, (_, i) => node(`node-${i}`));
    const pods = nodes.map((n, i) => pod('drivers', `plugin-${i}`, { nodeName: n.metadata.name, serviceAccountName: 'plugin' }));
    const claims = Array.from({ length: 50_000 }, (_, i) => claim(`team-${i % 100}`, `c-${i}`, 'gpu.example.com', singleNodeSelector(`node-${i % 5000}`)));
    const base = fixture();
    const state = stateOf({ nodes, pods, clusterRoles: base.clusterRoles, clusterRoleBindings: base.clusterRoleBindings, resourceClaims: claims });
    const engine = createAuthzEngine(state);
    const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
    const t0 = performance.now();
    const map = perNode(listNodeWriters(ctx));
    const ms = performance.now() - t0;
    expect(map.size).toBe(5000);
    expect(map.get('node-4999')!.map(label)).toEqual([
      'gpu.example.com associated-node ServiceAccount/drivers/plugin',
      'gpu.example.com arbitrary-node User/gpu-ops',
      'gpu.example.com arbitrary-node ServiceAccount/drivers/controller',
    ]);
    expect(ms).toBeLessThan(10_000);
  });

  it('a node hosting an arbitrary-node writer: its blast radius covers every claim of the driver without asking claim by claim', () => {
    // The controller's grant (arbitrary-node, ClusterRoleBinding) holds for every claim of its driver
    // wherever allocated; the plugin's (associated-node) only for the claims allocated on its own node.
    const nodes = Array.from({ length: 5000 }, (_, i) => node(`node-${i}`));
    const pods = [
      ...nodes.map((n, i) => pod('drivers', `plugin-${i}`, { nodeName: n.metadata.name, serviceAccountName: 'plugin' })),
      pod('drivers', 'controller-0', { nodeName: 'node-7', serviceAccountName: 'controller' }),
    ];
    const claims = Array.from({ length: 50_000 }, (_, i) => claim(`team-${i % 100}`, `c-${i}`, 'gpu.example.com', singleNodeSelector(`node-${i % 5000}`)));
    const base = fixture();
    const state = stateOf({ nodes, pods, clusterRoles: base.clusterRoles, clusterRoleBindings: base.clusterRoleBindings, resourceClaims: claims });
    const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
    const writers = listNodeWriters(ctx);
    const t0 = performance.now();
    const r = computeBlastRadius(ctx, 'node-7', writers);
    const ms = performance.now() - t0;
    const of = (name: string) => r.identities.find((i) => i.subject.name === name)!;
    expect(of('controller').claims).toHaveLength(50_000);
    expect(new Set(of('controller').claims.map((c) => c.mode))).toEqual(new Set(['arbitrary-node']));
    // claims c-i with i % 5000 === 7: ten of them, on node-7 only.
    expect(of('plugin').claims.map((c) => `${c.name}:${c.mode}`)).toEqual(Array.from({ length: 10 }, (_, k) => `c-${7 + 5000 * k}:associated-node`).sort());
    expect(r.claims).toHaveLength(50_000);
    expect(ms).toBeLessThan(5_000);
  });
});
