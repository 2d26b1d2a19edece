// When has the real clusterrole-aggregation controller settled, as far as the engine can compare?
// Aggregated roles that select each other (a cycle) have no unique fixed point: the controller keeps
// reordering their rules for a while and which rules survive depends on its order. Authorization
// only depends on the set of rules, so cyclic roles are compared as sets, the others exactly.
import { buildRbacIndex } from '../../lib/authz/rbac-index';
import type { ClusterState } from '../../lib/k8s/cluster-state';
import { matchesLabelSelector } from '../../lib/k8s/label-selector';
import type { ClusterRole, PolicyRule } from '../../lib/k8s/types';

export interface AggregationDrift {
  name: string;
  cyclic: boolean;
  stored: PolicyRule[];
  computed: PolicyRule[];
}

/** Aggregated ClusterRole → the aggregated ClusterRoles its selectors pick. */
export function aggregatedMembers(clusterRoles: readonly ClusterRole[]): Map<string, string[]> {
  const aggregated = clusterRoles.filter((c) => c.aggregationRule);
  const edges = new Map<string, string[]>();
  for (const a of aggregated) {
    const selectors = a.aggregationRule?.clusterRoleSelectors ?? [];
    edges.set(
      a.metadata.name,
      aggregated.filter((b) => b !== a && selectors.some((s) => matchesLabelSelector(s, b.metadata.labels ?? {}))).map((b) => b.metadata.name),
    );
  }
  return edges;
}

/** Aggregated ClusterRoles that select themselves through other aggregated roles. */
export function aggregationCycles(clusterRoles: readonly ClusterRole[]): Set<string> {
  const edges = aggregatedMembers(clusterRoles);
  const cyclic = new Set<string>();
  for (const start of edges.keys()) {
    const seen = new Set<string>();
    const stack = [...edges.get(start)!];
    while (stack.length) {
      const n = stack.pop()!;
      if (n === start) {
        cyclic.add(start);
        break;
      }
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...edges.get(n)!);
    }
  }
  return cyclic;
}

/** Aggregated roles whose stored rules are not the engine's recomputation (an empty stored list counts). */
export function aggregationDrift(state: ClusterState): AggregationDrift[] {
  const index = buildRbacIndex(state);
  const cyclic = aggregationCycles(state.clusterRoles);
  const out: AggregationDrift[] = [];
  for (const c of state.clusterRoles) {
    if (!c.aggregationRule) continue;
    const stored = c.rules ?? [];
    const computed = index.clusterRoles.get(c.metadata.name)!.rules.map((r) => r.rule);
    const isCyclic = cyclic.has(c.metadata.name);
    const same = isCyclic ? ruleSetKey(stored) === ruleSetKey(computed) : JSON.stringify(stored) === JSON.stringify(computed);
    if (!same) out.push({ name: c.metadata.name, cyclic: isCyclic, stored, computed });
  }
  return out;
}

/** The aggregated roles' rule sets, to see whether two reads saw the same authorization. */
export function aggregatedRuleSets(state: ClusterState): string {
  return state.clusterRoles
    .filter((c) => c.aggregationRule)
    .map((c) => `${c.metadata.name}=${ruleSetKey(c.rules ?? [])}`)
    .join('\n');
}

function ruleSetKey(rules: readonly PolicyRule[]): string {
  return JSON.stringify(rules.map((r) => JSON.stringify(r)).sort());
}
