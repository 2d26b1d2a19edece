import { describe, expect, it } from 'vitest';
import { createAuthzEngine, type AuthzEngine } from '@/lib/authz/authz-engine';
import { randomRbacState, SMALL_RBAC } from '@/lib/authz/__fixtures__/random-rbac';
import { Group, SA, User } from '@/lib/authz/__fixtures__/builders';
import type { IndexedBinding } from '@/lib/authz/rbac-index';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { AccessIndex } from './access';

// bindingsByNamespace slices each namespace's run out of the index's sorted list: the same lists, in
// the same order, as grouping the bindings one by one, also for a list not sorted by namespace.

const RULES: PolicyRule[] = [
  { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
];
const NSS = ['a', 'b', 'c', 'd', 'e'];
const SUBJECTS = [SA('a', 'x'), User('u'), Group('g')];

function grouped(bindings: readonly IndexedBinding[]): Map<string, IndexedBinding[]> {
  const out = new Map<string, IndexedBinding[]>();
  for (const b of bindings) {
    const ns = b.ref.kind === 'ClusterRoleBinding' ? '' : (b.ref.namespace ?? '');
    const list = out.get(ns);
    if (list) list.push(b);
    else out.set(ns, [b]);
  }
  return out;
}

describe('AccessIndex.bindingsByNamespace', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`groups the index's bindings by namespace (seed ${seed})`, () => {
      const r = createRandom(7700 + seed);
      const engine = createAuthzEngine(
        randomRbacState(r, { ...SMALL_RBAC, rules: RULES, subjects: SUBJECTS, namespaces: NSS, roleBindings: { min: 0, spread: 12 } }),
      );
      const sorted = new AccessIndex(engine).bindingsByNamespace();
      expect([...sorted]).toEqual([...grouped(engine.rbac.bindings)]);
      // Each list is a new array: its bindings, in the index's order.
      for (const list of sorted.values()) expect(list).not.toBe(engine.rbac.bindings);
      // A list out of namespace order: a namespace met again has its bindings appended.
      const shuffled = r.shuffled(engine.rbac.bindings);
      const other = { ...engine, rbac: { ...engine.rbac, bindings: shuffled } } as AuthzEngine;
      expect([...new AccessIndex(other).bindingsByNamespace()]).toEqual([...grouped(shuffled)]);
    });
  }
});
