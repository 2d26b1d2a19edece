import { describe, expect, it } from 'vitest';
import { normaliseEvidence } from '@/lib/analysis/evidence';
import type { Evidence } from '@/lib/analysis/types';
import { createRandom } from '@/scripts/bench/prng';
import { withNote } from './claim-status-writers';

// An associated-node writer's evidence is its decision's evidence, normalised once, with the node's
// note placed into it (withNote) rather than the whole list normalised again per node: the two must
// give the same list, duplicates and note order included.

function randomEvidence(r: ReturnType<typeof createRandom>): Evidence {
  const k = r.int(3);
  if (k === 0)
    return {
      type: 'grant',
      binding: { kind: r.pick(['RoleBinding', 'ClusterRoleBinding']), name: r.pick(['b1', 'b2']), ...(r.chance(0.5) ? { namespace: r.pick(['a', 'b']) } : {}) },
      role: { kind: r.pick(['Role', 'ClusterRole']), name: r.pick(['r1', 'r2']) },
      ruleIndex: r.int(3),
      rule: { verbs: [r.pick(['update', 'patch'])], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'] },
    } as Evidence;
  if (k === 1) return { type: 'field', object: { kind: 'ResourceClaim', name: r.pick(['c1', 'c2']), namespace: 'a' }, path: 'status', value: r.int(2) };
  return { type: 'note', text: r.pick(['a', 'b', 'its pods on n1 carry tokens', 'its pods on n2 carry tokens', 'z', '']) };
}

describe('withNote', () => {
  it('equals normaliseEvidence of the list with the note on 2,000 random lists', () => {
    const r = createRandom(15);
    let inserted = 0;
    for (let i = 0; i < 2000; i++) {
      const list = Array.from({ length: r.int(7) }, () => randomEvidence(r));
      const note = { type: 'note' as const, text: r.pick(['a', 'b', 'its pods on n1 carry tokens', 'its pods on n3 carry tokens', 'zz']) };
      const expected = normaliseEvidence([...list, note]);
      const normalised = normaliseEvidence(list);
      if (expected.length > normalised.length) inserted++;
      expect(withNote(normalised, note)).toEqual(expected);
    }
    // Both cases occur: a note placed among others, and a note already there.
    expect(inserted).toBeGreaterThan(500);
    expect(inserted).toBeLessThan(2000);
  });
});
