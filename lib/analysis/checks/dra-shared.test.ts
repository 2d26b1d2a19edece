import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { isWildcardDraRule, reachesDra } from './dra-shared';

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
