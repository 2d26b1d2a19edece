import { rbacGrantEvidence } from '@/lib/analysis/evidence';
import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { apiGroupMatches, resourceMatches, resourceNameMatches, verbMatches } from '@/lib/authz/rule-matches';
import type { RbacGrant } from '@/lib/authz/types';
import { compareStrings as cmp } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import type { CoverageRow, IdentityUnusedGrants, UnusedGrant } from './activity-types';
import { type AuditAggregate } from './aggregate-activity';
import { parseUsageKey } from './classify-request';

// Unused grants: for each identity seen in the log, the RBAC rules it holds (as the engine resolves
// them) that no successful request of it matched in the window. A rule is "covered" when the log
// holds any event for what it grants, i.e. the audit policy logged those requests at all; an
// uncovered unused rule says nothing about use.

/** Rules on resource.k8s.io, nodes/status, or wildcards reaching them. */
export function isDraRelevant(rule: PolicyRule): boolean {
  if (rule.nonResourceURLs?.length) return false;
  const groups = rule.apiGroups ?? [];
  const resources = rule.resources ?? [];
  if (groups.includes('*') || groups.includes('resource.k8s.io')) return true;
  return groups.includes('') && resources.some((r) => r === '*' || r === 'nodes/status' || r === '*/status');
}

function ruleCovered(rule: PolicyRule, coverage: readonly CoverageRow[]): boolean {
  return coverage.some((c) => {
    const [resource, sub = ''] = c.resource.split('/');
    return apiGroupMatches(rule, c.group) && resourceMatches(rule, c.resource, sub) && resource !== '' && c.verbs.some((v) => verbMatches(rule, v));
  });
}

/** The namespaces to ask rulesFor about: cluster scope, every namespace with RoleBindings, and those the identity used. */
function namespacesToAsk(engine: AuthzEngine, used: Iterable<string>): string[] {
  const out = new Set<string>(['']);
  for (const b of engine.state.roleBindings) if (b.metadata.namespace) out.add(b.metadata.namespace);
  for (const k of used) {
    const ns = parseUsageKey(k).namespace;
    if (ns) out.add(ns);
  }
  return [...out].sort(cmp);
}

export function unusedGrants(engine: AuthzEngine, aggregate: Pick<AuditAggregate, 'usage' | 'activity'>): IdentityUnusedGrants[] {
  const out: IdentityUnusedGrants[] = [];
  const coverage = aggregate.activity.coverage;
  for (const [identity, { groups, used }] of aggregate.usage) {
    const requests = [...used].map(parseUsageKey);
    const seen = new Map<string, RbacGrant>();
    for (const ns of namespacesToAsk(engine, used)) {
      for (const g of engine.rulesFor({ name: identity, groups }, ns)) {
        const key = `${g.binding.kind}/${g.binding.namespace ?? ''}/${g.binding.name}#${g.role.kind}/${g.role.name}#${g.ruleIndex}`;
        if (!seen.has(key)) seen.set(key, g);
      }
    }
    let usedCount = 0;
    const unused: UnusedGrant[] = [];
    for (const g of seen.values()) {
      const rule = g.rule;
      // Non-resource URLs are not kept per request: such rules are left out rather than guessed.
      if (rule.nonResourceURLs?.length) continue;
      const scope = g.binding.kind === 'RoleBinding' ? (g.binding.namespace ?? '') : undefined;
      const hit = requests.some(
        (r) =>
          (scope === undefined || r.namespace === scope) &&
          verbMatches(rule, r.verb) &&
          apiGroupMatches(rule, r.group) &&
          resourceMatches(rule, r.subresource ? `${r.resource}/${r.subresource}` : r.resource, r.subresource) &&
          resourceNameMatches(rule, r.name),
      );
      if (hit) {
        usedCount++;
        continue;
      }
      const evidence = rbacGrantEvidence(g) as UnusedGrant['evidence'];
      unused.push({ evidence, draRelevant: isDraRelevant(rule), covered: ruleCovered(rule, coverage) });
    }
    if (seen.size === 0) continue;
    unused.sort(
      (a, b) =>
        Number(b.draRelevant) - Number(a.draRelevant) || cmp(a.evidence.binding.name, b.evidence.binding.name) || a.evidence.ruleIndex - b.evidence.ruleIndex,
    );
    out.push({ identity, unused, used: usedCount });
  }
  return out.sort((a, b) => cmp(a.identity, b.identity));
}
