import { clusterRole, role } from '@/lib/authz/__fixtures__/builders';
import type { PolicyRule } from '@/lib/k8s/types';
import type { createRandom } from '@/scripts/bench/prng';

// Random roles for the fix-verification tests (holder engines and their fast path): six ClusterRoles
// that may carry a tier label, two aggregating ClusterRoles (agg-two is itself picked by agg-one), and
// two Roles per namespace, with random rules and random changes drawn from the same generators.

export interface RandomFixRoles {
  some: <T>(list: readonly T[], max: number) => T[];
  rules: () => PolicyRule[];
  tier: () => { labels?: Record<string, string> };
  clusterRoles: ReturnType<typeof clusterRole>[];
  roles: ReturnType<typeof role>[];
}

export function randomFixRoles(
  r: ReturnType<typeof createRandom>,
  options: {
    namespaces: readonly string[];
    resources: readonly string[];
    verbs: readonly string[];
    nonResource?: boolean;
    /** Names some resource rules are limited to (resourceNames); none when absent. */
    resourceNames?: readonly string[];
  },
): RandomFixRoles {
  const some = <T>(list: readonly T[], max: number) => [...new Set(Array.from({ length: 1 + r.int(max) }, () => r.pick(list)))];
  const resourceRule = (): PolicyRule => {
    const rule: PolicyRule = {
      apiGroups: some(['', 'resource.k8s.io'], 2),
      resources: some(options.resources, 2),
      verbs: some(options.verbs, 2),
    };
    // Drawn only when asked for: the other tests' random sequences stay as they were.
    if (options.resourceNames && r.chance(0.4)) rule.resourceNames = some(options.resourceNames, 2);
    return rule;
  };
  const rule = (): PolicyRule =>
    options.nonResource && r.chance(0.1) ? { nonResourceURLs: some(['/healthz', '/metrics', '*'], 2), verbs: some(['get', '*'], 1) } : resourceRule();
  const rules = () => Array.from({ length: r.int(3) }, rule);
  const tier = () => (r.chance(0.5) ? { labels: { tier: r.pick(['one', 'two']) } } : {});
  const clusterRoles = [
    ...Array.from({ length: 6 }, (_, i) => clusterRole(`c${i}`, rules(), tier())),
    clusterRole('agg-one', [], { aggregate: [{ matchLabels: { tier: 'one' } }] }),
    clusterRole('agg-two', [], { aggregate: [{ matchLabels: { tier: 'two' } }], labels: { tier: 'one' } }),
  ];
  const roles = options.namespaces.flatMap((ns) => Array.from({ length: 2 }, (_, i) => role(ns, `r${i}`, rules())));
  return { some, rules, tier, clusterRoles, roles };
}
