import type { ResourceAttributes } from '@/lib/authz/types';
import type { AuditLevel, AuditPolicy, AuditPolicyRule } from './recommended-policy';

// The level an audit policy gives a request, as the API server's policy checker decides it: the
// first rule whose users, groups, verbs, namespaces and resources all match; None when none does.

/** A resource request as the audit policy checker sees it (the same attributes authorizers get). */
export interface AuditRequest extends Omit<ResourceAttributes, 'fieldSelector'> {
  user: string;
  groups: string[];
}

// Mirrors ruleMatchesResource: the namespace is compared exactly ('' for cluster-scoped requests; an
// empty list matches every namespace and cluster-scoped requests too), and a group entry without
// resources matches the whole group whatever its resourceNames say.
function resourceMatches(rule: AuditPolicyRule, r: AuditRequest): boolean {
  if (rule.namespaces?.length && !rule.namespaces.includes(r.namespace)) return false;
  if (!rule.resources || rule.resources.length === 0) return true;
  const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  return rule.resources.some((gr) => {
    if ((gr.group ?? '') !== r.group) return false;
    const list = gr.resources ?? [];
    if (list.length === 0) return true;
    const names = gr.resourceNames ?? [];
    if (names.length > 0 && !names.includes(r.name)) return false;
    return list.some((res) => res === '*' || res === combined || (r.subresource !== '' && res === `*/${r.subresource}`) || res === `${r.resource}/*`);
  });
}

export function ruleMatches(rule: AuditPolicyRule, r: AuditRequest): boolean {
  if (rule.users?.length && !rule.users.includes(r.user)) return false;
  if (rule.userGroups?.length && !rule.userGroups.some((g) => r.groups.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(r.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return resourceMatches(rule, r);
  // A rule with only nonResourceURLs matches only non-resource requests; these are resource requests.
  return !rule.nonResourceURLs?.length;
}

/** The first rule that matches a request (it alone decides the level), or undefined: not logged. */
export function firstMatchingRule(policy: Pick<AuditPolicy, 'rules'>, r: AuditRequest): number | undefined {
  const i = (policy.rules ?? []).findIndex((rule) => ruleMatches(rule, r));
  return i < 0 ? undefined : i;
}

export function auditLevelFor(policy: Pick<AuditPolicy, 'rules'>, r: AuditRequest): AuditLevel {
  const i = firstMatchingRule(policy, r);
  return i === undefined ? 'None' : policy.rules[i].level;
}
