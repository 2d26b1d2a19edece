import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { bucketKey } from '@/lib/authz/rbac-index';
import { apiGroupMatches, combinedResource, resourceMatches, verbMatches } from '@/lib/authz/rule-matches';

/**
 * Every resourceName listed by a rule that could grant one of `verbs` on (group, resource/subresource):
 * the only names a resourceNames-restricted grant can reach. Read from the engine's rule buckets, so
 * the cost does not grow with the number of bindings or nodes.
 */
export function resourceNamesInRules(engine: AuthzEngine, group: string, resource: string, subresource: string, verbs: readonly string[]): Set<string> {
  const combined = combinedResource({ resource, subresource });
  const names = new Set<string>();
  const visit = (refs: { role: { rules: { rule: import('@/lib/k8s/types').PolicyRule }[] }; ruleIndex: number }[] | undefined) => {
    for (const ref of refs ?? []) {
      const rule = ref.role.rules[ref.ruleIndex].rule;
      if (!rule.resourceNames || rule.resourceNames.length === 0) continue;
      if (!verbs.some((v) => verbMatches(rule, v))) continue;
      if (!apiGroupMatches(rule, group) || !resourceMatches(rule, combined, subresource)) continue;
      for (const n of rule.resourceNames) names.add(n);
    }
  };
  visit(engine.rbac.ruleBuckets.get(bucketKey(group, combined)));
  visit(engine.rbac.wildcardRules);
  return names;
}
