import type { Report } from '@/lib/analysis/types';

/** A small hand-made report in the shape of DESIGN.md §5, for view-model tests. */
export const SAMPLE_REPORT: Report = {
  schemaVersion: 2,
  source: { kind: 'demo', name: 'sample', collectedAt: '2026-01-01T00:00:00Z', kubernetesVersion: '1.36.3' },
  summary: { critical: 1, high: 2, medium: 1, low: 0, info: 0 },
  issues: [],
  attackPaths: [],
  findings: [
    {
      id: 'f-high-b',
      check: 'DRA007',
      severity: 'high',
      issueId: 'issue-0',
      subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-b', name: 'batch-scheduler' }],
      objects: [{ kind: 'ClusterRoleBinding', name: 'tenant-b-batch-scheduler' }],
      evidence: [
        {
          type: 'grant',
          binding: { kind: 'ClusterRoleBinding', name: 'tenant-b-batch-scheduler' },
          role: { kind: 'ClusterRole', name: 'custom-allocator' },
          ruleIndex: 1,
          rule: { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] },
        },
      ],
    },
    {
      id: 'f-crit',
      check: 'NODE002',
      severity: 'critical',
      issueId: 'issue-0',
      subjects: [{ kind: 'Group', name: 'support-engineers' }],
      objects: [{ kind: 'ClusterRoleBinding', name: 'support-impersonator' }],
      evidence: [{ type: 'note', text: 'impersonate users, groups' }],
    },
    {
      id: 'f-high-a',
      check: 'CLAIM001',
      severity: 'high',
      issueId: 'issue-0',
      subjects: [],
      objects: [{ kind: 'Namespace', name: 'tenant-c' }],
      evidence: [
        { type: 'field', object: { kind: 'Namespace', name: 'tenant-c' }, path: 'metadata.labels', value: { 'resource.kubernetes.io/admin-access': 'true' } },
      ],
    },
    {
      id: 'f-med',
      check: 'DRA006',
      severity: 'medium',
      issueId: 'issue-0',
      subjects: [{ kind: 'ServiceAccount', namespace: 'tenant-a', name: 'queue-controller' }],
      objects: [{ kind: 'RoleBinding', namespace: 'tenant-a', name: 'queue-controller-claim-allocator' }],
      evidence: [],
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
