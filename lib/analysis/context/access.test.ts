import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, rb, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { AccessIndex, applyingKeys, subjectsApplyingTo, type AccessEntry, type AccessQuestion } from './access';
import { canonicalSubject, subjectAppliesTo } from './identities';
import { refKey } from '@/lib/k8s/refs';
import type { PolicyRule, Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { Q } from './questions';

// AccessIndex.whoCan walks the RBAC index itself; here it is checked against engine.authorize, asked
// for every namespace and name that could matter, for each service account of the fixture.

const state = stateOf({
  clusterRoles: [
    clusterRole('driver-any', [{ verbs: ['arbitrary-node:update'], apiGroups: ['resource.k8s.io'], resources: ['*/driver'] }]),
    clusterRole('driver-one', [
      { verbs: ['associated-node:patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'] },
    ]),
    clusterRole('status', [
      { verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
      { verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] },
    ]),
    clusterRole('slices-named', [{ verbs: ['create', 'update'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], resourceNames: ['n1-gpu'] }]),
    clusterRole('binding', [{ verbs: ['patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] }]),
    clusterRole('agg', null, { aggregate: [{ matchLabels: { agg: 'true' } }] }),
    clusterRole('agg-part', [{ verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }], { labels: { agg: 'true' } }),
    clusterRole('star', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
  ],
  roles: [role('team-a', 'local-status', [{ verbs: ['patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }])],
  clusterRoleBindings: [
    crb('driver-any', { kind: 'ClusterRole', name: 'driver-any' }, [SA('drivers', 'a')]),
    crb('slices-named', { kind: 'ClusterRole', name: 'slices-named' }, [SA('drivers', 'b')]),
    crb('agg', { kind: 'ClusterRole', name: 'agg' }, [User('system:serviceaccount:drivers:c')]),
    crb('all-sas', { kind: 'ClusterRole', name: 'driver-one' }, [Group('system:serviceaccounts:team-b')]),
  ],
  roleBindings: [
    rb('team-a', 'status', { kind: 'ClusterRole', name: 'status' }, [SA('team-a', 'q')]),
    rb('team-a', 'local', { kind: 'Role', name: 'local-status' }, [SA('team-a', 'r')]),
    rb('team-a', 'binding', { kind: 'ClusterRole', name: 'binding' }, [SA('team-a', 'q')]),
    rb('team-b', 'star', { kind: 'ClusterRole', name: 'star' }, [SA('team-b', 'admin')]),
  ],
});
const engine = createAuthzEngine(state);
const SAS = [
  ['drivers', 'a'],
  ['drivers', 'b'],
  ['drivers', 'c'],
  ['team-a', 'q'],
  ['team-a', 'r'],
  ['team-b', 'x'],
  ['team-b', 'admin'],
] as const;
const NAMESPACES = ['', 'team-a', 'team-b', 'other'];
const NAMES = ['', 'gpu.example.com', 'n1-gpu', 'anything'];

function bruteForce(q: AccessQuestion, ns: string, name: string): boolean {
  const user = serviceAccountUser(ns, name);
  const namespaces = q.scope === 'cluster' ? [''] : (q.namespaces ?? NAMESPACES.filter((n) => n !== ''));
  const names = q.names === 'any' ? NAMES.filter((n) => n !== '') : q.names === 'unscoped' ? ['anything'] : q.names;
  return q.verbs.some((verb) =>
    namespaces.some((namespace) =>
      names.some((n) => {
        // A request without a name never carries one for create.
        const reqName = verb === 'create' ? '' : n;
        return engine.authorize({ user, resource: { verb, group: q.group, resource: q.resource, subresource: q.subresource ?? '', namespace, name: reqName } })
          .allowed;
      }),
    ),
  );
}

describe('AccessIndex.whoCan', () => {
  const questions: [string, AccessQuestion][] = Object.entries(Q);
  questions.push(['status in team-a only', { ...Q.claimStatus, namespaces: ['team-a'] }]);
  questions.push(['status in team-b only', { ...Q.claimStatus, namespaces: ['team-b'] }]);
  for (const [label, q] of questions) {
    it(`agrees with authorize(): ${label}`, () => {
      const entries = new AccessIndex(engine).whoCan(q).filter((e) => e.via === 'rbac');
      for (const [ns, name] of SAS) {
        const sa = { kind: 'ServiceAccount' as const, namespace: ns, name };
        expect([`${ns}/${name}`, new AccessIndex(engine).entriesFor(entries, sa).length > 0]).toEqual([`${ns}/${name}`, bruteForce(q, ns, name)]);
      }
    });
  }

  it('reports where and for which names, with aggregated grants', () => {
    const status = new AccessIndex(engine).whoCan(Q.claimStatus);
    expect(status.map((e) => [e.subject.name, e.everyNamespace, e.namespaces, e.names, e.verbs])).toEqual([
      ['system:masters', true, [], ['*'], ['update', 'patch']],
      ['c', true, [], ['*'], ['update']],
      ['q', false, ['team-a'], ['*'], ['update']],
      ['r', false, ['team-a'], ['*'], ['patch']],
      ['admin', false, ['team-b'], ['*'], ['update', 'patch']],
    ]);
    expect(status.find((e) => e.subject.name === 'c')!.grants).toEqual([
      { binding: { kind: 'ClusterRoleBinding', name: 'agg' }, role: { kind: 'ClusterRole', name: 'agg' }, ruleIndex: 0, aggregatedFrom: 'agg-part' },
    ]);
    const driver = new AccessIndex(engine).whoCan(Q.claimDriver);
    expect(driver.filter((e) => e.via === 'rbac').map((e) => [e.subject.kind, e.subject.name, e.names])).toEqual([
      ['Group', 'system:serviceaccounts:team-b', ['gpu.example.com']],
      ['ServiceAccount', 'a', ['*']],
      ['ServiceAccount', 'admin', ['*']],
    ]);
  });
});

// QUOTA001 and CLAIM003 ask for claim creators one namespace at a time (the whole cluster's answer
// is tens of thousands of entries on a large cluster). What they read from an answer must not depend
// on which of the two questions was asked: checked on random RBAC against the whole-cluster answer.
describe('AccessIndex.whoCan in one namespace', () => {
  const NSS = ['t0', 't1', 't2', 't3'];
  const CREATE = [
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
    { verbs: ['create', 'get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaimtemplates'] },
    { verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] },
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], resourceNames: ['named'] },
    { verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], resourceNames: ['named'] },
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
  ];
  const subjectPool = [
    ...NSS.flatMap((ns) => [SA(ns, 'app'), SA(ns, 'ci'), Group(`system:serviceaccounts:${ns}`)]),
    User('alice'),
    User('system:serviceaccount:t1:app'),
    Group('devs'),
    Group('system:serviceaccounts'),
    Group('system:authenticated'),
  ];

  for (let seed = 1; seed <= 60; seed++) {
    it(`reads the same creators per namespace as from the whole cluster (seed ${seed})`, () => {
      const r = createRandom(seed);
      const engine = randomRbacEngine(r, NSS, CREATE, subjectPool, { roleRules: 2, clusterBindings: 3 });
      const index = new AccessIndex(engine);
      // And a question whose names can mix '*' with resourceNames (update is not a nameless verb).
      const writeClaims: AccessQuestion = {
        verbs: ['create', 'update'],
        group: 'resource.k8s.io',
        resource: 'resourceclaims',
        scope: 'namespaced',
        names: 'any',
      };
      for (const q of [Q.claimCreate, Q.templateCreate, writeClaims]) {
        const whole = index.whoCan(q);
        for (const ns of NSS) {
          const here = index.whoCan({ ...q, namespaces: [ns] }, { keep: false });
          // What only the namespace's RoleBindings give, asked on its own, is exactly that part of the answer.
          expect(index.grantedInNamespace(q, ns)).toEqual(here.filter((e) => e.namespaces.includes(ns)));
          // QUOTA001: the entries granted by RoleBindings in the namespace, and those grants.
          const granted = (entries: AccessEntry[]) =>
            entries
              .filter((e) => e.namespaces.includes(ns))
              .map((e) => ({ subject: e.subject, via: e.via, grants: e.grants.filter((g) => g.binding.kind === 'RoleBinding' && g.binding.namespace === ns) }));
          expect(granted(here)).toEqual(granted(whole));
          // CLAIM003: whether an identity may create there at all.
          const may = (entries: AccessEntry[], s: (typeof subjectPool)[number]) =>
            index
              .entriesFor(entries, { kind: s.kind as SubjectRef['kind'], name: s.name, namespace: s.namespace })
              .some((e) => e.everyNamespace || e.namespaces.includes(ns));
          for (const s of subjectPool) expect([s, may(here, s)]).toEqual([s, may(whole, s)]);
        }
      }
    });
  }
});

// grantedInNamespace answers without computing where no RoleBinding of the namespace may match.
describe('AccessIndex.grantedInNamespace', () => {
  it('is empty where the RoleBindings grant other roles or there are none, and reads them where one may match', () => {
    const engine = createAuthzEngine(
      stateOf({
        clusterRoles: [
          clusterRole('claims', [{ verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] }]),
          clusterRole('pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
        ],
        clusterRoleBindings: [crb('everyone-claims', { kind: 'ClusterRole', name: 'claims' }, [Group('devs')])],
        roleBindings: [
          rb('t0', 'pods', { kind: 'ClusterRole', name: 'pods' }, [SA('t0', 'app')]),
          rb('t1', 'claims', { kind: 'ClusterRole', name: 'claims' }, [SA('t1', 'app'), Group('devs')]),
        ],
      }),
    );
    const index = new AccessIndex(engine);
    expect(index.grantedInNamespace(Q.claimCreate, 't0')).toEqual([]);
    expect(index.grantedInNamespace(Q.claimCreate, 'no-bindings')).toEqual([]);
    // devs is allowed everywhere through its ClusterRoleBinding: only the account is the namespace's own.
    const t1 = index.grantedInNamespace(Q.claimCreate, 't1');
    expect(t1.map((e) => [refKey(e.subject), e.namespaces, e.grants.map((g) => g.binding.name)])).toEqual([['ServiceAccount/t1/app', ['t1'], ['claims']]]);
    expect(t1).toEqual(index.whoCan({ ...Q.claimCreate, namespaces: ['t1'] }).filter((e) => !e.everyNamespace && e.namespaces.includes('t1')));
  });
});

// whoCanAmong reads only the bindings that name the asked subjects (the engine's subject index);
// it must give exactly their entries of the whole question, whatever else the bindings name.
describe('AccessIndex.whoCanAmong', () => {
  const NSS = ['t0', 't1', 't2'];
  const RULES = [
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
    { verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] },
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], resourceNames: ['named'] },
    { verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] },
    { verbs: ['patch'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['get', 'patch'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['t1'] },
    { verbs: ['update'], apiGroups: ['*'], resources: ['namespaces'], resourceNames: ['t0', 't2'] },
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
  ];
  const pool = [
    ...NSS.flatMap((ns) => [SA(ns, 'app'), SA(ns, 'ci'), Group(`system:serviceaccounts:${ns}`)]),
    User('alice'),
    User('system:serviceaccount:t1:app'),
    Group('devs'),
    Group('system:serviceaccounts'),
    Group('system:authenticated'),
    Group('system:masters'),
    Group('system:nodes'),
    User('system:node:n1'),
  ];
  const asRef = (s: (typeof pool)[number]): SubjectRef => ({
    kind: s.kind as SubjectRef['kind'],
    name: s.name,
    ...(s.namespace ? { namespace: s.namespace } : {}),
  });
  const questions = (ns: string): AccessQuestion[] => [
    { ...Q.claimCreate, namespaces: [ns] },
    { ...Q.templateCreate, namespaces: [ns] },
    { ...Q.claimStatus, namespaces: [ns] },
    { ...Q.claimStatus, namespaces: NSS },
    { verbs: ['update', 'patch'], group: '', resource: 'namespaces', scope: 'namespaced', names: [ns], namespaces: [ns] },
    { verbs: ['update', 'patch'], group: '', resource: 'namespaces', scope: 'namespaced', names: 'any', namespaces: [ns] },
    { verbs: ['update', 'patch'], group: '', resource: 'namespaces', scope: 'cluster', names: 'any' },
    Q.claimBinding,
    // Without namespaces: RoleBindings of every namespace, and the Node authorizer's identities.
    Q.claimStatus,
    Q.claimCreate,
    { verbs: ['get', 'create'], group: '', resource: 'pods', scope: 'namespaced', names: 'any' },
    { verbs: ['update', 'patch'], group: '', resource: 'namespaces', scope: 'namespaced', names: [ns] },
  ];
  const key = (s: SubjectRef) => {
    const c =
      s.kind === 'User' && s.name.startsWith('system:serviceaccount:')
        ? { kind: 'ServiceAccount', namespace: s.name.split(':')[2], name: s.name.split(':')[3] }
        : s;
    return `${c.kind}/${c.namespace ?? ''}/${c.name}`;
  };

  it('looks up the keys of the subjects that apply to an identity', () => {
    for (const s of pool) {
      const id = canonicalSubject(asRef(s));
      expect(applyingKeys(id), key(id)).toEqual(subjectsApplyingTo(id).map((x) => refKey(canonicalSubject(x))));
    }
  });

  for (let seed = 1; seed <= 60; seed++) {
    it(`gives the asked subjects' entries of the whole question (seed ${seed})`, () => {
      const r = createRandom(1000 + seed);
      const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
      const engine = randomRbacEngine(r, NSS, RULES, pool, { roleRules: 3, clusterBindings: 4 });
      const index = new AccessIndex(engine);
      for (const ns of NSS) {
        for (const q of questions(ns)) {
          const asked = some(pool, 5).map(asRef);
          const keys = new Set(asked.map(key));
          const whole = new AccessIndex(engine).whoCan(q).filter((e) => keys.has(key(e.subject)));
          expect(index.whoCanAmong(q, asked)).toEqual(whole);
          expect([q, asked, index.someAmong(q, asked)]).toEqual([q, asked, whole.length > 0]);
          // CLAIM003's "may this identity create claims here": whether an entry of its own or a
          // group it carries holds in the namespace, from the subjects that apply to it.
          const member = canonicalSubject(asRef(r.pick(pool)));
          const applying = subjectsApplyingTo(member);
          const holds = index
            .entriesFor(index.whoCanAmong(q, applying), member)
            .some((e) => e.everyNamespace || (q.namespaces ?? []).every((n) => e.namespaces.includes(n)));
          if (q.namespaces?.length === 1)
            expect([
              q,
              member,
              index.someAmong(
                q,
                applying.filter((x) => subjectAppliesTo(x, member)),
              ),
            ]).toEqual([q, member, holds]);
          // What one identity holds, from the bindings naming it and its groups, as from the whole answer.
          const identity = asRef(r.pick(pool));
          expect(index.rbacEntriesFor(q, identity)).toEqual(index.entriesFor(index.rbacWhoCan(q), identity));
          // entriesFor looks entries up by key: the same as testing every entry of the answer.
          const all = index.whoCan(q);
          // A namespace listed twice reads its bindings twice: each grant is still listed once.
          if (q.namespaces) expect(new AccessIndex(engine).whoCan({ ...q, namespaces: [...q.namespaces, ...q.namespaces] })).toEqual(all);
          // Where only RoleBindings allow it: each namespace of its RoleBinding grants, once, sorted.
          for (const e of all.filter((x) => !x.everyNamespace))
            expect(e.namespaces, key(e.subject)).toEqual([...new Set(e.grants.map((g) => g.binding.namespace ?? ''))].sort());
          expect(index.entriesFor(all, identity)).toEqual(all.filter((e) => subjectAppliesTo(e.subject, identity)));
        }
      }
    });
  }

  // A group's RoleBindings whose role may match are kept per candidate set (rolesThatMayMatch): one
  // index asked about every identity for every question, in turn, answers as the whole question does.
  for (let seed = 1; seed <= 20; seed++) {
    it(`answers each identity of each question alike after other questions about its groups (seed ${seed})`, () => {
      const r = createRandom(1400 + seed);
      const engine = randomRbacEngine(r, NSS, RULES, pool, { roleRules: 3, clusterBindings: 4 });
      const index = new AccessIndex(engine);
      const whole = new AccessIndex(engine);
      let held = 0;
      for (const ns of NSS)
        for (const q of questions(ns))
          for (const s of pool) {
            const identity = asRef(s);
            const expected = whole.entriesFor(whole.rbacWhoCan(q), identity);
            expect(index.rbacEntriesFor(q, identity), `${key(identity)} ${JSON.stringify(q)}`).toEqual(expected);
            held += expected.length > 0 ? 1 : 0;
          }
      expect(held).toBeGreaterThan(0);
    });
  }

  // A subject's RoleBindings of every namespace are gathered by username and group name (the engine's
  // per-namespace subject indexes), not by canonical key: a username also names malformed subjects of
  // another canonical form (a ':' in a service account's name), which must not be counted for it.
  const odd = [
    ...pool,
    SA('t1', 'a:b'),
    User('system:serviceaccount:t1:a:b'),
    User('system:serviceaccount:t1:a'),
    SA('t1', 'a'),
    User('system:serviceaccount:t2:ci'),
  ];
  for (let seed = 1; seed <= 20; seed++) {
    it(`gives each subject's entries of every namespace as the whole question, malformed names too (seed ${seed})`, () => {
      const r = createRandom(1700 + seed);
      const engine = randomRbacEngine(r, NSS, RULES, odd, { roleRules: 3, clusterBindings: 3 });
      const index = new AccessIndex(engine);
      const whole = new AccessIndex(engine);
      let held = 0;
      for (const q of [
        Q.claimStatus,
        Q.claimCreate,
        { verbs: ['get', 'create'], group: '', resource: 'pods', scope: 'namespaced', names: 'any' } as AccessQuestion,
      ])
        for (const s of odd) {
          const asked = asRef(s);
          const k = refKey(canonicalSubject(asked));
          const expected = whole.whoCan(q).filter((e) => refKey(e.subject) === k);
          expect(index.whoCanAmong(q, [asked]), `${k} ${JSON.stringify(q)}`).toEqual(expected);
          held += expected.length;
        }
      expect(held).toBeGreaterThan(0);
    });
  }
});

// rbacEverywhere reads only the entries of ClusterRoleBinding subjects (NODE002's service-account
// impersonation); it must give exactly the entries of the whole answer allowed in every namespace.
describe('AccessIndex.rbacEverywhere', () => {
  const NSS = ['t0', 't1', 't2'];
  const RULES = [
    { verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['app'] },
    { verbs: ['impersonate', 'get'], apiGroups: [''], resources: ['users', 'groups'] },
    { verbs: ['*'], apiGroups: [''], resources: ['*'] },
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
  ];
  const pool = [
    ...NSS.flatMap((ns) => [SA(ns, 'app'), Group(`system:serviceaccounts:${ns}`)]),
    User('alice'),
    User('system:serviceaccount:t1:app'),
    Group('devs'),
    Group('system:serviceaccounts'),
    Group('system:masters'),
    Group('system:nodes'),
    User('system:node:n1'),
  ];
  const questions: AccessQuestion[] = [
    { verbs: ['impersonate'], group: '', resource: 'serviceaccounts', scope: 'namespaced', names: 'any' },
    { verbs: ['impersonate'], group: '', resource: 'serviceaccounts', scope: 'namespaced', names: 'unscoped' },
    { verbs: ['impersonate'], group: '', resource: 'users', scope: 'cluster', names: 'any' },
    Q.claimCreate,
    { verbs: ['get', 'create'], group: '', resource: 'pods', scope: 'namespaced', names: 'any' },
  ];

  for (let seed = 1; seed <= 60; seed++) {
    it(`gives the entries allowed in every namespace of the whole answer (seed ${seed})`, () => {
      const r = createRandom(2000 + seed);
      const engine = randomRbacEngine(r, NSS, RULES, pool, { roleRules: 3, clusterBindings: 5 });
      const index = new AccessIndex(engine);
      for (const q of questions) {
        const whole = new AccessIndex(engine).rbacWhoCan(q).filter((e) => e.everyNamespace);
        expect(index.rbacEverywhere(q)).toEqual(whole);
      }
    });
  }

  it('finds a ClusterRoleBinding subject and leaves out those allowed in their namespace only', () => {
    const q = questions[0];
    const engine = createAuthzEngine(
      stateOf({
        clusterRoles: [clusterRole('imp', [RULES[0]]), clusterRole('view-pods', [RULES[6]])],
        clusterRoleBindings: [
          crb('imp-alice', { kind: 'ClusterRole', name: 'imp' }, [User('alice')]),
          crb('pods-devs', { kind: 'ClusterRole', name: 'view-pods' }, [Group('devs')]),
        ],
        roleBindings: [rb('t0', 'imp-app', { kind: 'ClusterRole', name: 'imp' }, [SA('t0', 'app'), User('alice')])],
      }),
    );
    const everywhere = new AccessIndex(engine).rbacEverywhere(q);
    expect(everywhere.map((e) => [refKey(e.subject), e.grants.map((g) => g.binding.name)])).toEqual([['User//alice', ['imp-alice', 'imp-app']]]);
  });
});

/**
 * A random RBAC set over the namespaces (the same draws, in the same order, for both differentials above): a
 * ClusterRole per rule with up to two more, a Role per namespace, ClusterRoleBindings and RoleBindings
 * to subjects of the pool.
 */
function randomRbacEngine(
  r: ReturnType<typeof createRandom>,
  namespaces: readonly string[],
  rules: readonly PolicyRule[],
  subjects: readonly Subject[],
  sizes: { roleRules: number; clusterBindings: number },
) {
  const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
  const clusterRoles = rules.map((rule, i) => clusterRole(`c${i}`, some(rules, 2).concat(rule)));
  const roles = namespaces.map((ns, i) => role(ns, `r${i}`, some(rules, sizes.roleRules)));
  return createAuthzEngine(
    stateOf({
      clusterRoles,
      roles,
      clusterRoleBindings: Array.from({ length: r.int(sizes.clusterBindings) }, (_, i) =>
        crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, some(subjects, 3)),
      ),
      roleBindings: Array.from({ length: 4 + r.int(10) }, (_, i) => {
        const ns = r.pick(namespaces);
        const roleRef = r.chance(0.5)
          ? { kind: 'Role', name: roles[namespaces.indexOf(ns)].metadata.name }
          : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
        return rb(ns, `rb${i}`, roleRef, some(subjects, 3));
      }),
    }),
  );
}
