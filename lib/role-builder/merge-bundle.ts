import type { ClusterCollectionKey, ClusterState } from '@/lib/k8s/cluster-state';
import type { KubeObject } from '@/lib/k8s/types';
import type { RoleBundle } from './types';

const COLLECTION: Record<string, ClusterCollectionKey> = {
  ServiceAccount: 'serviceAccounts',
  Role: 'roles',
  ClusterRole: 'clusterRoles',
  RoleBinding: 'roleBindings',
  ClusterRoleBinding: 'clusterRoleBindings',
  ValidatingAdmissionPolicy: 'validatingAdmissionPolicies',
  ValidatingAdmissionPolicyBinding: 'validatingAdmissionPolicyBindings',
};

const key = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The cluster as it would be once the bundle is applied: same-named objects are replaced, nothing else changes. */
export function mergeBundle(state: ClusterState, bundle: RoleBundle): ClusterState {
  const next: ClusterState = { ...state };
  for (const { object } of bundle.objects) {
    const collection = COLLECTION[object.kind];
    if (!collection) continue;
    const list = (next[collection] as KubeObject[]).filter((o) => key(o) !== key(object));
    (next as unknown as Record<string, KubeObject[]>)[collection] = [...list, object as KubeObject];
  }
  return next;
}
