import { emptyClusterState, type ClusterState } from '@/lib/k8s/cluster-state';
import type {
  ClusterRole,
  ClusterRoleBinding,
  LabelSelector,
  Node,
  PersistentVolume,
  Pod,
  PodSpec,
  PolicyRule,
  ResourceClaim,
  ResourceSlice,
  Role,
  RoleBinding,
  Subject,
} from '@/lib/k8s/types';
import type { ResourceAttributes, UserInfo } from '../types';

// Small builders so each table test states its cluster in a few readable lines.

export const user = (name: string, ...groups: string[]): UserInfo => ({ name, groups });
export const User = (name: string): Subject => ({ kind: 'User', name, apiGroup: 'rbac.authorization.k8s.io' });
export const Group = (name: string): Subject => ({ kind: 'Group', name, apiGroup: 'rbac.authorization.k8s.io' });
export const SA = (namespace: string | undefined, name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  ...(namespace === undefined ? {} : { namespace }),
});

export function clusterRole(
  name: string,
  rules: PolicyRule[] | null,
  extra: { labels?: Record<string, string>; aggregate?: LabelSelector[] } = {},
): ClusterRole {
  const cr: ClusterRole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels: extra.labels }, rules };
  if (extra.aggregate) cr.aggregationRule = { clusterRoleSelectors: extra.aggregate };
  return cr;
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace }, rules };
}

export function crb(name: string, roleRef: { kind: string; name: string }, subjects: Subject[]): ClusterRoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  };
}

export function rb(namespace: string, name: string, roleRef: { kind: string; name: string }, subjects: Subject[]): RoleBinding {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef },
    subjects,
  };
}

export function node(name: string): Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name } };
}

export function pod(namespace: string, name: string, spec: Partial<PodSpec>, status?: Pod['status']): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}` },
    spec: { containers: [{ name: 'c' }], ...spec },
    status,
  };
}

export function slice(name: string, driver: string, nodeName?: string): ResourceSlice {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name },
    spec: { driver, pool: { name: nodeName ?? 'pool', generation: 1, resourceSliceCount: 1 }, ...(nodeName ? { nodeName } : { allNodes: true }) },
  };
}

export function pv(name: string, claim?: { namespace: string; name: string }, csiSecret?: { namespace: string; name: string }): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: { claimRef: claim, ...(csiSecret ? { csi: { driver: 'csi.example.com', nodePublishSecretRef: csiSecret } } : {}) },
  };
}

export function claimAllocatedTo(
  namespace: string,
  name: string,
  nodeSelector: ResourceClaim['status'] extends infer S
    ? S extends { allocation?: infer A }
      ? A extends { nodeSelector?: infer N }
        ? N
        : never
      : never
    : never,
): ResourceClaim {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
    status: { allocation: { devices: { results: [] }, nodeSelector } },
  };
}

export function singleNodeSelector(nodeName: string) {
  return { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }] };
}

export function stateOf(parts: Partial<Omit<ClusterState, 'source' | 'warnings'>>, version?: string): ClusterState {
  return { ...emptyClusterState({ kind: 'snapshot', name: 'test', kubernetesVersion: version }), ...parts };
}

export function res(verb: string, group: string, resource: string, extra: Partial<ResourceAttributes> = {}): ResourceAttributes {
  return { verb, group, resource, subresource: '', namespace: '', name: '', ...extra };
}

/** `list` of a resource with the field selector `spec.nodeName=<node>` (what a kubelet lists). */
export function listOnNode(group: string, resource: string, node: string): ResourceAttributes {
  return { verb: 'list', group, resource, subresource: '', namespace: '', name: '', fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: node }] };
}
