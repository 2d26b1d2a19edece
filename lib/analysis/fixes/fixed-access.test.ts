import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, node, pod, rb, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { AuthorizerName, AuthzRequest, UserInfo } from '@/lib/authz/types';
import type { Subject, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { AccessIndex } from '@/lib/analysis/context/access';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { CAPABILITIES } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import { mergeSettings } from '@/lib/analysis/settings';
import { createRandom } from '@/scripts/bench/prng';
import { fixedAccess, todayAllowed } from './fixed-access';
import { holderEngine, noRbacChanges, type RbacChanges } from './holder-engine';
import { holderOf } from './holder';
import { randomFixRoles } from './__fixtures__/random-fix-roles';

// fixedAccess answers a holder's request after a fix from the original engine's index; where it
// answers, it must answer as the holder engine (the plain verification) does. Checked on random RBAC
// (aggregating roles, nested, Roles and ClusterRoles bound by both kinds of binding), random changes to
// roles (rules, labels that an aggregation picks, aggregation rules, new roles), random authorizer
// chains, and requests of the fix's users, of users carrying a group no holder carries, of a node,
// cluster-scoped and namespaced, resource and non-resource.

const NSS = ['a', 'b', 'c'];
const GROUPS = ['team-1', 'team-2', 'system:authenticated'];
const RESOURCES = ['pods', 'resourceclaims', 'resourceslices', 'nodes/status', 'nodes', '*'];
const VERBS = ['get', 'create', 'update', '*'];
const CHAINS: AuthorizerName[][] = [['Node', 'RBAC'], ['RBAC', 'Node'], ['RBAC'], ['AlwaysDeny', 'RBAC'], ['RBAC', 'AlwaysAllow']];
const NODE_USER: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

/** `names`: rules may name resources (resourceNames) and requests name one of these. */
function scenario(seed: number, names?: readonly string[]) {
  const r = createRandom(seed);
  const { rules, tier, clusterRoles, roles } = randomFixRoles(r, {
    namespaces: NSS,
    resources: RESOURCES,
    verbs: VERBS,
    nonResource: true,
    ...(names ? { resourceNames: names } : {}),
  });
  const subject = (): Subject =>
    r.pick([User('alice'), User('bob'), User('system:node:n1'), Group('system:nodes'), Group(r.pick(GROUPS)), Group('outsiders'), SA(r.pick(NSS), 'app')]);
  const subjects = () => Array.from({ length: 1 + r.int(3) }, subject);
  // Bindings may name a role no one defines (c9, r7): a fix may add it.
  const clusterRef = () => ({ kind: 'ClusterRole', name: r.chance(0.1) ? 'c9' : r.pick(clusterRoles).metadata.name });
  const state = stateOf({
    nodes: [node('n1'), node('n2')],
    pods: [pod('a', 'p1', { nodeName: 'n1', serviceAccountName: 'app' })],
    clusterRoles,
    roles,
    clusterRoleBindings: Array.from({ length: 5 }, (_, i) => crb(`crb${i}`, r.chance(0.1) ? { kind: 'Role', name: 'r0' } : clusterRef(), subjects())),
    roleBindings: Array.from({ length: 10 }, (_, i) => {
      const ns = r.pick(NSS);
      return rb(ns, `rb${i}`, r.chance(0.4) ? { kind: 'Role', name: r.chance(0.1) ? 'r7' : `r${r.int(2)}` } : clusterRef(), subjects());
    }),
  });
  const engine = createAuthzEngine(state, { chain: r.pick(CHAINS) });
  const changedClusterRole = () => {
    const name = r.chance(0.15) ? 'c9' : r.pick(clusterRoles).metadata.name;
    if (r.chance(0.15)) return clusterRole(name, rules(), { aggregate: [{ matchLabels: { tier: r.pick(['one', 'two']) } }] });
    return clusterRole(name, rules(), tier());
  };
  const changes = (): RbacChanges => ({
    ...noRbacChanges(),
    clusterRoles: Array.from({ length: r.int(3) }, changedClusterRole),
    roles: Array.from({ length: r.int(3) }, () => role(r.pick(NSS), r.chance(0.15) ? 'r7' : `r${r.int(2)}`, rules())),
  });
  const holders: UserInfo[] = [
    { name: 'alice', groups: [r.pick(GROUPS), 'system:authenticated'] },
    serviceAccountUser(r.pick(NSS), 'app', r.chance(0.5) ? 'n1' : undefined),
    { name: 'bob', groups: ['system:authenticated'] },
    NODE_USER,
  ];
  const requests = (user: UserInfo): AuthzRequest[] => {
    const out: AuthzRequest[] = [{ user, nonResource: { verb: 'get', path: r.pick(['/healthz', '/metrics']) } }];
    for (const resource of RESOURCES.filter((x) => x !== '*'))
      for (const verb of VERBS.filter((v) => v !== '*'))
        for (const namespace of ['', ...NSS]) {
          const [res, subresource = ''] = resource.split('/');
          const group = res === 'resourceclaims' || res === 'resourceslices' ? 'resource.k8s.io' : '';
          const name = res === 'nodes' ? r.pick(['n1', 'n2']) : names ? r.pick(names) : 'x';
          out.push({ user, resource: { verb, group, resource: res, subresource, namespace: res === 'nodes' ? '' : namespace, name } });
        }
    return out;
  };
  return { r, state, engine, changes, holders, requests };
}

describe('fixedAccess', () => {
  const seen = { decided: 0, allowed: 0, undecided: 0, outsiders: 0 };
  for (let seed = 1; seed <= 60; seed++) {
    it(`answers as the holder engine where it answers (seed ${seed})`, () => {
      const { r, engine, changes, holders, requests } = scenario(7100 + seed);
      // Several fixes on one engine, as in an analysis.
      for (let fix = 0; fix < 3; fix++) {
        const c = changes();
        const users = holders.filter((_, i) => i === fix || r.chance(0.5));
        const fast = fixedAccess(engine, users, c);
        expect(fast).toBeDefined();
        const plain = holderEngine(engine, users, c);
        // A user carrying a group no holder carries is not the fast path's to answer.
        const outsider: UserInfo = { name: users[0].name, groups: [...users[0].groups, 'outsiders'] };
        expect(fast!.allowed(requests(outsider)[1])).toBeUndefined();
        seen.outsiders++;
        // Each user, then the same name with fewer groups (answered apart, though asked after it).
        const asked = [...users, ...users.map((u) => ({ name: u.name, groups: u.groups.slice(1) }))];
        for (const user of asked)
          for (const request of requests(user)) {
            const answer = fast!.allowed(request);
            if (answer === undefined) {
              seen.undecided++;
              continue;
            }
            seen.decided++;
            if (answer) seen.allowed++;
            const what = request.resource
              ? `${request.resource.verb} ${request.resource.resource} in "${request.resource.namespace}"`
              : request.nonResource!.path;
            expect(answer, `${user.name} ${what}`).toBe(plain.authorize(request).allowed);
          }
      }
    });
  }
  it('decided most requests, many of them allowed, and left some to the holder engine', () => {
    expect(seen.decided).toBeGreaterThan(4 * seen.undecided);
    expect(seen.allowed).toBeGreaterThan(seen.decided / 10);
    expect(seen.undecided).toBeGreaterThan(0);
  });

  it('has no answer for a fix that changes a binding, or on a state with two roles or bindings of one name', () => {
    const { engine, holders } = scenario(7000);
    const binding = rb('a', 'rb0', { kind: 'ClusterRole', name: 'c0' }, [User('alice')]);
    const fix = { ...noRbacChanges(), clusterRoles: [clusterRole('c0', [])] };
    expect(fixedAccess(engine, holders, { ...noRbacChanges(), roleBindings: [binding] })).toBeUndefined();
    expect(fixedAccess(createAuthzEngine(stateOf({ roleBindings: [binding] })), holders, fix)).toBeDefined();
    const ref = { kind: 'ClusterRole', name: 'c1' };
    const notPlain = [
      stateOf({ roleBindings: [binding, rb('b', 'rb1', ref, []), rb('a', 'rb0', ref, [User('bob')])] }),
      stateOf({ clusterRoleBindings: [crb('x', ref, []), crb('y', ref, []), crb('x', ref, [User('bob')])] }),
      stateOf({ clusterRoles: [clusterRole('c1', []), clusterRole('c1', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }])] }),
      stateOf({ roles: [role('a', 'r0', []), role('a', 'r0', [])] }),
      stateOf({ roleBindings: [{ ...binding, metadata: { name: 'rb0' } }] }),
    ];
    for (const state of notPlain) expect(fixedAccess(createAuthzEngine(state), holders, fix)).toBeUndefined();
  });
});

