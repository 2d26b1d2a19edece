import { describe, expect, it } from 'vitest';
import type { PolicyRule, Subject } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { clusterRole, crb, Group, rb, role, SA, stateOf, User } from './__fixtures__/builders';
import { createAuthzEngine } from './authz-engine';
import type { AuthorizerName } from './types';

// whoCanRbacSubjects must be whoCan's RBAC entries, subject by subject and in the same order, for
// every authorizer chain (an AlwaysAllow or AlwaysDeny before RBAC ends the chain there): checked on
// random RBAC, including subjects bound several times and users named like nodes.

const GROUPS = ['', 'authentication.k8s.io', '*'];
const RESOURCES = ['users', 'groups', 'serviceaccounts', 'nodes', 'nodes/status', '*'];
const VERBS = ['impersonate', 'impersonate:user-info', 'update', '*'];
const NSS = ['a', 'b'];
const CHAINS: AuthorizerName[][] = [['Node', 'RBAC'], ['RBAC'], ['Node', 'AlwaysDeny', 'RBAC'], ['AlwaysAllow', 'RBAC'], ['Node']];

describe('whoCanRbacSubjects', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`equals the subjects of whoCan's RBAC entries, in order (seed ${seed})`, () => {
      const r = createRandom(900 + seed);
      const some = <T>(list: readonly T[], max: number) => [...new Set(Array.from({ length: 1 + r.int(max) }, () => r.pick(list)))];
      const rule = (): PolicyRule => ({
        apiGroups: some(GROUPS, 2),
        resources: some(RESOURCES, 2),
        verbs: some(VERBS, 2),
        ...(r.chance(0.3) ? { resourceNames: ['x'] } : {}),
      });
      const rules = () => Array.from({ length: 1 + r.int(3) }, rule);
      const subjects = (): Subject[] =>
        Array.from({ length: 1 + r.int(3) }, () =>
          r.pick([Group('g'), Group('system:masters'), User('alice'), User('system:node:n1'), User('system:serviceaccount:a:x'), SA('a', 'x'), SA('b', 'y')]),
        );
      const clusterRoles = Array.from({ length: 6 }, (_, i) => clusterRole(`c${i}`, rules()));
      const roles = NSS.map((ns, i) => role(ns, `r${i}`, rules()));
      const state = stateOf({
        clusterRoles,
        roles,
        clusterRoleBindings: Array.from({ length: 5 }, (_, i) => crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, subjects())),
        roleBindings: Array.from({ length: 6 }, (_, i) => {
          const ns = r.pick(NSS);
          const roleRef = r.chance(0.4)
            ? { kind: 'Role', name: roles[NSS.indexOf(ns)].metadata.name }
            : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
          return rb(ns, `rb${i}`, roleRef, subjects());
        }),
      });
      for (const chain of CHAINS) {
        const engine = createAuthzEngine(state, { chain });
        for (const group of GROUPS.filter((g) => g !== '*'))
          for (const combined of RESOURCES.filter((x) => x !== '*'))
            for (const verb of VERBS.filter((v) => v !== '*'))
              for (const namespace of ['', ...NSS])
                for (const name of ['', 'x', 'y']) {
                  const [resource, subresource = ''] = combined.split('/');
                  const query = { resource: { verb, group, resource, subresource, namespace, name } };
                  const expected = engine
                    .whoCan(query)
                    .filter((e) => e.via === 'rbac')
                    .map((e) => e.subject);
                  expect(engine.whoCanRbacSubjects(query), `${chain} ${verb} ${group}/${combined} ${namespace}/${name}`).toStrictEqual(expected);
                }
      }
    });
  }
});
