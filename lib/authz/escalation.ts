import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '@/lib/k8s/types';
import { covers, uncoveredRules } from './covers';
import { rulesFor } from './rbac-authorizer';
import type { RbacIndex } from './rbac-index';
import type { AuthzRequest, Decision, UserInfo } from './types';
import { semanticEqual } from './semantic-equal';

export interface EscalationDecision {
  allowed: boolean;
  reason: string;
  /** Decided by: plain authorization of the create, then system:masters, escalate/bind, or Covers. */
  path?: 'system:masters' | 'escalate' | 'bind' | 'covers';
  /** Rules of the new object (or of the bound role) the requester does not hold. */
  uncovered?: PolicyRule[];
}

type Authorize = (request: AuthzRequest) => Decision;

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const FULL_ADMIN: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

type RbacObject = Role | ClusterRole | RoleBinding | ClusterRoleBinding;

const resourceOf = (object: RbacObject) =>
  ({ Role: 'roles', ClusterRole: 'clusterroles', RoleBinding: 'rolebindings', ClusterRoleBinding: 'clusterrolebindings' })[object.kind];
const namespaceOf = (object: RbacObject) => (object.kind === 'Role' || object.kind === 'RoleBinding' ? (object.metadata.namespace ?? '') : '');

/**
 * "Could this identity create this Role/ClusterRole/binding?": the create must be authorized, then
 * the storage-layer escalation check (pkg/registry/rbac) must pass.
 */
export function canCreateRbacObject(authorize: Authorize, index: RbacIndex, user: UserInfo, object: RbacObject): EscalationDecision {
  const resource = resourceOf(object);
  const create = authorize({ user, resource: { verb: 'create', group: RBAC_GROUP, resource, subresource: '', namespace: namespaceOf(object), name: '' } });
  if (!create.allowed) return { allowed: false, reason: `cannot create ${resource}: ${create.reason}` };
  return checkRbacEscalation(authorize, index, user, object, { verb: 'create' });
}

/** Only ownerReferences or finalizers differ: the storage layer skips the escalation check (IsOnlyMutatingGCFields). */
function onlyGcFieldsChange(object: RbacObject, old: RbacObject): boolean {
  const strip = (o: RbacObject) => ({ ...o, metadata: { ...o.metadata, ownerReferences: undefined, finalizers: undefined, resourceVersion: undefined } });
  return semanticEqual(strip(object), strip(old));
}

/**
 * The storage-layer escalation check of a create or update already authorized: system:masters,
 * then `escalate` (roles) or `bind` (bindings), then whether the requester holds every rule granted.
 */
export function checkRbacEscalation(
  authorize: Authorize,
  index: RbacIndex,
  user: UserInfo,
  object: RbacObject,
  options: { verb: 'create' | 'update'; oldObject?: RbacObject },
): EscalationDecision {
  const namespace = namespaceOf(object);
  const resource = resourceOf(object);
  if (user.groups.includes('system:masters')) return { allowed: true, reason: 'system:masters bypasses the escalation check', path: 'system:masters' };
  if (options.verb === 'update' && options.oldObject && onlyGcFieldsChange(object, options.oldObject))
    return { allowed: true, reason: 'only ownerReferences or finalizers change: no escalation check' };

  const owned = rulesFor(index, user, namespace).map((g) => g.rule);
  if (object.kind === 'Role' || object.kind === 'ClusterRole') {
    // The escalate check uses the name from the request: empty on create, the object's on update.
    const name = options.verb === 'update' ? object.metadata.name : '';
    const escalate = authorize({ user, resource: { verb: 'escalate', group: RBAC_GROUP, resource, subresource: '', namespace, name } });
    if (escalate.allowed) return { allowed: true, reason: `may escalate ${resource}`, path: 'escalate' };
    const rules = object.rules ?? [];
    const missing = uncoveredRules(owned, rules).map((i) => rules[i]);
    if (object.kind === 'ClusterRole' && object.aggregationRule && !covers(owned, FULL_ADMIN)) {
      return { allowed: false, reason: 'must have cluster-admin privileges to use the aggregationRule', uncovered: missing };
    }
    if (missing.length > 0) return { allowed: false, reason: `attempting to grant RBAC permissions not currently held`, uncovered: missing };
    return { allowed: true, reason: 'the requester holds every rule it grants', path: 'covers' };
  }

  const roleRef = object.roleRef;
  const bindResource = roleRef.kind === 'ClusterRole' ? 'clusterroles' : 'roles';
  const bind = authorize({
    user,
    resource: { verb: 'bind', group: roleRef.apiGroup ?? RBAC_GROUP, resource: bindResource, subresource: '', namespace, name: roleRef.name },
  });
  if (bind.allowed) return { allowed: true, reason: `may bind ${roleRef.kind} "${roleRef.name}"`, path: 'bind' };
  const role =
    roleRef.kind === 'ClusterRole'
      ? index.clusterRoles.get(roleRef.name)
      : roleRef.kind === 'Role' && namespace
        ? index.roles.get(namespace)?.get(roleRef.name)
        : undefined;
  if (!role) return { allowed: false, reason: `${roleRef.kind} "${roleRef.name}" not found (BadRequest)` };
  const rules = role.rules.map((r) => r.rule);
  const missing = uncoveredRules(owned, rules).map((i) => rules[i]);
  if (missing.length > 0) return { allowed: false, reason: 'attempting to grant RBAC permissions not currently held', uncovered: missing };
  return { allowed: true, reason: 'the requester holds every rule of the bound role', path: 'covers' };
}
