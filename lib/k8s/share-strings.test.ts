import { describe, expect, it } from 'vitest';

import { buildClusterState } from './build-cluster-state';
import { normalizeObject } from './normalize-object';
import { shareObjectStrings, StringTable } from './share-strings';
import type { KubeObject } from './types';

// Every field shareObjectStrings touches, with values that differ per object, so a value written to
// the wrong field (or one object's value given to another) changes the object.
function pod(i: number): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `p-${i}`,
      namespace: `ns-${i % 3}`,
      labels: { app: `app-${i % 2}`, tier: `t-${i}` },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${i % 2}`, uid: `u-${i}`, controller: true }],
    },
    spec: {
      nodeName: `node-${i % 4}`,
      serviceAccountName: `sa-${i % 2}`,
      serviceAccount: `sa-${i % 2}`,
      initContainers: [{ name: `init-${i}`, image: `img-init:${i % 2}`, volumeMounts: [{ name: 'plugins', mountPath: `/plugins-${i % 2}` }] }],
      containers: [{ name: 'main', image: `img:${i % 3}`, volumeMounts: [{ name: 'sock', mountPath: '/run/sock' }] }],
      volumes: [
        { name: 'plugins', hostPath: { path: `/var/lib/kubelet/plugins/d-${i % 2}` } },
        { name: 'sock', hostPath: { path: '/run/containerd/containerd.sock' } },
      ],
    },
    status: { phase: i % 2 ? 'Running' : 'Pending' },
  };
}

function claim(i: number): Record<string, unknown> {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: `c-${i}`, namespace: `ns-${i % 3}` },
    spec: {
      devices: {
        requests: [
          { name: `r-${i % 2}`, exactly: { deviceClassName: `class-${i % 3}`, allocationMode: i % 2 ? 'All' : 'ExactCount' } },
          { name: 'alt', firstAvailable: [{ name: `s-${i}`, deviceClassName: `sub-${i % 2}`, allocationMode: 'ExactCount', count: 1 }] },
        ],
      },
    },
    status: {
      allocation: {
        devices: { results: [{ request: `r-${i % 2}`, driver: `drv-${i % 2}`, pool: `pool-${i % 4}`, device: `dev-${i}` }] },
        nodeSelector: {
          nodeSelectorTerms: [
            {
              matchFields: [{ key: 'metadata.name', operator: 'In', values: [`node-${i % 4}`] }],
              matchExpressions: [{ key: `zone-${i % 2}`, operator: 'NotIn', values: ['a', `b-${i}`] }],
            },
          ],
        },
      },
      reservedFor: [{ resource: 'pods', name: `p-${i}`, uid: `u-${i}` }],
    },
  };
}

function binding(i: number): Record<string, unknown> {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: i % 2 ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: i % 2 ? { name: `b-${i}`, namespace: `ns-${i % 3}` } : { name: `b-${i}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `role-${i % 2}` },
    subjects: [
      { kind: 'ServiceAccount', name: `sa-${i % 2}`, namespace: `ns-${i % 3}` },
      { kind: 'Group', name: `team-${i}`, apiGroup: 'rbac.authorization.k8s.io' },
    ],
  };
}

const normalized = (raw: Record<string, unknown>): KubeObject => normalizeObject(raw, raw.kind as string, raw.apiVersion as string);

describe('shareObjectStrings', () => {
  it('leaves every object of the bulk kinds equal to what it was', () => {
    const table = new StringTable();
    const objects = [0, 1, 2, 3, 4, 5].flatMap((i) => [normalized(pod(i)), normalized(claim(i)), normalized(binding(i))]);
    const before = structuredClone(objects);
    for (const o of objects) shareObjectStrings(o, table);
    expect(objects).toEqual(before);
  });

  it('a cluster loaded with shared strings equals its objects as parsed and normalised one by one', () => {
    const raws = [0, 1, 2, 3].flatMap((i) => [pod(i), claim(i), binding(i)]);
    const state = buildClusterState(
      raws.map((value) => ({ value: structuredClone(value), origin: {} })),
      { kind: 'snapshot', name: 'shared' },
    );
    expect([...state.pods, ...state.resourceClaims, ...state.clusterRoleBindings, ...state.roleBindings]).toEqual(
      [
        ...raws.filter((r) => r.kind === 'Pod'),
        ...raws.filter((r) => r.kind === 'ResourceClaim'),
        ...raws.filter((r) => r.kind === 'ClusterRoleBinding'),
        ...raws.filter((r) => r.kind === 'RoleBinding'),
      ].map(normalized),
    );
  });
});

describe('StringTable', () => {
  it('answers each value with itself and keeps arrays and records in place', () => {
    const table = new StringTable();
    expect(table.share('gpu.example.com')).toBe('gpu.example.com');
    expect(table.share(['gpu', 'example.com'].join('.'))).toBe('gpu.example.com');
    const values = ['a', 'b', 'a'];
    table.shareArray(values);
    expect(values).toEqual(['a', 'b', 'a']);
    const labels = { app: 'x', tier: 'y' };
    table.shareValues(labels);
    expect(labels).toEqual({ app: 'x', tier: 'y' });
  });
});
