import type { PolicyRule, SecurityContext } from '@/lib/k8s/types';
import { isDnsSubdomain, isValidLabelKey } from '@/lib/k8s/label-selector';

// What the API server (and, for a pod's user, the kubelet) refuses in the objects a fix writes, so a
// fix that would be refused is never shown. RBAC: ValidatePolicyRule (pkg/apis/rbac/validation).
// Pods: ValidateSecurityContext (pkg/apis/core/validation): allowPrivilegeEscalation false is refused
// beside privileged true and beside capabilities.add CAP_SYS_ADMIN; runAsUser must be a non-negative
// integer. The kubelet refuses to start a container with runAsNonRoot true and runAsUser 0
// (kuberuntime verifyRunAsNonRoot), which the server admits.

/** Why the server refuses the rule, or undefined. `namespaced`: the rule is a Role's. */
export function ruleProblem(rule: PolicyRule, namespaced: boolean): string | undefined {
  if (!rule.verbs || rule.verbs.length === 0) return 'verbs: Required value';
  if (rule.nonResourceURLs && rule.nonResourceURLs.length > 0) {
    if (namespaced) return 'nonResourceURLs: namespaced rules cannot apply to non-resource URLs';
    if ((rule.apiGroups ?? []).length > 0 || (rule.resources ?? []).length > 0)
      return 'nonResourceURLs: rules cannot apply to both regular resources and non-resource URLs';
    return undefined;
  }
  if (!rule.apiGroups || rule.apiGroups.length === 0) return 'apiGroups: Required value';
  if (!rule.resources || rule.resources.length === 0) return 'resources: Required value';
  return undefined;
}

/** Each problem of a container's effective security context (its own fields over the pod's). */
export function securityContextProblems(container: SecurityContext | undefined, pod: { runAsUser?: number; runAsNonRoot?: boolean } | undefined): string[] {
  const sc = container ?? {};
  const out: string[] = [];
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) out.push('cannot set allowPrivilegeEscalation to false and privileged to true');
    if ((sc.capabilities?.add ?? []).includes('CAP_SYS_ADMIN')) out.push('cannot set allowPrivilegeEscalation to false and capabilities.Add CAP_SYS_ADMIN');
  }
  for (const [field, value] of [
    ['runAsUser', sc.runAsUser],
    ['pod runAsUser', pod?.runAsUser],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) out.push(`${field}: must be a non-negative integer`);
  }
  const runAsUser = sc.runAsUser ?? pod?.runAsUser;
  if ((sc.runAsNonRoot ?? pod?.runAsNonRoot) === true && runAsUser === 0)
    out.push('runAsNonRoot is true but runAsUser is 0: the kubelet will not start the container');
  return out;
}

/**
 * Why the API server refuses a ResourceQuota a fix creates, or nothing (ValidateResourceQuota): the
 * name is a DNS-1123 subdomain; each hard key is a qualified resource name (a name without "/" would
 * have to be a standard quota resource, which no DRA key is); each limit is a whole non-negative number.
 */
export function resourceQuotaProblems(quota: { metadata: { name: string }; spec: { hard: Record<string, string> } }): string[] {
  const out: string[] = [];
  const name = quota.metadata.name;
  if (!isDnsSubdomain(name)) out.push(`ResourceQuota name ${name}: must be a DNS-1123 subdomain`);
  for (const [key, value] of Object.entries(quota.spec.hard)) {
    if (!key.includes('/') || !isValidLabelKey(key)) out.push(`spec.hard[${key}]: must be a fully qualified resource name`);
    if (!/^(0|[1-9][0-9]*)$/.test(value)) out.push(`spec.hard[${key}]: ${value} must be a whole non-negative number`);
  }
  return out;
}
