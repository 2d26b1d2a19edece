import type { RbacChanges } from '@/lib/analysis/fixes/holder-engine';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '@/lib/k8s/types';
import type { RoleBundle } from './types';

/** The bundle's RBAC objects in the shape the holder-scoped engine takes (objects it adds or replaces). */
export function bundleRbacChanges(bundle: RoleBundle): RbacChanges {
  const of = <T>(kind: string) => bundle.objects.filter((o) => o.object.kind === kind).map((o) => o.object as unknown as T);
  return {
    clusterRoles: of<ClusterRole>('ClusterRole'),
    roles: of<Role>('Role'),
    clusterRoleBindings: of<ClusterRoleBinding>('ClusterRoleBinding'),
    roleBindings: of<RoleBinding>('RoleBinding'),
  };
}
