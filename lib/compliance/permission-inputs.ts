import { isApiServerPod } from '@/lib/k8s/api-server-flags';
import { emptyClusterState, type ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { ClusterRole, ClusterRoleBinding, Pod, Role, RoleBinding } from '@/lib/k8s/types';

// The part of a cluster drift's DRA permission lines are computed from: its RBAC, the API server pods
// that name the authorizer chain, its version (feature gates) and the driver and node names a rule
// may name. A subject is asked as itself with no groups, so no other object can change its answers
// (the Node authorizer answers node identities only). Kept with a stored snapshot, so two snapshots
// are compared without reading their bundles.

export interface PermissionInputs {
  kubernetesVersion: string | null;
  roles: Role[];
  clusterRoles: ClusterRole[];
  roleBindings: RoleBinding[];
  clusterRoleBindings: ClusterRoleBinding[];
  /** kube-system kube-apiserver-* pods: their flags name the authorizer chain. */
  apiServerPods: Pod[];
  /** Drivers of the cluster's ResourceSlices and allocated claims, sorted. */
  drivers: string[];
  /** Node names, sorted. */
  nodes: string[];
}

export function permissionInputsOf(state: ClusterState): PermissionInputs {
  const drivers = new Set<string>();
  for (const s of state.resourceSlices) drivers.add(s.spec.driver);
  for (const c of state.resourceClaims) for (const r of c.status?.allocation?.devices?.results ?? []) drivers.add(r.driver);
  return {
    kubernetesVersion: state.source.kubernetesVersion ?? null,
    roles: state.roles,
    clusterRoles: state.clusterRoles,
    roleBindings: state.roleBindings,
    clusterRoleBindings: state.clusterRoleBindings,
    apiServerPods: state.pods.filter((p) => isApiServerPod(p.metadata)),
    drivers: [...drivers].sort(compareStrings),
    nodes: state.nodes.map((n) => n.metadata.name).sort(compareStrings),
  };
}

/** A cluster holding only these inputs: an authorizer built on it answers every subject as on the whole cluster. */
export function permissionInputsState(inputs: PermissionInputs): ClusterState {
  const state = emptyClusterState({
    kind: 'snapshot',
    name: 'permission inputs',
    ...(inputs.kubernetesVersion !== null ? { kubernetesVersion: inputs.kubernetesVersion } : {}),
  });
  state.roles = inputs.roles;
  state.clusterRoles = inputs.clusterRoles;
  state.roleBindings = inputs.roleBindings;
  state.clusterRoleBindings = inputs.clusterRoleBindings;
  state.pods = inputs.apiServerPods;
  return state;
}
