import type { ResourceAttributes } from '@/lib/authz/types';
import type { PolicyRule } from '@/lib/k8s/types';
import type { Operation, OperationContext, ReasonedRule } from '../types';

export const DRA = 'resource.k8s.io';
export const READ = ['get', 'list', 'watch'];
export const WRITE_STATUS = ['update', 'patch'];

export function rule(
  apiGroup: string,
  resources: string[],
  verbs: string[],
  reason: string,
  extra: Partial<PolicyRule> & { since?: ReasonedRule['since'] } = {},
): ReasonedRule {
  const { since, ...rest } = extra;
  const out: ReasonedRule = { rule: { apiGroups: [apiGroup], resources: [...resources], verbs: [...verbs], ...rest }, reason };
  if (since) out.since = since;
  return out;
}

export function attrs(verb: string, group: string, resource: string, opts: Partial<ResourceAttributes> = {}): ResourceAttributes {
  return { verb, group, resource, subresource: '', namespace: '', name: '', ...opts };
}

export function request(label: string, resource: ResourceAttributes, nodeName?: string): Operation {
  return nodeName === undefined ? { kind: 'request', label, resource } : { kind: 'request', label, resource, nodeName };
}

/** What no DRA persona may do: read Secrets, escalate through RBAC, impersonate, or act as cluster-admin. */
export function commonDangerous(ctx: OperationContext): Operation[] {
  return [
    request('read Secrets in kube-system', attrs('get', '', 'secrets', { namespace: 'kube-system', name: 'any-secret' })),
    request(`list Secrets in ${ctx.namespace}`, attrs('list', '', 'secrets', { namespace: ctx.namespace })),
    request('create ClusterRoleBindings', attrs('create', 'rbac.authorization.k8s.io', 'clusterrolebindings')),
    request('bind the cluster-admin ClusterRole', attrs('bind', 'rbac.authorization.k8s.io', 'clusterroles', { name: 'cluster-admin' })),
    request('escalate ClusterRoles', attrs('escalate', 'rbac.authorization.k8s.io', 'clusterroles')),
    request('impersonate users (legacy)', attrs('impersonate', '', 'users', { name: 'admin' })),
    request('impersonate any node (arbitrary-node)', attrs('impersonate:arbitrary-node', 'authentication.k8s.io', 'nodes', { name: ctx.otherNode })),
    request(`exec into pods in ${ctx.namespace}`, attrs('create', '', 'pods', { subresource: 'exec', namespace: ctx.namespace, name: 'any-pod' })),
  ];
}

/** Operations every non-allocator must be refused: forging allocations through resourceclaims/binding. */
export function bindingDangerous(): Operation[] {
  return [request('write status.allocation / reservedFor (resourceclaims/binding)', attrs('update', DRA, 'resourceclaims', { subresource: 'binding' }))];
}