// Without changes it is today's answer: the walk reads the original index as the engine's RBAC authorizer does.
describe('fixedAccess without changes', () => {
  let allowed = 0;
  for (let seed = 1; seed <= 30; seed++) {
    it(`answers as the engine (seed ${seed})`, () => {
      const { engine, holders, requests } = scenario(7500 + seed);
      const today = fixedAccess(engine, holders, noRbacChanges())!;
      for (const user of holders)
        for (const request of requests(user)) {
          const expected = engine.authorize(request).allowed;
          if (expected) allowed++;
          expect(today.allowed(request)).toBe(expected);
        }
    });
  }
  it('was checked on requests some of which are allowed', () => expect(allowed).toBeGreaterThan(500));
});

// mayHold false must mean what verifyProposal then skips asking: no holder holds any of the
// capabilities on the holder engine's cluster (capability-holders on an AccessIndex of it).
describe('FixedAccess.mayHold', () => {
  const seen = { none: 0, held: 0 };
  const HOLDERS: SubjectRef[] = [
    { kind: 'User', name: 'alice' },
    { kind: 'User', name: 'bob' },
    { kind: 'ServiceAccount', namespace: 'a', name: 'app' },
    { kind: 'ServiceAccount', namespace: 'b', name: 'app' },
    { kind: 'Group', name: 'team-1' },
    { kind: 'Group', name: 'system:nodes' },
  ];
  for (let seed = 1; seed <= 60; seed++) {
    it(`is false only when no holder holds a capability after the fix (seed ${seed})`, () => {
      const { r, state, engine, changes } = scenario(7300 + seed);
      const ctx = buildAnalysisContext(state, engine, mergeSettings(undefined));
      for (let fix = 0; fix < 3; fix++) {
        const c = changes();
        const holders = HOLDERS.filter((_, i) => i === fix || r.chance(0.4)).map((s) => holderOf(ctx, s));
        const caps = CAPABILITIES.filter(() => r.chance(0.3));
        const fast = fixedAccess(
          engine,
          holders.map((h) => h.user),
          c,
        )!;
        const plain = holderEngine(
          engine,
          holders.map((h) => h.user),
          c,
        );
        const scoped = Object.create(ctx, { engine: { value: plain }, access: { value: new AccessIndex(plain) } }) as AnalysisContext;
        const held = holders.some((h) => caps.some((cap) => holdingOf(scoped, cap, h.subject)));
        if (held) seen.held++;
        if (!fast.mayHold(caps.flatMap((cap) => cap.questions))) {
          seen.none++;
          expect(held).toBe(false);
        }
      }
    });
  }
  it('was false for many fixes, and checked against fixes whose holders hold a capability', () => {
    expect(seen.none).toBeGreaterThan(20);
    expect(seen.held).toBeGreaterThan(20);
  });
});

