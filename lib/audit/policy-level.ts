import type { ResourceAttributes } from '@/lib/authz/types';
import type { AuditLevel, AuditPolicy, AuditPolicyRule } from './recommended-policy';

// The level an audit policy gives a request, as the API server's policy checker decides it: the
// first rule whose users, groups, verbs, namespaces and resources all match; None when none does.

/** A resource request as the audit policy checker sees it (the same attributes authorizers get). */
export interface AuditRequest extends Omit<ResourceAttributes, 'fieldSelector'> {
  user: string;
  groups: string[];
}

function resourceMatches(rule: AuditPolicyRule, r: AuditRequest): boolean {
  if (!rule.resources || rule.resources.length === 0) return true;
  const combined = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  return rule.resources.some((gr) => {
    if ((gr.group ?? '') !== r.group) return false;
    const names = gr.resourceNames ?? [];
    if (names.length > 0 && !names.includes(r.name)) return false;
    const list = gr.resources ?? [];
    if (list.length === 0) return true;
    return list.some((res) => res === '*' || res === combined || (r.subresource !== '' && res === `*/${r.subresource}`) || res === `${r.resource}/*`);
  });
}

export function ruleMatches(rule: AuditPolicyRule, r: AuditRequest): boolean {
  if (rule.users?.length && !rule.users.includes(r.user)) return false;
  if (rule.userGroups?.length && !rule.userGroups.some((g) => r.groups.includes(g))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(r.verb)) return false;
  // A rule with nonResourceURLs only matches non-resource requests.
  if (rule.nonResourceURLs?.length) return false;
  if (rule.namespaces?.length && !rule.namespaces.includes(r.namespace)) return false;
  return resourceMatches(rule, r);
}

export function auditLevelFor(policy: Pick<AuditPolicy, 'rules'>, r: AuditRequest): AuditLevel {
  for (const rule of policy.rules ?? []) if (ruleMatches(rule, r)) return rule.level;
  return 'None';
}

/** Claim mutations a policy must log: create/update/patch/delete of claims and the status subresource writes. */
export const CLAIM_MUTATIONS: readonly Omit<AuditRequest, 'user' | 'groups' | 'namespace' | 'name'>[] = [
  ...['create', 'update', 'patch', 'delete'].map((verb) => ({ verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: '' })),
  ...['status', 'binding', 'driver'].flatMap((subresource) =>
    ['update', 'patch'].map((verb) => ({ verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource })),
  ),
];

/** The claim mutations a policy does not log (level None) for an ordinary user in a namespace. */
export function missedClaimMutations(policy: Pick<AuditPolicy, 'rules'>, namespace = 'default'): string[] {
  const out: string[] = [];
  for (const m of CLAIM_MUTATIONS) {
    const level = auditLevelFor(policy, { ...m, user: 'dra-posture:probe', groups: ['system:authenticated'], namespace, name: 'probe' });
    if (level === 'None') out.push(`${m.verb} ${m.resource}${m.subresource ? `/${m.subresource}` : ''}`);
  }
  return out;
}
