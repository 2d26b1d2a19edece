import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { PolicyRule, Subject } from '@/lib/k8s/types';
import type { createRandom } from '@/scripts/bench/prng';
import { clusterRole, crb, rb, role, stateOf } from './builders';

type Random = ReturnType<typeof createRandom>;

/** How big a random RBAC state is: each count is drawn as `min + r.int(spread)`, each list as 1 + r.int(max) picks. */
export interface RandomRbacShape {
  rules: readonly PolicyRule[];
  subjects: readonly Subject[];
  namespaces: readonly string[];
  clusterRoles: number;
  rulesPerRole: number;
  subjectsPerBinding: number;
  clusterRoleBindings: { min: number; spread: number };
  roleBindings: { min: number; spread: number };
}

/** The small shape the impersonation-filter tests draw: five ClusterRoles of up to three rules, bindings of up to two subjects. */
export const SMALL_RBAC = {
  clusterRoles: 5,
  rulesPerRole: 3,
  subjectsPerBinding: 2,
  clusterRoleBindings: { min: 0, spread: 4 },
  roleBindings: { min: 1, spread: 5 },
} as const satisfies Omit<RandomRbacShape, 'rules' | 'subjects' | 'namespaces'>;

/**
 * ClusterRoles c0…, one Role per namespace, and ClusterRoleBindings and RoleBindings (to a Role of
 * their namespace or a ClusterRole, half and half) of random subjects: the random RBAC the
 * differential tests of the impersonation filters and capability holdings compare answers on.
 * `parts` adds other objects (nodes, pods) to the state.
 */
export function randomRbacState(r: Random, shape: RandomRbacShape, parts: Parameters<typeof stateOf>[0] = {}): ClusterState {
  const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
  const { namespaces } = shape;
  const clusterRoles = Array.from({ length: shape.clusterRoles }, (_, i) => clusterRole(`c${i}`, some(shape.rules, shape.rulesPerRole)));
  const roles = namespaces.map((ns, i) => role(ns, `r${i}`, some(shape.rules, shape.rulesPerRole)));
  const clusterRoleBindings = Array.from({ length: shape.clusterRoleBindings.min + r.int(shape.clusterRoleBindings.spread) }, (_, i) =>
    crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, some(shape.subjects, shape.subjectsPerBinding)),
  );
  const roleBindings = Array.from({ length: shape.roleBindings.min + r.int(shape.roleBindings.spread) }, (_, i) => {
    const ns = r.pick(namespaces);
    const roleRef = r.chance(0.5)
      ? { kind: 'Role', name: roles[namespaces.indexOf(ns)].metadata.name }
      : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
    return rb(ns, `rb${i}`, roleRef, some(shape.subjects, shape.subjectsPerBinding));
  });
  return stateOf({ ...parts, clusterRoles, roles, clusterRoleBindings, roleBindings });
}
