import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { boundRoles, draRuleHits, isWildcardDraRule, reachesDra, unscopedDriverVerbs } from './dra-shared';
import { dra002, dra004 } from './dra-checks';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, SA, User } from '@/lib/authz/__fixtures__/builders';
import { randomRbacState, SMALL_RBAC } from '@/lib/authz/__fixtures__/random-rbac';

// Against the plain reading: a rule reaches DRA when one of its groups is resource.k8s.io or '*' and
// one of its resources is '*', '*/<sub>' or a DRA resource (with or without a subresource); it is a
// wildcard DRA rule when it reaches DRA and has verb '*' or a wildcard resource.
describe('reachesDra and isWildcardDraRule on random rules', () => {
  const DRA = new Set(['deviceclasses', 'resourceclaims', 'resourceclaimtemplates', 'resourceslices', 'devicetaintrules']);
  const plainReaches = (rule: PolicyRule) =>
    (rule.apiGroups ?? []).some((g) => g === 'resource.k8s.io' || g === '*') &&
    (rule.resources ?? []).some((r) => r === '*' || r.startsWith('*/') || DRA.has(r.split('/')[0]));
  const plainWildcard = (rule: PolicyRule) =>
    plainReaches(rule) && ((rule.verbs ?? []).includes('*') || (rule.resources ?? []).some((r) => r === '*' || r.startsWith('*/')));

  it('answers as the plain reading on 2,000 rules', () => {
    const r = createRandom(4100);
    const some = <T>(xs: readonly T[]) => Array.from({ length: r.int(4) }, () => r.pick(xs));
    const groups = ['', 'apps', 'resource.k8s.io', '*', 'resource.k8s.io.example'];
    const resources = [
      '*',
      '*/status',
      'pods',
      'resourceclaims',
      'resourceclaims/status',
      'resourceslices',
      'devicetaintrules/x/y',
      'deviceclasses',
      'resourceclaims2',
      '/resourceclaims',
      '',
    ];
    const verbs = ['get', 'list', '*', 'create'];
    for (let i = 0; i < 2000; i++) {
      const rule = { apiGroups: some(groups), resources: some(resources), verbs: some(verbs) } as PolicyRule;
      if (r.chance(0.05)) delete (rule as { apiGroups?: string[] }).apiGroups;
      if (r.chance(0.05)) delete (rule as { resources?: string[] }).resources;
      expect([rule, reachesDra(rule), isWildcardDraRule(rule)]).toEqual([rule, plainReaches(rule), plainWildcard(rule)]);
    }
  });
});

describe('draRuleHits (DRA002, DRA004) on random RBAC', () => {
  // The plain reading: every rule of every bound role tried with isWildcardDraRule and unscopedDriverVerbs,
  // role by role in boundRoles order; and the checks report the roles found so (DRA002 leaving out cluster-admin and system:*).
  const RULES: PolicyRule[] = [
    { apiGroups: ['resource.k8s.io'], resources: ['*'], verbs: ['get'] },
    { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['*'] },
    { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['arbitrary-node:update', 'get'] },
    { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['update'], resourceNames: ['gpu.example.com'] },
    { apiGroups: ['*'], resources: ['*/driver'], verbs: ['*'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['*'] },
    { apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'], verbs: ['get', 'list'] },
    { apiGroups: ['apps'], resources: ['*'], verbs: ['*'] },
  ];
  for (let seed = 0; seed < 30; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(4100 + seed);
      const state = randomRbacState(r, {
        ...SMALL_RBAC,
        clusterRoles: 8,
        rules: RULES,
        subjects: [User('u1'), User('u2'), Group('g1'), SA('ns-a', 'sa')],
        namespaces: ['ns-a', 'ns-b'],
      });
      state.clusterRoles.push(clusterRole('system:x', [RULES[0], RULES[2]]), clusterRole('cluster-admin', [RULES[4]]));
      state.clusterRoleBindings.push(crb('sys', { kind: 'ClusterRole', name: r.pick(['system:x', 'cluster-admin']) }, [User('u3')]));
      const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
      const wildcard = boundRoles(ctx)
        .map((b) => [b.role.key, b.role.rules.flatMap((x, i) => (isWildcardDraRule(x.rule) ? [i] : []))] as const)
        .filter(([, idx]) => idx.length > 0);
      const driver = boundRoles(ctx)
        .map(
          (b) =>
            [b.role.key, b.role.rules.flatMap((x, i) => (unscopedDriverVerbs(x.rule).length > 0 ? [{ i, verbs: unscopedDriverVerbs(x.rule) }] : []))] as const,
        )
        .filter(([, hits]) => hits.length > 0);
      const hits = draRuleHits(ctx);
      expect(hits.flatMap((h) => (h.wildcard ? [[h.bound.role.key, h.wildcard]] : []))).toEqual(wildcard);
      expect(hits.flatMap((h) => (h.driver ? [[h.bound.role.key, h.driver]] : []))).toEqual(driver);
      const reported = (keys: readonly string[]) => keys.map((k) => boundRoles(ctx).find((b) => b.role.key === k)!.role.ref.name);
      const bootstrap = (name: string) => name === 'cluster-admin' || name.startsWith('system:');
      expect(dra002.run(ctx).map((d) => d.objects.find((o) => o.kind.endsWith('Role'))!.name)).toEqual(
        reported(wildcard.map(([k]) => k)).filter((n, i) => !(wildcard[i][0].startsWith('ClusterRole') && bootstrap(n))),
      );
      expect(dra004.run(ctx).map((d) => d.evidence.length)).toEqual(
        driver.map(([k, h]) => boundRoles(ctx).find((b) => b.role.key === k)!.bindings.length * h.length),
      );
    });
  }
});
