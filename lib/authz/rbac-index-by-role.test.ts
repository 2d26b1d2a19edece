import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { crb, Group, rb, SA, User } from './__fixtures__/builders';
import { randomRbacState, SMALL_RBAC } from './__fixtures__/random-rbac';
import { buildRbacIndex, type IndexedBinding, type RbacIndex } from './rbac-index';

// An index's bindings by role are filled on first read, all three maps in one pass. Held here to
// the plain construction from the index's sorted bindings (those whose role resolves, by its key;
// the ClusterRoleBindings apart; the RoleBindings by namespace), whichever map and way is read first.

const name = (b: IndexedBinding) => `${b.ref.kind}/${b.ref.namespace ?? ''}/${b.ref.name}`;
const names = (list: readonly IndexedBinding[] | undefined) => list?.map(name);

function plain(index: RbacIndex) {
  const all = new Map<string, string[]>();
  const cluster = new Map<string, string[]>();
  const byNs = new Map<string, Map<string, string[]>>();
  for (const b of index.bindings) {
    if (!b.role) continue;
    all.set(b.role.key, [...(all.get(b.role.key) ?? []), name(b)]);
    if (b.ref.kind === 'ClusterRoleBinding') cluster.set(b.role.key, [...(cluster.get(b.role.key) ?? []), name(b)]);
    else {
      const m = byNs.get(b.role.key) ?? new Map<string, string[]>();
      byNs.set(b.role.key, m);
      m.set(b.ref.namespace ?? '', [...(m.get(b.ref.namespace ?? '') ?? []), name(b)]);
    }
  }
  return { all: [...all], cluster: [...cluster], byNs: [...byNs].map(([k, m]) => [k, [...m]]) };
}

function read(index: RbacIndex) {
  return {
    all: [...index.bindingsByRole].map(([k, v]) => [k, names(v)]),
    cluster: [...index.clusterBindingsByRole].map(([k, v]) => [k, names(v)]),
    byNs: [...index.roleBindingsByRole].map(([k, m]) => [k, [...m].map(([ns, v]) => [ns, names(v)])]),
  };
}

type AnyMap = Map<string, unknown>;
const FIRST_READS: [string, (index: RbacIndex) => AnyMap, (m: AnyMap, keys: string[]) => unknown][] = [
  ['get', (i) => i.bindingsByRole, (m, keys) => keys.map((k) => m.get(k) !== undefined)],
  ['has', (i) => i.clusterBindingsByRole, (m, keys) => keys.map((k) => m.has(k))],
  ['size', (i) => i.roleBindingsByRole, (m) => m.size],
  ['keys', (i) => i.roleBindingsByRole, (m) => [...m.keys()]],
  ['values', (i) => i.bindingsByRole, (m) => [...m.values()].length],
  ['entries', (i) => i.clusterBindingsByRole, (m) => [...m.entries()].length],
  [
    'forEach',
    (i) => i.roleBindingsByRole,
    (m) => {
      let n = 0;
      m.forEach(() => n++);
      return n;
    },
  ],
];

describe('bindings by role filled on first read', () => {
  for (let seed = 1; seed <= 42; seed++) {
    const [how, pick, first] = FIRST_READS[seed % FIRST_READS.length];
    it(`equal the plain construction, first read by ${how} (seed ${seed})`, () => {
      const r = createRandom(2600 + seed);
      const state = randomRbacState(r, {
        ...SMALL_RBAC,
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
        subjects: [User('alice'), Group('team'), SA('ns1', 'app'), SA(undefined, 'bare')],
        namespaces: ['ns1', 'ns2', 'ns3'],
      });
      // Bindings whose role does not resolve are in no map.
      state.roleBindings.push(rb('ns2', 'rb-missing', { kind: 'Role', name: 'missing' }, [User('bob')]));
      state.clusterRoleBindings.push(crb('crb-role', { kind: 'Role', name: 'r0' }, [User('bob')]));
      const index = buildRbacIndex(state);
      const keys = [...index.clusterRoles.values(), ...[...index.roles.values()].flatMap((m) => [...m.values()])].map((role) => role.key);
      // The first read sees the maps filled: what it answers equals the same read of the plain maps.
      const answer = first(pick(index), [...keys, 'ClusterRole/none']);
      const expected = plain(index);
      const plainMap = (m: [string, unknown][]) => new Map(m);
      const plainOf = how === 'get' || how === 'values' ? expected.all : how === 'has' || how === 'entries' ? expected.cluster : expected.byNs;
      expect(answer).toEqual(first(plainMap(plainOf as [string, unknown][]), [...keys, 'ClusterRole/none']));
      expect(read(index)).toEqual(expected);
    });
  }
});
