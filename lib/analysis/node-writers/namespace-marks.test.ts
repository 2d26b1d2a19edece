import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { compareStrings } from '@/lib/k8s/refs';
import { markNamespaces } from './namespace-marks';

describe('markNamespaces', () => {
  it('marks exactly the listed namespaces among the sorted ones, as indexOf finds them, on 300 random cases', () => {
    let marked = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const r = createRandom(seed);
      const pool = ['', 'a', 'a-1', 'b', 'kube-system', 'ns-10', 'ns-2', 'team', 'team-a', 'z'];
      const namespaces = [...new Set(pool.filter(() => r.chance(0.6)))].sort(compareStrings);
      const lists = Array.from({ length: r.int(3) }, () => pool.filter(() => r.chance(0.3)));
      const plain = namespaces.map((ns) => (lists.some((l) => l.includes(ns)) ? 1 : 0));
      expect([...markNamespaces(namespaces, lists)], `seed ${seed}`).toEqual(plain);
      marked += plain.filter((m) => m === 1).length;
    }
    expect(marked).toBeGreaterThan(300);
  });
});
