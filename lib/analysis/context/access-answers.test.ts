import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { randomRbacState, SMALL_RBAC } from '@/lib/authz/__fixtures__/random-rbac';
import { Group, SA, User } from '@/lib/authz/__fixtures__/builders';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { AccessIndex, type AccessQuestion } from './access';

// whoCan keeps each answer by its question object as well as by its JSON key: asked again by the same
// object or by an equal copy, the kept answer; with keep: false, computed afresh and not kept, either
// way; always what a fresh index computes.

const RULES: PolicyRule[] = [
  { verbs: ['get', 'update'], apiGroups: [''], resources: ['pods', 'nodes'] },
  { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], resourceNames: ['a'] },
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
];
const NSS = ['a', 'b', 'c'];
const SUBJECTS = [SA('a', 'x'), SA('b', 'y'), User('u'), Group('g'), Group('system:serviceaccounts')];

function randomQuestion(r: ReturnType<typeof createRandom>): AccessQuestion {
  const [group, resource] = r.pick([
    ['', 'pods'],
    ['', 'nodes'],
    ['resource.k8s.io', 'resourceslices'],
  ]);
  const scope = r.pick(['cluster', 'namespaced'] as const);
  const q: AccessQuestion = {
    verbs: r.pick([['get'], ['update', 'create'], ['create']]),
    group,
    resource,
    scope,
    names: r.pick(['any', 'unscoped', ['a'], ['']] as const),
  };
  if (scope === 'namespaced' && r.chance(0.4)) q.namespaces = [r.pick(NSS)];
  return q;
}

describe('AccessIndex.whoCan answers kept by question object', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(9100 + seed);
      const engine = createAuthzEngine(randomRbacState(r, { ...SMALL_RBAC, rules: RULES, subjects: SUBJECTS, namespaces: NSS }));
      const index = new AccessIndex(engine);
      const asked: AccessQuestion[] = [];
      for (let i = 0; i < 12; i++) {
        const q = r.chance(0.5) && asked.length > 0 ? r.pick(asked) : randomQuestion(r);
        const expected = new AccessIndex(engine).whoCan(q);
        if (r.chance(0.3)) {
          // Not kept: a new answer each time, unless an equal question's was kept before.
          const kept = asked.some((x) => JSON.stringify(x) === JSON.stringify(q));
          const a = index.whoCan(q, { keep: false });
          const again = index.whoCan(q, { keep: false });
          const b = index.whoCan({ ...q }, { keep: false });
          expect(a).toEqual(expected);
          expect(b).toEqual(expected);
          expect([a === again, a === b]).toEqual([kept, kept]);
          continue;
        }
        const first = index.whoCan(q);
        expect(first).toEqual(expected);
        expect(index.whoCan(q)).toBe(first);
        expect(index.whoCan({ ...q })).toBe(first);
        if (!asked.includes(q)) asked.push(q);
      }
    });
  }
});
