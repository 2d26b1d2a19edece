import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { NamePositions, nameHash } from './name-positions';
import type { KubeObject } from './types';

function object(namespace: string, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: namespace ? { name, namespace } : { name } } as KubeObject;
}

/** The list and the duplicates' positions a plain Map keyed by namespace and name gives. */
function byMap(names: readonly [string, string][]) {
  const list: KubeObject[] = [];
  const at = new Map<string, number>();
  const found: number[] = [];
  for (const [namespace, name] of names) {
    const key = JSON.stringify([namespace, name]);
    const previous = at.get(key);
    found.push(previous ?? -1);
    if (previous === undefined) {
      at.set(key, list.length);
      list.push(object(namespace, name));
    } else list[previous] = object(namespace, name);
  }
  return { list, found };
}

function byTable(names: readonly [string, string][]) {
  const list: KubeObject[] = [];
  const positions = new NamePositions((at, ns, name) => list[at].metadata.name === name && (list[at].metadata.namespace ?? '') === ns);
  const found: number[] = [];
  for (const [namespace, name] of names) {
    const known = positions.find(namespace, name);
    const previous = positions.findOrAdd(namespace, name, list.length);
    expect(known).toBe(previous);
    found.push(previous);
    if (previous === -1) list.push(object(namespace, name));
    else list[previous] = object(namespace, name);
  }
  return { list, found };
}

describe('NamePositions', () => {
  it('finds what a Map of namespace and name finds, through growth and hash collisions', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rnd = createRandom(seed);
      // Few letters and short names: many repeats, names that are prefixes of others, and '/' in both parts.
      const part = (max: number) => Array.from({ length: rnd.int(max) }, () => rnd.pick(['a', 'b', '/', '-', 'é'])).join('');
      const names: [string, string][] = Array.from({ length: 200 + rnd.int(6000) }, () => [rnd.chance(0.2) ? '' : part(3), part(6) || 'x']);
      const expected = byMap(names);
      const got = byTable(names);
      expect(got.found).toEqual(expected.found);
      expect(got.list).toEqual(expected.list);
      expect(got.found.some((p) => p !== -1)).toBe(true);
    }
  });

  it('tells apart names whose hashes collide', () => {
    /** Two distinct texts t, u with nameHash(pick(t)) === nameHash(pick(u)), found by brute force (birthday bound ~2^16). */
    const collision = (pick: (text: string) => [string, string]): [string, string] => {
      const seen = new Map<number, string>();
      for (let i = 0; ; i++) {
        const text = `n${i}`;
        const [namespace, name] = pick(text);
        const other = seen.get(nameHash(namespace, name));
        if (other !== undefined) return [other, text];
        seen.set(nameHash(namespace, name), text);
      }
    };
    const [a, b] = collision((ns) => [ns, 'p']);
    expect(nameHash(a, 'p')).toBe(nameHash(b, 'p'));
    expect(
      byTable([
        [a, 'p'],
        [b, 'p'],
        [b, 'p'],
        [a, 'p'],
      ]).found,
    ).toEqual([-1, -1, 1, 0]);
    const [c, d] = collision((name) => ['', name]);
    expect(
      byTable([
        ['', c],
        ['', d],
        ['', d],
        ['', c],
      ]).found,
    ).toEqual([-1, -1, 1, 0]);
  });

  it('tells apart names that join to the same text', () => {
    const names: [string, string][] = [
      ['a', 'bc'],
      ['ab', 'c'],
      ['', 'a/bc'],
      ['a/b', 'c'],
      ['a', 'b/c'],
      ['ab', 'c'],
    ];
    expect(byTable(names).found).toEqual([-1, -1, -1, -1, -1, 1]);
  });
});
