import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { clusterRole, role, stateOf } from './__fixtures__/builders';
import { aggregateClusterRoles } from './aggregate-cluster-roles';
import { buildRbacIndex } from './rbac-index';

// The entry of a role's own rule is made once per rule and shared by every index built after: each
// index must still hold exactly the plain entries of the rules its roles hold then, in order, also
// when a rules list was changed in place between two builds.

const RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] },
  { nonResourceURLs: ['/healthz'], verbs: ['get'] },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] },
];

describe('own rules shared between indexes', () => {
  for (let seed = 1; seed <= 60; seed++) {
    it(`every index holds the plain entries of its roles' rules (seed ${seed})`, () => {
      const r = createRandom(3300 + seed);
      const rules = () => Array.from({ length: r.int(4) }, () => ({ ...r.pick(RULES) }));
      const clusterRoles = Array.from({ length: 1 + r.int(4) }, (_, i) => clusterRole(`c${i}`, rules()));
      const roles = Array.from({ length: 1 + r.int(4) }, (_, i) => role(r.pick(['ns1', 'ns2']), `r${i}`, rules()));
      const state = stateOf({ clusterRoles, roles });
      const check = () => {
        const index = buildRbacIndex(state);
        for (const cr of clusterRoles) expect(index.clusterRoles.get(cr.metadata.name)!.rules).toEqual((cr.rules ?? []).map((rule) => ({ rule })));
        for (const cr of clusterRoles) expect(index.clusterRoles.get(cr.metadata.name)!.rules.every((e, i) => e.rule === cr.rules![i])).toBe(true);
        for (const ro of roles) {
          const got = index.roles.get(ro.metadata.namespace!)!.get(ro.metadata.name)!.rules;
          // A later role of the same namespace and name replaces an earlier one.
          const last = roles.filter((x) => x.metadata.namespace === ro.metadata.namespace && x.metadata.name === ro.metadata.name).at(-1)!;
          expect(got).toEqual((last.rules ?? []).map((rule) => ({ rule })));
        }
        expect(aggregateClusterRoles(clusterRoles).rules).toEqual(
          new Map(clusterRoles.map((cr) => [cr.metadata.name, (cr.rules ?? []).map((rule) => ({ rule }))])),
        );
      };
      check();
      check();
      // Lists changed in place: a rule added, one replaced, one removed.
      for (const x of [...clusterRoles, ...roles]) {
        const list = x.rules!;
        const change = r.int(3);
        if (change === 0) list.push({ ...r.pick(RULES) });
        else if (change === 1 && list.length > 0) list[r.int(list.length)] = { ...r.pick(RULES) };
        else if (list.length > 0) list.pop();
      }
      check();
    });
  }
});
