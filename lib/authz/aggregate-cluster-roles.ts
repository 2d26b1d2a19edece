import type { ClusterRole, PolicyRule } from '@/lib/k8s/types';
import { matchesLabelSelector } from '@/lib/k8s/label-selector';
import { compareStrings } from '@/lib/k8s/refs';

export interface AggregatedRule {
  rule: PolicyRule;
  /** The ClusterRole the rule was copied from by aggregation (undefined for a role's own rules). */
  from?: string;
}

export interface AggregationResult {
  /** Effective rules per ClusterRole name, as the aggregation controller's steady state. */
  rules: Map<string, AggregatedRule[]>;
  /** Aggregated roles whose stored rules differ from the recomputed ones (live drift, cycles...). */
  notes: string[];
}

const MAX_PASSES = 20;

/**
 * Recomputes every aggregated ClusterRole from its selectors, as the clusterrole-aggregation
 * controller converges to: selector by selector, the matching roles (sorted by name, itself skipped)
 * contribute each rule not already present; stored rules of aggregated roles are replaced. Nested aggregation is iterated
 * to a fixed point; a cycle that does not settle is reported.
 */
export function aggregateClusterRoles(clusterRoles: readonly ClusterRole[]): AggregationResult {
  const byName = new Map<string, ClusterRole>();
  for (const cr of clusterRoles) byName.set(cr.metadata.name, cr);
  const sorted = [...byName.values()].sort((a, b) => compareStrings(a.metadata.name, b.metadata.name));

  const rules = new Map<string, AggregatedRule[]>();
  const aggregated: ClusterRole[] = [];
  for (const cr of sorted) {
    rules.set(cr.metadata.name, ownRules(cr.rules));
    if (cr.aggregationRule) aggregated.push(cr);
  }
  const notes: string[] = [];
  if (aggregated.length === 0) return { rules, notes };

  // Selected members never change between passes; only their effective rules do. As the
  // controller, each selector in turn contributes its matches sorted by name (a role matched by two
  // selectors is visited twice; its rules are already present the second time).
  const members = new Map<string, ClusterRole[]>();
  for (const agg of aggregated) {
    const list: ClusterRole[] = [];
    for (const selector of agg.aggregationRule?.clusterRoleSelectors ?? []) {
      for (const cr of sorted) {
        if (cr.metadata.name !== agg.metadata.name && matchesLabelSelector(selector, cr.metadata.labels ?? {})) list.push(cr);
      }
    }
    members.set(agg.metadata.name, list);
  }

  let settled = false;
  for (let pass = 0; pass < MAX_PASSES && !settled; pass++) {
    settled = true;
    for (const agg of aggregated) {
      const next: AggregatedRule[] = [];
      const seen = new Set<string>();
      for (const member of members.get(agg.metadata.name)!) {
        for (const r of rules.get(member.metadata.name)!) {
          const key = ruleKey(r.rule);
          if (seen.has(key)) continue;
          seen.add(key);
          next.push({ rule: r.rule, from: r.from ?? member.metadata.name });
        }
      }
      const current = rules.get(agg.metadata.name)!;
      if (!sameRuleList(current, next)) {
        rules.set(agg.metadata.name, next);
        settled = false;
      }
    }
  }
  if (!settled) notes.push('ClusterRole aggregation did not settle (selector cycle); effective rules are a best effort');

  for (const agg of aggregated) {
    const stored = agg.rules ?? [];
    const computed = rules.get(agg.metadata.name)!;
    if (
      stored.length > 0 &&
      !sameRuleList(
        stored.map((rule) => ({ rule })),
        computed,
      )
    ) {
      notes.push(`ClusterRole "${agg.metadata.name}": stored rules differ from its aggregation; the aggregated rules are used`);
    }
  }
  return { rules, notes };
}

// The entry of a role's own rule, per rule: ~1,350 holder-scoped engines (fix verification on the
// diverse bench cluster) index the cluster's rules again (~240 each, mostly aggregated roles' rules
// copied into new lists), and their entries were most of what those indexes allocate. An entry
// holds nothing but its rule, so every index shares it.
const OWN_ENTRIES = new WeakMap<PolicyRule, AggregatedRule>();

/** A role's own rules as entries (no `from`). */
export function ownRules(rules: readonly PolicyRule[] | null | undefined): AggregatedRule[] {
  if (!rules || rules.length === 0) return [];
  return rules.map((rule) => {
    let entry = OWN_ENTRIES.get(rule);
    if (!entry) OWN_ENTRIES.set(rule, (entry = { rule }));
    return entry;
  });
}

const RULE_KEYS = new WeakMap<PolicyRule, string>();

/** A canonical string of a rule, equal exactly when rulesEqual holds. */
function ruleKey(rule: PolicyRule): string {
  let key = RULE_KEYS.get(rule);
  if (key === undefined) {
    key = JSON.stringify([rule.verbs ?? [], rule.apiGroups ?? [], rule.resources ?? [], rule.resourceNames ?? [], rule.nonResourceURLs ?? []]);
    RULE_KEYS.set(rule, key);
  }
  return key;
}

function sameRuleList(a: AggregatedRule[], b: AggregatedRule[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!rulesEqual(a[i].rule, b[i].rule)) return false;
  return true;
}

// Semantic equality as apimachinery's DeepEqual: nil and empty lists are equal.
export function rulesEqual(a: PolicyRule, b: PolicyRule): boolean {
  return (
    listEqual(a.verbs, b.verbs) &&
    listEqual(a.apiGroups, b.apiGroups) &&
    listEqual(a.resources, b.resources) &&
    listEqual(a.resourceNames, b.resourceNames) &&
    listEqual(a.nonResourceURLs, b.nonResourceURLs)
  );
}

function listEqual(a: readonly string[] | undefined | null, b: readonly string[] | undefined | null): boolean {
  const x = a ?? [];
  const y = b ?? [];
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