// A holder asks many requests with its one user object, of a few verbs and resources, each of many
// names (CLAIM003: update and patch of every namespace): allowed reads what it knows of the user once
// per user object, and the ClusterRoleBindings' rules once per verb, group and resource (leaving their
// resourceNames to each request). Checked with rules limited to names, users asked in turns (each
// object again after another's), copies of a user object and the same name with fewer groups.
describe('FixedAccess on many requests of one user object', () => {
  const NAMES = ['x', 'y', 'z'];
  const seen = { decided: 0, byName: 0, today: 0 };
  for (let seed = 1; seed <= 25; seed++) {
    it(`answers as the holder engine and, without changes, as the engine (seed ${seed})`, () => {
      const { r, engine, changes, holders, requests } = scenario(7700 + seed, NAMES);
      for (let fix = 0; fix < 3; fix++) {
        const c = changes();
        const users = holders.filter((_, i) => i === fix || r.chance(0.5));
        const fast = fixedAccess(engine, users, c)!;
        const today = fixedAccess(engine, users, noRbacChanges())!;
        const plain = holderEngine(engine, users, c);
        const asked = [...users, ...users.map((u) => ({ ...u })), ...users.map((u) => ({ name: u.name, groups: u.groups.slice(1) }))];
        for (let turn = 0; turn < 2; turn++)
          for (const user of r.shuffled(asked)) {
            // Each request of every name, one after the other, as a holder asks them.
            const answers = new Map<string, Set<boolean>>();
            for (const request of requests(user))
              for (const name of request.resource && request.resource.resource !== 'nodes' ? NAMES : [undefined]) {
                const q: AuthzRequest = name === undefined ? request : { user, resource: { ...request.resource!, name } };
                const expected = engine.authorize(q).allowed;
                expect(today.allowed(q)).toBe(expected);
                seen.today++;
                const answer = fast.allowed(q);
                if (answer === undefined) continue;
                seen.decided++;
                expect(answer, `${user.name} ${JSON.stringify(q.resource ?? q.nonResource)}`).toBe(plain.authorize(q).allowed);
                if (q.resource) {
                  const key = `${q.resource.verb} ${q.resource.group} ${q.resource.resource} ${q.resource.namespace}`;
                  let set = answers.get(key);
                  if (!set) answers.set(key, (set = new Set()));
                  set.add(answer);
                }
              }
            for (const set of answers.values()) if (set.size === 2) seen.byName++;
          }
      }
    });
  }
  it('decided many requests, some of them allowed for one name and refused for another', () => {
    expect(seen.decided).toBeGreaterThan(10_000);
    expect(seen.byName).toBeGreaterThan(100);
    expect(seen.today).toBeGreaterThan(seen.decided);
  });
});

