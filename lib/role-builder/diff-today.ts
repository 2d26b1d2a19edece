import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { covers } from '@/lib/authz/covers';
import type { RbacGrant } from '@/lib/authz/types';
import { holderEngine, noRbacChanges } from '@/lib/analysis/fixes/holder-engine';
import { compareStrings } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import { bundleRules } from './build-bundle';
import { identityUser } from './identity';
import type { ReasonedRule, RoleBundle } from './types';

export interface CurrentGrant {
  binding: { kind: string; name: string; namespace?: string };
  role: { kind: string; name: string; namespace?: string };
  ruleIndex: number;
  rule: PolicyRule;
  /** "" = cluster-wide (ClusterRoleBinding), else the RoleBinding's namespace. */
  namespace: string;
}

export interface EscalationPrimitive {
  grant: CurrentGrant;
  primitives: string[];
}

export interface BundleDiff {
  /** The identity has no RBAC grants today (a new identity, or one nothing is bound to). */
  noGrantsToday: boolean;
  /** Rules it holds today (not counting what every authenticated user holds) that the bundle does not cover: remove them (or the bindings) when switching. */
  toRemove: CurrentGrant[];
  /** Bundle rules it does not hold today, with where they would apply. */
  missing: { namespace: string; rule: ReasonedRule }[];
  /** Rules it holds today that allow escalation (bind, escalate, impersonate, wildcards). */
  escalation: EscalationPrimitive[];
  /** Bindings that grant today's rules, for the removal step. */
  bindings: { kind: string; name: string; namespace?: string }[];
}

/** What in one rule lets its holder gain more than it was given. */
export function escalationPrimitives(rule: PolicyRule): string[] {
  const out: string[] = [];
  const verbs = rule.verbs ?? [];
  if (verbs.includes('*')) out.push('verbs: * (includes bind, escalate, impersonate)');
  if ((rule.resources ?? []).some((r) => r === '*' || r.startsWith('*/')))
    out.push('resources: * (every resource, including secrets and synthetic subresources)');
  if ((rule.apiGroups ?? []).includes('*')) out.push('apiGroups: *');
  if ((rule.nonResourceURLs ?? []).includes('*')) out.push('nonResourceURLs: *');
  for (const v of ['bind', 'escalate', 'impersonate']) if (verbs.includes(v)) out.push(`verb ${v}`);
  for (const v of verbs) if (v.startsWith('impersonate:') && v !== 'impersonate:associated-node') out.push(`verb ${v}`);
  return out;
}

// Everyone holds these (discovery, self-review): not something to remove from one identity.
const EVERYONE = new Set(['system:authenticated', 'system:unauthenticated', 'system:serviceaccounts']);
const personal = (g: RbacGrant) => !(g.subject.kind === 'Group' && EVERYONE.has(g.subject.name));

function toCurrent(g: RbacGrant): CurrentGrant {
  return {
    binding: g.binding,
    role: g.role,
    ruleIndex: g.ruleIndex,
    rule: g.rule,
    namespace: g.binding.kind === 'RoleBinding' ? (g.binding.namespace ?? '') : '',
  };
}

/**
 * Today's grants of the identity against the bundle, with the engine's rule resolution (rulesFor)
 * and the escalation check's Covers: a grant is covered when the bundle's rules at the same scope
 * cover it; a bundle rule is missing when today's rules at its scope do not cover it.
 */
export function diffAgainstToday(engine: AuthzEngine, bundle: RoleBundle): BundleDiff {
  const user = identityUser(bundle.input.identity);
  const { cluster, namespaced } = bundleRules(bundle);
  const allCluster = engine.rulesFor(user, '');
  const clusterGrants = allCluster.filter(personal).map(toCurrent);
  // Namespaced grants come from RoleBindings naming the identity or its groups: only their namespaces
  // are asked (the holder-scoped engine finds them without walking 20,000 namespaces).
  const bound = holderEngine(engine, [user], noRbacChanges()).state.roleBindings.map((b) => b.metadata.namespace ?? '');
  const namespaces = [...new Set([...bound, ...namespaced.keys()])].filter(Boolean).sort(compareStrings);
  const nsGrants = new Map<string, CurrentGrant[]>();
  for (const ns of namespaces) {
    const grants = engine
      .rulesFor(user, ns)
      .filter((g) => g.binding.kind === 'RoleBinding' && personal(g))
      .map(toCurrent);
    if (grants.length > 0) nsGrants.set(ns, grants);
  }
  const today = [...clusterGrants, ...[...nsGrants.values()].flat()];
  const bundleCluster = cluster.map((r) => r.rule);
  const bundleAt = (ns: string) => [...bundleCluster, ...(namespaced.get(ns) ?? []).map((r) => r.rule)];

  const toRemove = today.filter((g) => !covers(g.namespace === '' ? bundleCluster : bundleAt(g.namespace), [g.rule]));
  const clusterRules = allCluster.map((g) => g.rule);
  const missing = [
    ...cluster.filter((r) => !covers(clusterRules, [r.rule])).map((rule) => ({ namespace: '', rule })),
    ...[...namespaced.entries()].flatMap(([ns, rules]) => {
      const owned = [...clusterRules, ...(nsGrants.get(ns) ?? []).map((g) => g.rule)];
      return rules.filter((r) => !covers(owned, [r.rule])).map((rule) => ({ namespace: ns, rule }));
    }),
  ];
  const escalation = today.map((grant) => ({ grant, primitives: escalationPrimitives(grant.rule) })).filter((e) => e.primitives.length > 0);
  const seen = new Set<string>();
  const bindings = today
    .map((g) => g.binding)
    .filter((b) => {
      const k = `${b.kind}/${b.namespace ?? ''}/${b.name}`;
      return seen.has(k) ? false : (seen.add(k), true);
    });
  return { noGrantsToday: today.length === 0, toRemove, missing, escalation, bindings };
}
