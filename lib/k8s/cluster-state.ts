import type {
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  DaemonSet,
  Deployment,
  DeviceClass,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceQuota,
  ResourceSlice,
  Role,
  RoleBinding,
  ServiceAccount,
  StatefulSet,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from './types';

export type SourceKind = 'live' | 'snapshot' | 'demo';

export interface SourceInfo {
  kind: SourceKind;
  name: string;
  collectedAt?: string;
  kubernetesVersion?: string;
  /**
   * Kinds the source could not read in full (403 on the list, or read only in some namespaces):
   * the analysis of them is partial. Absent when everything was read. Kept here, not as a
   * collection, so code that walks the collections never meets it.
   */
  unreadKinds?: UnreadKind[];
}

/** A kind (KindDescriptor.kind, e.g. `RoleBinding`) the source could not read, and why. */
export interface UnreadKind {
  kind: string;
  reason: string;
}

/** Everything the engine reads, normalised (resource.k8s.io always in v1 shape), Secrets never present. */
export interface ClusterState {
  source: SourceInfo;
  namespaces: Namespace[];
  nodes: Node[];
  pods: Pod[];
  serviceAccounts: ServiceAccount[];
  configMaps: ConfigMap[];
  persistentVolumeClaims: PersistentVolumeClaim[];
  persistentVolumes: PersistentVolume[];
  resourceQuotas: ResourceQuota[];
  daemonSets: DaemonSet[];
  deployments: Deployment[];
  statefulSets: StatefulSet[];
  replicaSets: ReplicaSet[];
  roles: Role[];
  clusterRoles: ClusterRole[];
  roleBindings: RoleBinding[];
  clusterRoleBindings: ClusterRoleBinding[];
  resourceClaims: ResourceClaim[];
  resourceClaimTemplates: ResourceClaimTemplate[];
  resourceSlices: ResourceSlice[];
  deviceClasses: DeviceClass[];
  validatingAdmissionPolicies: ValidatingAdmissionPolicy[];
  validatingAdmissionPolicyBindings: ValidatingAdmissionPolicyBinding[];
  /** Kinds the source could not read, skipped documents, dropped Secrets...: shown next to the data. */
  warnings: string[];
}

export type ClusterCollectionKey = Exclude<keyof ClusterState, 'source' | 'warnings'>;

export function emptyClusterState(source: SourceInfo): ClusterState {
  return {
    source,
    namespaces: [],
    nodes: [],
    pods: [],
    serviceAccounts: [],
    configMaps: [],
    persistentVolumeClaims: [],
    persistentVolumes: [],
    resourceQuotas: [],
    daemonSets: [],
    deployments: [],
    statefulSets: [],
    replicaSets: [],
    roles: [],
    clusterRoles: [],
    roleBindings: [],
    clusterRoleBindings: [],
    resourceClaims: [],
    resourceClaimTemplates: [],
    resourceSlices: [],
    deviceClasses: [],
    validatingAdmissionPolicies: [],
    validatingAdmissionPolicyBindings: [],
    warnings: [],
  };
}
