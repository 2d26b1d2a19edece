import type { ClusterCollectionKey } from './cluster-state';

/** One row per kind the product reads: where it lives in the API and in ClusterState. */
export interface KindDescriptor {
  kind: string;
  group: string;
  /** Versions in order of preference; the first served one is read. */
  versions: string[];
  resource: string;
  namespaced: boolean;
  collection: ClusterCollectionKey;
}

export const KINDS: readonly KindDescriptor[] = [
  { kind: 'Namespace', group: '', versions: ['v1'], resource: 'namespaces', namespaced: false, collection: 'namespaces' },
  { kind: 'Node', group: '', versions: ['v1'], resource: 'nodes', namespaced: false, collection: 'nodes' },
  { kind: 'Pod', group: '', versions: ['v1'], resource: 'pods', namespaced: true, collection: 'pods' },
  { kind: 'ServiceAccount', group: '', versions: ['v1'], resource: 'serviceaccounts', namespaced: true, collection: 'serviceAccounts' },
  { kind: 'ConfigMap', group: '', versions: ['v1'], resource: 'configmaps', namespaced: true, collection: 'configMaps' },
  { kind: 'PersistentVolumeClaim', group: '', versions: ['v1'], resource: 'persistentvolumeclaims', namespaced: true, collection: 'persistentVolumeClaims' },
  { kind: 'PersistentVolume', group: '', versions: ['v1'], resource: 'persistentvolumes', namespaced: false, collection: 'persistentVolumes' },
  { kind: 'ResourceQuota', group: '', versions: ['v1'], resource: 'resourcequotas', namespaced: true, collection: 'resourceQuotas' },
  { kind: 'DaemonSet', group: 'apps', versions: ['v1'], resource: 'daemonsets', namespaced: true, collection: 'daemonSets' },
  { kind: 'Deployment', group: 'apps', versions: ['v1'], resource: 'deployments', namespaced: true, collection: 'deployments' },
  { kind: 'StatefulSet', group: 'apps', versions: ['v1'], resource: 'statefulsets', namespaced: true, collection: 'statefulSets' },
  { kind: 'ReplicaSet', group: 'apps', versions: ['v1'], resource: 'replicasets', namespaced: true, collection: 'replicaSets' },
  { kind: 'Role', group: 'rbac.authorization.k8s.io', versions: ['v1'], resource: 'roles', namespaced: true, collection: 'roles' },
  { kind: 'ClusterRole', group: 'rbac.authorization.k8s.io', versions: ['v1'], resource: 'clusterroles', namespaced: false, collection: 'clusterRoles' },
  { kind: 'RoleBinding', group: 'rbac.authorization.k8s.io', versions: ['v1'], resource: 'rolebindings', namespaced: true, collection: 'roleBindings' },
  {
    kind: 'ClusterRoleBinding',
    group: 'rbac.authorization.k8s.io',
    versions: ['v1'],
    resource: 'clusterrolebindings',
    namespaced: false,
    collection: 'clusterRoleBindings',
  },
  {
    kind: 'ResourceClaim',
    group: 'resource.k8s.io',
    versions: ['v1', 'v1beta2', 'v1beta1'],
    resource: 'resourceclaims',
    namespaced: true,
    collection: 'resourceClaims',
  },
  {
    kind: 'ResourceClaimTemplate',
    group: 'resource.k8s.io',
    versions: ['v1', 'v1beta2', 'v1beta1'],
    resource: 'resourceclaimtemplates',
    namespaced: true,
    collection: 'resourceClaimTemplates',
  },
  {
    kind: 'ResourceSlice',
    group: 'resource.k8s.io',
    versions: ['v1', 'v1beta2', 'v1beta1'],
    resource: 'resourceslices',
    namespaced: false,
    collection: 'resourceSlices',
  },
  {
    kind: 'DeviceClass',
    group: 'resource.k8s.io',
    versions: ['v1', 'v1beta2', 'v1beta1'],
    resource: 'deviceclasses',
    namespaced: false,
    collection: 'deviceClasses',
  },
  {
    kind: 'ValidatingAdmissionPolicy',
    group: 'admissionregistration.k8s.io',
    versions: ['v1'],
    resource: 'validatingadmissionpolicies',
    namespaced: false,
    collection: 'validatingAdmissionPolicies',
  },
  {
    kind: 'ValidatingAdmissionPolicyBinding',
    group: 'admissionregistration.k8s.io',
    versions: ['v1'],
    resource: 'validatingadmissionpolicybindings',
    namespaced: false,
    collection: 'validatingAdmissionPolicyBindings',
  },
];

const BY_KIND = new Map(KINDS.map((d) => [d.kind, d]));

export function findKind(kind: string): KindDescriptor | undefined {
  return BY_KIND.get(kind);
}

/** Splits an apiVersion such as `resource.k8s.io/v1beta2` (or `v1` for core) into group and version. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
