import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, rb, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { ResourceAttributes, UserInfo } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Subject } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { holderEngine, type RbacChanges } from './holder-engine';
import { randomFixRoles } from './__fixtures__/random-fix-roles';

// The engine after a fix, built from the bindings that name the fix's users (found through an
// inverted index of the original engine's bindings) and the roles they point at, must decide every
// request of those users as an engine built on the whole cluster with the changes applied, with the
// same reason (the same binding and role allow it). Checked on random RBAC (aggregated roles included)
// and random changes to roles, bindings and new bindings: a changed binding or role must take the place
// of the state's object of its namespace and name, which the scoped engine finds without string keys.

const NSS = ['a', 'b', 'c'];
const GROUPS = ['team-1', 'team-2', 'system:authenticated'];
const RESOURCES = ['pods', 'resourceclaims', 'resourceslices', 'nodes/status', '*'];
const VERBS = ['get', 'create', 'update', '*'];

const replaced = <T extends { metadata: { name: string; namespace?: string } }>(list: readonly T[], changed: readonly T[]) => {
  const key = (o: T) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  const byKey = new Map(changed.map((o) => [key(o), o]));
  const kept = list.map((o) => byKey.get(key(o)) ?? o);
  const known = new Set(list.map(key));
  return [...kept, ...changed.filter((o) => !known.has(key(o)))];
};

function applied(state: ClusterState, c: RbacChanges): ClusterState {
  return {
    ...state,
    clusterRoles: replaced(state.clusterRoles, c.clusterRoles),
    roles: replaced(state.roles, c.roles),
    clusterRoleBindings: replaced(state.clusterRoleBindings, c.clusterRoleBindings),
    roleBindings: replaced(state.roleBindings, c.roleBindings),
  };
}

describe('holderEngine', () => {
  let allowedSeen = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`decides the fix's users as a whole engine with the changes applied (seed ${seed})`, () => {
      const r = createRandom(3100 + seed);
      const { rules, tier, clusterRoles, roles } = randomFixRoles(r, { namespaces: NSS, resources: RESOURCES, verbs: VERBS });
      const users: UserInfo[] = [
        { name: 'alice', groups: [r.pick(GROUPS), 'system:authenticated'] },
        serviceAccountUser(r.pick(NSS), 'app'),
        { name: 'bob', groups: ['system:authenticated'] },
      ];
      const subject = (): Subject =>
        r.pick([User('alice'), User('bob'), User('carol'), Group(r.pick(GROUPS)), SA(r.pick(NSS), 'app'), SA(r.pick(NSS), 'other')]);
      const subjects = () => Array.from({ length: 1 + r.int(3) }, subject);
      const clusterRef = () => ({ kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name });
      const state = stateOf({
        clusterRoles,
        roles,
        clusterRoleBindings: Array.from({ length: 5 }, (_, i) => crb(`crb${i}`, clusterRef(), subjects())),
        roleBindings: Array.from({ length: 10 }, (_, i) => {
          const ns = r.pick(NSS);
          return rb(ns, `rb${i}`, r.chance(0.4) ? { kind: 'Role', name: `r${r.int(2)}` } : clusterRef(), subjects());
        }),
      });
      const engine = createAuthzEngine(state);
      // Several fixes on one engine, as in an analysis: what holderEngine keeps per engine is read again.
      for (let fix = 0; fix < 3; fix++) {
        const changes: RbacChanges = {
          clusterRoles: r.chance(0.7) ? [clusterRole(r.pick(clusterRoles).metadata.name, rules(), tier())] : [],
          roles: r.chance(0.5) ? [role(r.pick(NSS), `r${r.int(2)}`, rules())] : [],
          clusterRoleBindings: r.chance(0.5) ? [crb(`crb${r.int(6)}`, clusterRef(), subjects())] : [],
          roleBindings: r.chance(0.5) ? [rb(r.pick(NSS), `rb${r.int(12)}`, clusterRef(), subjects())] : [],
        };
        const asked = users.filter((_, i) => i === fix || r.chance(0.6));
        const scoped = holderEngine(engine, asked, changes);
        const whole = createAuthzEngine(applied(state, changes));
        for (const user of asked)
          for (const resource of RESOURCES.filter((x) => x !== '*'))
            for (const verb of VERBS.filter((v) => v !== '*'))
              for (const namespace of ['', ...NSS]) {
                const [res, subresource = ''] = resource.split('/');
                const group = res === 'resourceclaims' || res === 'resourceslices' ? 'resource.k8s.io' : '';
                const attrs: ResourceAttributes = { verb, group, resource: res, subresource, namespace, name: 'x' };
                const expected = whole.authorize({ user, resource: attrs });
                // The reason too: the same binding and role allow it (the holder's bindings keep the whole index's order).
                expect(scoped.authorize({ user, resource: attrs }).reason, `${user.name} ${verb} ${resource} in ${namespace}`).toBe(expected.reason);
                if (expected.allowed) allowedSeen++;
              }
      }
    });
  }
  it('was checked on requests some of which are allowed', () => expect(allowedSeen).toBeGreaterThan(100));
});

// The scoped engine reads the bindings that name the fix's users (found through the engine's own
// subject indexes, gathered by username and group name): exactly those of the plain reading, which
// tests every subject of every binding, in the index's order. A User written as a service account's
// username names that service account.
describe('holderEngine bindings', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`reads exactly the bindings naming the users, in the index's order (seed ${seed})`, () => {
      const r = createRandom(3300 + seed);
      const pool: Subject[] = [
        User('alice'),
        User('bob'),
        User('system:serviceaccount:a:app'),
        Group('team-1'),
        Group('system:authenticated'),
        Group('system:serviceaccounts'),
        ...NSS.flatMap((ns) => [SA(ns, 'app'), SA(ns, 'other')]),
      ];
      const clusterRoles = [clusterRole('c0', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }])];
      const ref = { kind: 'ClusterRole', name: 'c0' };
      const subjects = () => Array.from({ length: 1 + r.int(3) }, () => r.pick(pool));
      const state = stateOf({
        clusterRoles,
        clusterRoleBindings: Array.from({ length: 1 + r.int(6) }, (_, i) => crb(`crb${i}`, ref, subjects())),
        roleBindings: Array.from({ length: 1 + r.int(20) }, (_, i) => rb(r.pick(NSS), `rb${r.int(40)}-${i}`, ref, subjects())),
      });
      const engine = createAuthzEngine(state);
      const candidates: UserInfo[] = [
        { name: 'alice', groups: ['team-1', 'system:authenticated'] },
        { name: 'bob', groups: ['system:authenticated'] },
        serviceAccountUser('a', 'app'),
        serviceAccountUser(r.pick(NSS), 'other'),
      ];
      const names = (u: UserInfo, s: { kind: string; name: string; namespace?: string }) =>
        s.kind === 'Group' ? u.groups.includes(s.name) : (s.kind === 'User' ? s.name : `system:serviceaccount:${s.namespace}:${s.name}`) === u.name;
      // Several fixes on one engine: the positions kept per group and the objects kept per binding are read again.
      for (let fix = 0; fix < 4; fix++) {
        const users = candidates.filter(() => r.chance(0.5));
        const expected = engine.rbac.bindings.filter((b) => b.subjects.some((s) => users.some((u) => names(u, s)))).map((b) => b.ref);
        expect(holderEngine(engine, users, { clusterRoles: [], roles: [], clusterRoleBindings: [], roleBindings: [] }).rbac.bindings.map((b) => b.ref)).toEqual(
          expected,
        );
      }
    });
  }
});
