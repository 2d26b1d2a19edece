import { DEFAULT_CHAIN } from './authorize';
import type { AuthorizerName, ResourceAttributes } from './types';
import type { UserInfo } from './types';

/** The kinds RBAC decides from (aggregation included: it only reads ClusterRoles). */
export const RBAC_KINDS: ReadonlySet<string> = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/**
 * What the Node authorizer's graph and the list of node names read: pods (and what they reference:
 * claims, PVCs), PVs, ResourceSlices and Nodes.
 */
export const NODE_AUTHORIZER_KINDS: ReadonlySet<string> = new Set([
  'Node',
  'Pod',
  'PersistentVolume',
  'PersistentVolumeClaim',
  'ResourceSlice',
  'ResourceClaim',
]);

const withNodeKinds: ReadonlySet<string> = new Set([...RBAC_KINDS, ...NODE_AUTHORIZER_KINDS]);

/** Could the Node authorizer treat this user as a node? Loose on purpose: reading too much is only slower. */
function mayBeNode(user: Pick<UserInfo, 'name' | 'groups'> | undefined): boolean {
  return !!user && (user.name.startsWith('system:node:') || user.groups.includes('system:nodes'));
}

/** Kinds a can-i question needs: the Node authorizer has an opinion only when a node identity asks. */
export function kindsForCanI(chain: readonly AuthorizerName[] | undefined, users: (Pick<UserInfo, 'name' | 'groups'> | undefined)[]): ReadonlySet<string> {
  return (chain ?? DEFAULT_CHAIN).includes('Node') && users.some(mayBeNode) ? withNodeKinds : RBAC_KINDS;
}

/**
 * Kinds a who-can question needs. The Node authorizer's answer depends on which node asks (and so
 * on the graph and the node names) only for a named object or a field selector; otherwise a probe
 * node with no graph edges answers for all of them.
 */
export function kindsForWhoCan(
  chain: readonly AuthorizerName[] | undefined,
  resource: Pick<ResourceAttributes, 'name' | 'fieldSelector'> | undefined,
): ReadonlySet<string> {
  const dependsOnNode = !!resource && (!!resource.name || (resource.fieldSelector?.length ?? 0) > 0);
  return (chain ?? DEFAULT_CHAIN).includes('Node') && dependsOnNode ? withNodeKinds : RBAC_KINDS;
}

/** RBAC kinds that live in a namespace: a RoleBinding grants only within its own. */
export const NAMESPACED_RBAC_KINDS: ReadonlySet<string> = new Set(['Role', 'RoleBinding']);

/**
 * Namespaces whose Roles and RoleBindings can decide these requests, or undefined for all of them.
 * RBAC applies a RoleBinding only to requests in the binding's namespace, so requests that each name
 * a namespace need those namespaces' alone; a non-resource request needs none. A request without one
 * (cluster-scoped, or who-can across all namespaces) needs them all, as does impersonation (a
 * service account is impersonated through a grant in its own namespace): callers pass undefined.
 */
export function rbacNamespacesFor(requests: readonly (Pick<ResourceAttributes, 'namespace'> | undefined)[]): ReadonlySet<string> | undefined {
  const namespaces = new Set<string>();
  for (const r of requests) {
    if (!r) continue;
    if (!r.namespace) return undefined;
    namespaces.add(r.namespace);
  }
  return namespaces;
}
