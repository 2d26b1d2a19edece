import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { clusterRole, role, stateOf } from './__fixtures__/builders';
import { bucketKey, buildRbacIndex, type CompiledRole, type RbacIndex } from './rbac-index';

// The rule buckets are filled on first read, in one pass that puts a rule in a bucket once even when
// it lists a group or resource twice. Held here to the plain construction (every rule of every role
// in the index's order, a Set of the keys seen per rule, wildcard rules apart) on random rules with
// repeated groups and resources, whichever way the buckets are first read.

const GROUPS = ['', 'apps', 'resource.k8s.io', '*'];
const RESOURCES = ['pods', 'pods/status', 'nodes', 'resourceclaims', 'resourceclaims/status', '*', '*/status'];
const VERBS = ['get', 'update', '*'];

type Plain = { ruleBuckets: Map<string, string[]>; wildcardBuckets: Map<string, string[]>; nonResourceRules: string[] };

const refName = (role: CompiledRole, ruleIndex: number) => `${role.key} #${ruleIndex}`;

function plainBuckets(index: RbacIndex): Plain {
  const out: Plain = { ruleBuckets: new Map(), wildcardBuckets: new Map(), nonResourceRules: [] };
  const roles = [...index.clusterRoles.values(), ...[...index.roles.values()].flatMap((m) => [...m.values()])];
  for (const role of roles)
    role.rules.forEach(({ rule }, i) => {
      if (rule.nonResourceURLs && rule.nonResourceURLs.length > 0) out.nonResourceRules.push(refName(role, i));
      if (!rule.resources?.length || !rule.apiGroups?.length) return;
      const wildcard = rule.apiGroups.includes('*') || rule.resources.some((r) => r === '*' || r.startsWith('*/'));
      const seen = new Set<string>();
      for (const g of rule.apiGroups)
        for (const r of rule.resources) {
          const key = bucketKey(g, r);
          if (seen.has(key)) continue;
          seen.add(key);
          const target = wildcard ? out.wildcardBuckets : out.ruleBuckets;
          target.set(key, [...(target.get(key) ?? []), refName(role, i)]);
        }
    });
  return out;
}

const named = (m: Map<string, { role: CompiledRole; ruleIndex: number }[]>) =>
  new Map([...m].map(([k, refs]) => [k, refs.map((r) => refName(r.role, r.ruleIndex))]));

type Refs = { role: CompiledRole; ruleIndex: number }[] | string[];
const names = (refs: Refs | undefined) => refs?.map((x) => (typeof x === 'string' ? x : refName(x.role, x.ruleIndex)));

// The ways a caller may read the buckets first, each answered from the buckets in names: the first
// read must see them filled.
const FIRST_READS: [string, (m: Map<string, Refs>, keys: string[]) => unknown][] = [
  ['get', (m, keys) => keys.map((k) => names(m.get(k)))],
  ['has', (m, keys) => keys.map((k) => m.has(k))],
  ['size', (m) => m.size],
  ['iteration', (m) => [...m].map(([k, v]) => [k, names(v)])],
  ['keys', (m) => [...m.keys()]],
  ['values', (m) => [...m.values()].map(names)],
  ['entries', (m) => [...m.entries()].map(([k, v]) => [k, names(v)])],
  [
    'forEach',
    (m) => {
      const out: unknown[] = [];
      m.forEach((v, k) => out.push([k, names(v)]));
      return out;
    },
  ],
];

describe('rule buckets filled on first read', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const [how, read] = FIRST_READS[seed % FIRST_READS.length];
    it(`equal the plain construction, first read by ${how} (seed ${seed})`, () => {
      const r = createRandom(900 + seed);
      // Repeats allowed: a rule may list a group or a resource twice.
      const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
      const rule = (): PolicyRule =>
        r.chance(0.1)
          ? { nonResourceURLs: ['/healthz'], verbs: ['get'] }
          : { apiGroups: r.chance(0.05) ? [] : some(GROUPS, 3), resources: some(RESOURCES, 4), verbs: some(VERBS, 2) };
      const rules = () => Array.from({ length: r.int(5) }, rule);
      const index = buildRbacIndex(
        stateOf({
          clusterRoles: Array.from({ length: 6 }, (_, i) => clusterRole(`c${i}`, rules())),
          roles: ['a', 'b'].flatMap((ns) => Array.from({ length: 3 }, (_, i) => role(ns, `r${i}`, rules()))),
        }),
      );
      const plain = plainBuckets(index);
      const keys = [...plain.ruleBuckets.keys(), ...plain.wildcardBuckets.keys(), bucketKey('none', 'none')];
      const wildcardFirst = Math.floor(seed / FIRST_READS.length) % 2 === 0;
      const [first, second] = wildcardFirst ? (['wildcardBuckets', 'ruleBuckets'] as const) : (['ruleBuckets', 'wildcardBuckets'] as const);
      expect(read(index[first], keys)).toEqual(read(plain[first], keys));
      expect(read(index[second], keys)).toEqual(read(plain[second], keys));
      expect(named(index.ruleBuckets)).toEqual(plain.ruleBuckets);
      expect(named(index.wildcardBuckets)).toEqual(plain.wildcardBuckets);
      expect(index.nonResourceRules.map((x) => refName(x.role, x.ruleIndex))).toEqual(plain.nonResourceRules);
      expect(index.ruleBuckets.size + index.wildcardBuckets.size).toBeGreaterThan(0);
    });
  }
});
