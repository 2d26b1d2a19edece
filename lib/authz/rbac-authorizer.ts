import type { RbacIndex, SubjectEntry, SubjectIndex } from './rbac-index';
import { combinedResource, ruleAllowsNonResource, ruleAllowsResource } from './rule-matches';
import type { AuthzRequest, Decision, RbacGrant, UserInfo } from './types';

/**
 * The RBAC authorizer (plugin/pkg/auth/authorizer/rbac): Allow or NoOpinion, never Deny.
 * ClusterRoleBindings always apply; RoleBindings only for requests with a namespace, and only
 * those in that namespace.
 */
export function authorizeRbac(index: RbacIndex, request: AuthzRequest): Decision {
  const grant = findRbacGrant(index, request);
  if (grant) return { allowed: true, decidedBy: 'rbac', reason: describeGrant(grant), grant };
  return { allowed: false, reason: NO_RBAC_MATCH };
}

/** RBAC's reason when no rule allows the request. */
export const NO_RBAC_MATCH = 'no RBAC policy matched';

export function findRbacGrant(index: RbacIndex, request: AuthzRequest): RbacGrant | undefined {
  const found = visitSubjectIndex(index.clusterBindings, request);
  if (found) return found;
  const ns = request.resource?.namespace ?? '';
  if (ns === '') return undefined;
  const nsIndex = index.namespaceBindings.get(ns);
  return nsIndex ? visitSubjectIndex(nsIndex, request) : undefined;
}

function visitSubjectIndex(idx: SubjectIndex, request: AuthzRequest): RbacGrant | undefined {
  const user = request.user;
  let found = visitEntries(idx.byUser.get(user.name), request);
  if (found) return found;
  for (let i = 0; i < user.groups.length; i++) {
    found = visitEntries(idx.byGroup.get(user.groups[i]), request);
    if (found) return found;
  }
  return undefined;
}

function visitEntries(entries: SubjectEntry[] | undefined, request: AuthzRequest): RbacGrant | undefined {
  if (!entries) return undefined;
  const res = request.resource;
  const combined = res ? combinedResource(res) : '';
  for (let e = 0; e < entries.length; e++) {
    const { binding, subject } = entries[e];
    const role = binding.role;
    if (!role) continue;
    const rules = role.rules;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i].rule;
      const ok = res ? ruleAllowsResource(rule, res, combined) : request.nonResource ? ruleAllowsNonResource(rule, request.nonResource) : false;
      if (ok) {
        const grant: RbacGrant = { binding: binding.ref, role: role.ref, ruleIndex: i, rule, subject };
        if (rules[i].from) grant.aggregatedFrom = rules[i].from;
        return grant;
      }
    }
  }
  return undefined;
}

/** The reason string in kube-apiserver's format. */
export function describeGrant(grant: RbacGrant): string {
  const b =
    grant.binding.kind === 'RoleBinding' ? `RoleBinding "${grant.binding.name}/${grant.binding.namespace}"` : `ClusterRoleBinding "${grant.binding.name}"`;
  const s = grant.subject;
  const who = s.kind === 'ServiceAccount' ? `ServiceAccount "${s.name}/${s.namespace}"` : `${s.kind} "${s.name}"`;
  return `RBAC: allowed by ${b} of ${grant.role.kind} "${grant.role.name}" to ${who}`;
}

/** Every rule that applies to a user at a namespace ("" = cluster scope), as RulesFor does. */
export function rulesFor(index: RbacIndex, user: UserInfo, namespace: string): RbacGrant[] {
  const out: RbacGrant[] = [];
  const seen = new Set<string>();
  const collect = (idx: SubjectIndex | undefined) => {
    if (!idx) return;
    const lists = [idx.byUser.get(user.name), ...user.groups.map((g) => idx.byGroup.get(g))];
    for (const entries of lists) {
      for (const { binding, subject } of entries ?? []) {
        const key = `${binding.ref.kind}/${binding.ref.namespace ?? ''}/${binding.ref.name}`;
        if (seen.has(key) || !binding.role) continue;
        seen.add(key);
        binding.role.rules.forEach((r, ruleIndex) => {
          const grant: RbacGrant = { binding: binding.ref, role: binding.role!.ref, ruleIndex, rule: r.rule, subject };
          if (r.from) grant.aggregatedFrom = r.from;
          out.push(grant);
        });
      }
    }
  };
  collect(index.clusterBindings);
  if (namespace !== '') collect(index.namespaceBindings.get(namespace));
  return out;
}