// todayAllowed is the engine's answer: read by fixedAccess on a plain state, by the engine on any other.
describe('todayAllowed', () => {
  it('answers as the engine on plain states and on states with two roles or bindings of one name', () => {
    let asked = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const { engine, holders, requests } = scenario(7900 + seed, ['x', 'y']);
      const allowed = todayAllowed(engine, holders.slice(0, 2));
      for (const user of holders) for (const request of requests(user)) expect(allowed(request)).toBe(engine.authorize(request).allowed);
      asked++;
    }
    const ref = { kind: 'ClusterRole', name: 'c1' };
    const rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];
    const notPlain = createAuthzEngine(
      stateOf({
        clusterRoles: [clusterRole('c1', rules)],
        roleBindings: [rb('a', 'rb0', ref, [User('alice')]), rb('a', 'rb0', ref, [User('bob')])],
      }),
    );
    const users: UserInfo[] = [
      { name: 'alice', groups: [] },
      { name: 'bob', groups: [] },
    ];
    expect(fixedAccess(notPlain, users, noRbacChanges())).toBeUndefined();
    const allowed = todayAllowed(notPlain, users);
    for (const user of users) {
      const request: AuthzRequest = { user, resource: { verb: 'get', group: '', resource: 'pods', subresource: '', namespace: 'a', name: 'p' } };
      expect(allowed(request)).toBe(notPlain.authorize(request).allowed);
      expect(allowed(request)).toBe(true);
    }
    expect(asked).toBe(20);
  });
});
