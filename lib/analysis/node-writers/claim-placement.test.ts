import { describe, expect, it } from 'vitest';
import type { ResourceClaim } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { driversOf } from './claim-placement';

// A claim's drivers are those its allocation results name (dra-facts §10), each once, sorted; claims
// naming one driver are answered without the set and cache the others use: both held to the plain
// definition on random results (no results, one driver repeated, several, empty and missing names).

const DRIVERS = ['gpu.example.com', 'nic.example.com', 'a.example.com', '', undefined, 7];

const claimWith = (results: { driver?: unknown }[] | undefined): ResourceClaim =>
  ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'c', namespace: 'ns' },
    ...(results ? { status: { allocation: { devices: { results } } } } : {}),
  }) as ResourceClaim;

describe('driversOf', () => {
  it('is the sorted set of the results’ non-empty driver names, on 3,000 random claims', () => {
    const r = createRandom(42);
    let several = 0;
    let one = 0;
    for (let i = 0; i < 3000; i++) {
      const results = r.chance(0.1) ? undefined : Array.from({ length: r.int(5) }, () => (r.chance(0.1) ? {} : { driver: r.pick(DRIVERS) }));
      const names = (results ?? []).map((x) => x.driver).filter((d): d is string => typeof d === 'string' && d !== '');
      const expected = [...new Set(names)].sort();
      const claim = claimWith(results);
      expect(driversOf(claim)).toEqual(expected);
      // Asked again (cached or not), the same answer.
      expect(driversOf(claim)).toEqual(expected);
      if (expected.length > 1) several++;
      if (expected.length === 1) one++;
    }
    expect(several).toBeGreaterThan(300);
    expect(one).toBeGreaterThan(300);
  });
});
