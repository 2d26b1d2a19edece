import { clusterRole, crb, Group, node, pod, rb, role, SA, singleNodeSelector, slice, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { DeviceClass, DeviceRequest, Namespace, ResourceClaim, ResourceQuota } from '@/lib/k8s/types';

// A small DRA cluster with good and bad posture, shared by the report and CLI tests.

const ns = (name: string, labels?: Record<string, string>): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, ...(labels ? { labels } : {}) },
});
const exact = (name: string, deviceClassName: string, extra: Partial<NonNullable<DeviceRequest['exactly']>> = {}): DeviceRequest => ({
  name,
  exactly: { deviceClassName, ...extra },
});

function claim(namespace: string, name: string, requests: DeviceRequest[], node?: string): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace, uid: `uid-claim-${namespace}-${name}` },
    spec: { devices: { requests } },
    ...(node
      ? {
          status: {
            allocation: {
              devices: { results: [{ request: requests[0].name, driver: 'gpu.example.com', pool: node, device: 'gpu-0' }] },
              nodeSelector: singleNodeSelector(node),
            },
          },
        }
      : {}),
  };
}

const quota = (namespace: string, name: string, hard: Record<string, string>, used?: Record<string, string>): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name, namespace },
  spec: { hard },
  ...(used ? { status: { hard, used } } : {}),
});

const deviceClass = (name: string, driver: string, annotations?: Record<string, string>): DeviceClass => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec: { selectors: [{ cel: { expression: `device.driver == '${driver}'` } }] },
});

const plugin = (nodeName: string) =>
  pod('dra-example-driver', `plugin-${nodeName}`, {
    nodeName,
    serviceAccountName: 'plugin',
    volumes: [{ name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins' } }],
    containers: [{ name: 'plugin', securityContext: { privileged: true }, volumeMounts: [{ name: 'plugins', mountPath: '/var/lib/kubelet/plugins' }] }],
  });

export function smallCluster(): ClusterState {
  const state = stateOf(
    {
      namespaces: [ns('tenant-a'), ns('tenant-b'), ns('kube-system'), ns('dra-example-driver')],
      nodes: [node('gpu-1'), node('gpu-2'), node('cp-1')],
      pods: [
        plugin('gpu-1'),
        plugin('gpu-2'),
        pod('kube-system', 'reporter-gpu-1', { nodeName: 'gpu-1', serviceAccountName: 'reporter' }),
        pod('kube-system', 'intel-reporter-gpu-2', { nodeName: 'gpu-2', serviceAccountName: 'intel-reporter' }),
        pod('tenant-a', 'train-0', { nodeName: 'gpu-1' }),
      ],
      clusterRoles: [
        clusterRole('cluster-admin', [
          { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
          { verbs: ['*'], nonResourceURLs: ['*'] },
        ]),
        clusterRole('plugin', [
          { verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] },
          { verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] },
          {
            verbs: ['associated-node:update', 'associated-node:patch'],
            apiGroups: ['resource.k8s.io'],
            resources: ['resourceclaims/driver'],
            resourceNames: ['gpu.example.com'],
          },
        ]),
        clusterRole('node-readiness-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
        clusterRole('node-status-patcher-constrained', [{ verbs: ['impersonate-on:associated-node:update'], apiGroups: [''], resources: ['nodes/status'] }]),
        clusterRole('node-status-patch-role', [{ verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] }]),
        clusterRole('gpu-ops-wildcard', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]),
      ],
      roles: [
        role('tenant-a', 'claims', [
          { verbs: ['create', 'get', 'list'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims', 'resourceclaimtemplates'] },
        ]),
      ],
      clusterRoleBindings: [
        crb('cluster-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [Group('system:masters')]),
        crb('plugin', { kind: 'ClusterRole', name: 'plugin' }, [SA('dra-example-driver', 'plugin')]),
        crb('reporter-identity', { kind: 'ClusterRole', name: 'node-readiness-impersonator' }, [SA('kube-system', 'reporter')]),
        crb('reporter-action', { kind: 'ClusterRole', name: 'node-status-patcher-constrained' }, [SA('kube-system', 'reporter')]),
        crb('intel-reporter', { kind: 'ClusterRole', name: 'node-status-patch-role' }, [SA('kube-system', 'intel-reporter')]),
        crb('gpu-ops', { kind: 'ClusterRole', name: 'gpu-ops-wildcard' }, [Group('gpu-ops')]),
      ],
      roleBindings: [rb('tenant-a', 'alice', { kind: 'Role', name: 'claims' }, [User('alice')])],
      resourceSlices: [slice('gpu-1-gpu.example.com', 'gpu.example.com', 'gpu-1'), slice('gpu-2-gpu.example.com', 'gpu.example.com', 'gpu-2')],
      deviceClasses: [
        deviceClass('gpu.example.com', 'gpu.example.com'),
        deviceClass('isolated|gpu', 'gpu.example.com', { 'dra-posture.io/zero-on-release': 'true' }),
      ],
      resourceClaims: [
        claim('tenant-a', 'train-0-gpu', [exact('gpu', 'gpu.example.com')], 'gpu-1'),
        claim('tenant-a', 'all', [exact('gpu', 'gpu.example.com', { allocationMode: 'All' })]),
        claim('tenant-b', 'b-gpu', [exact('gpu', 'gpu.example.com', { count: 2 })], 'gpu-2'),
      ],
      resourceQuotas: [
        quota(
          'tenant-a',
          'dra',
          { 'count/resourceclaims.resource.k8s.io': '2', 'gpu.example.com.deviceclass.resource.k8s.io/devices': '40' },
          { 'count/resourceclaims.resource.k8s.io': '2', 'gpu.example.com.deviceclass.resource.k8s.io/devices': '30' },
        ),
      ],
    },
    'v1.36.1',
  );
  state.source = { kind: 'snapshot', name: 'small-cluster', kubernetesVersion: 'v1.36.1', collectedAt: '2026-08-01T00:00:00Z' };
  state.warnings = ['Secrets are never read'];
  return state;
}
