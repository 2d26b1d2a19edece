import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { mergedOnce, sortedOnce } from './sorted-positions';

// Merging sorted lists one after another (a fix's own bindings, then each group's) must give what
// sorting all their positions together and dropping repeats gives. Checked on random lists that share
// positions, empty ones included.

describe('mergedOnce', () => {
  for (let seed = 1; seed <= 200; seed++) {
    it(`merges as sortedOnce of all the positions (seed ${seed})`, () => {
      const r = createRandom(4400 + seed);
      const lists = Array.from({ length: 1 + r.int(5) }, () => sortedOnce(Array.from({ length: r.int(12) }, () => r.int(30))));
      let merged: readonly number[] = [];
      for (const list of lists) merged = mergedOnce(merged, list);
      expect(merged).toEqual(sortedOnce(lists.flat()));
    });
  }
});

describe('sortedOnce', () => {
  it('sorts numerically and keeps each position once', () => {
    expect(sortedOnce([10, 2, 33, 2, 10, 1])).toEqual([1, 2, 10, 33]);
  });
});
