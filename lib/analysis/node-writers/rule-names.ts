import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { candidateRules } from '@/lib/authz/rbac-index';
import { apiGroupMatches, combinedResource, resourceMatches, verbMatches } from '@/lib/authz/rule-matches';
import type { PolicyRule } from '@/lib/k8s/types';

/**
 * Every resourceName listed by a rule that could grant one of `verbs` on (group, resource/subresource):
 * the only names a resourceNames-restricted grant can reach. Read from the engine's rule buckets, so
 * the cost does not grow with the number of bindings or nodes.
 */
export function resourceNamesInRules(engine: AuthzEngine, group: string, resource: string, subresource: string, verbs: readonly string[]): Set<string> {
  const combined = combinedResource({ resource, subresource });
  const names = new Set<string>();
  const visit = (refs: { role: { rules: { rule: PolicyRule }[] }; ruleIndex: number }[] | undefined) => {
    for (const ref of refs ?? []) addNames(names, ref.role.rules[ref.ruleIndex].rule, group, combined, subresource, verbs);
  };
  visit(candidateRules(engine.rbac, group, resource, subresource));
  return names;
}

/** As resourceNamesInRules, over the rules of some grants (e.g. what engine.rulesFor gives one identity). */
export function resourceNamesInGrants(
  grants: readonly { rule: PolicyRule }[],
  group: string,
  resource: string,
  subresource: string,
  verbs: readonly string[],
): Set<string> {
  const combined = combinedResource({ resource, subresource });
  const names = new Set<string>();
  for (const g of grants) addNames(names, g.rule, group, combined, subresource, verbs);
  return names;
}

function addNames(names: Set<string>, rule: PolicyRule, group: string, combined: string, subresource: string, verbs: readonly string[]): void {
  if (!rule.resourceNames || rule.resourceNames.length === 0) return;
  if (!verbs.some((v) => verbMatches(rule, v))) return;
  if (!apiGroupMatches(rule, group) || !resourceMatches(rule, combined, subresource)) return;
  for (const n of rule.resourceNames) names.add(n);
}
