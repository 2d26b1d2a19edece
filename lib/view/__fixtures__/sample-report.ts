import type { Report } from '@/lib/report/types';

/** A small hand-made report in the shape of DESIGN.md §5, for view-model tests. */
export const SAMPLE_REPORT: Report = {
  schemaVersion: 1,
  source: { kind: 'demo', name: 'sample', collectedAt: '2026-01-01T00:00:00Z', kubernetesVersion: '1.36.3' },
  summary: { critical: 1, high: 2, medium: 1, low: 0, info: 0 },
  findings: [
    {
      id: 'f-high-b',
      check: 'DRA007',
      severity: 'high',
      title: 'Can forge allocations',
      subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-b', name: 'batch-scheduler' }],
      objects: [{ kind: 'ClusterRoleBinding', name: 'tenant-b-batch-scheduler' }],
      message: 'tenant-b/batch-scheduler can update resourceclaims/binding',
      evidence: [
        {
          type: 'grant',
          binding: { kind: 'ClusterRoleBinding', name: 'tenant-b-batch-scheduler' },
          role: { kind: 'ClusterRole', name: 'custom-allocator' },
          ruleIndex: 1,
          rule: { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] },
        },
      ],
      remediation: 'Remove the binding rule.',
    },
    {
      id: 'f-crit',
      check: 'NODE002',
      severity: 'critical',
      title: 'Legacy impersonation',
      subjects: [{ kind: 'Group', name: 'support-engineers' }],
      objects: [{ kind: 'ClusterRoleBinding', name: 'support-impersonator' }],
      message: 'support-engineers can impersonate anyone',
      evidence: [{ type: 'note', text: 'impersonate users, groups' }],
      remediation: 'Use constrained impersonation.',
    },
    {
      id: 'f-high-a',
      check: 'CLAIM001',
      severity: 'high',
      title: 'Tenant namespace allows admin access',
      subjects: [],
      objects: [{ kind: 'Namespace', name: 'tenant-c' }],
      message: 'tenant-c is labelled admin-access',
      evidence: [
        { type: 'field', object: { kind: 'Namespace', name: 'tenant-c' }, path: 'metadata.labels', value: { 'resource.kubernetes.io/admin-access': 'true' } },
      ],
      remediation: 'kubectl label namespace tenant-c resource.kubernetes.io/admin-access-',
    },
    {
      id: 'f-med',
      check: 'DRA006',
      severity: 'medium',
      title: 'Status writes break on 1.36',
      subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-a', name: 'queue-controller' }],
      objects: [{ kind: 'RoleBinding', namespace: 'tenant-a', name: 'queue-controller-claim-allocator' }],
      message: 'tenant-a/queue-controller can update resourceclaims/status only',
      evidence: [],
      remediation: 'Grant resourceclaims/driver.',
    },
  ],
  allNodes: {
    statusWriters: [
      { subject: { kind: 'ServiceAccount', namespace: 'kube-system', name: 'intel-reporter' }, mode: 'rbac', scope: 'all-nodes', via: [] },
      { subject: { kind: 'Group', name: 'support-engineers' }, mode: 'impersonation', scope: 'all-nodes', via: [] },
    ],
    claimStatusWriters: [
      { driver: 'gpu.nvidia.com', subject: { kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'controller' }, mode: 'arbitrary-node', via: [] },
    ],
  },
  nodes: [
    {
      name: 'gpu-2',
      statusWriters: [{ subject: { kind: 'User', name: 'system:node:gpu-2' }, mode: 'node-authorizer', scope: 'own-node', via: [] }],
      claimDrivers: [],
      claimStatusWriters: [],
    },
    {
      name: 'gpu-1',
      statusWriters: [
        { subject: { kind: 'User', name: 'system:node:gpu-1' }, mode: 'node-authorizer', scope: 'own-node', via: [] },
        {
          subject: { kind: 'ServiceAccount', namespace: 'kube-system', name: 'gpu-driver-reporter' },
          mode: 'constrained-impersonation',
          scope: 'own-node',
          via: [],
        },
      ],
      claimDrivers: ['gpu.example.com', 'gpu.nvidia.com'],
      claimStatusWriters: [
        { driver: 'gpu.nvidia.com', subject: { kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'plugin' }, mode: 'associated-node', via: [] },
        { driver: 'gpu.example.com', subject: { kind: 'ServiceAccount', namespace: 'dra-example-driver', name: 'sa' }, mode: 'associated-node', via: [] },
      ],
    },
  ],
  quotas: [
    { namespace: 'tenant-b', name: 'tenant-b-dra', resource: 'gpu.intel.com.deviceclass.resource.k8s.io/devices', hard: '36', used: '34', computedUsed: '34' },
    { namespace: 'tenant-a', name: 'tenant-a-dra', resource: 'count/resourceclaims.resource.k8s.io', hard: '8', used: '5', computedUsed: '6' },
  ],
  deviceClasses: [
    { name: 'gpu.nvidia.com', driver: 'gpu.nvidia.com', zeroing: 'missing', usedByNamespaces: ['tenant-b', 'tenant-c'] },
    { name: 'gpu.intel.com', driver: 'gpu.intel.com', zeroing: 'configured', usedByNamespaces: ['tenant-a'] },
  ],
  warnings: [],
};
