import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { clusterRole, crb, Group, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { randomRbacState, SMALL_RBAC } from '@/lib/authz/__fixtures__/random-rbac';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { ImpersonationHeaders } from '@/lib/authz/impersonation';
import type { AuthorizerName, UserInfo } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import type { PolicyRule, Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import {
  identityCheckSubjects,
  impersonableIndex,
  impersonationCandidates,
  impersonationFilter,
  impersonationIdentityChecks,
  mayImpersonate,
  rbacSubjectsOf,
} from './impersonation-reach';
import { canonicalSubject, isMastersGroup, isNodeIdentity } from './context/identities';
import { compareSubjects, refKey } from '@/lib/k8s/refs';

// The node-status writers filter requester and target pairs with mayImpersonate, read from the
// who-can answers the analysis keeps (rbacSubjectsOf) instead of the engine's own: it must answer
// as AuthzEngine.mayImpersonate does, for every requester and impersonated user, on random
// impersonation grants (legacy and constrained, named and unnamed, bound to users, service accounts
// in both spellings and groups, cluster-wide and per namespace) and authorizer chains.

const AUTHN = 'authentication.k8s.io';
const NSS = ['a', 'b'];
const RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice', 'system:node:n1'] },
  { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['*'], resourceNames: ['app'] },
  { apiGroups: ['*'], resources: ['*'], verbs: ['impersonate'] },
  { apiGroups: [AUTHN], resources: ['users', 'groups'], verbs: ['impersonate:user-info'] },
  { apiGroups: [AUTHN], resources: ['users'], verbs: ['impersonate:user-info'], resourceNames: ['probe'] },
  { apiGroups: [AUTHN], resources: ['serviceaccounts'], verbs: ['impersonate:serviceaccount'] },
  { apiGroups: [AUTHN], resources: ['serviceaccounts'], verbs: ['impersonate:serviceaccount'], resourceNames: ['ci'] },
  { apiGroups: [AUTHN], resources: ['nodes'], verbs: ['impersonate:arbitrary-node'], resourceNames: ['n1'] },
  { apiGroups: [AUTHN], resources: ['nodes'], verbs: ['impersonate:associated-node'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['update', 'patch'] },
];
const SUBJECTS: Subject[] = [
  SA('a', 'app'),
  SA('b', 'ci'),
  User('bob'),
  User('system:serviceaccount:b:app'),
  User('system:node:n2'),
  Group('ops'),
  Group('system:serviceaccounts:a'),
  Group('system:serviceaccounts'),
  Group('system:authenticated'),
  Group('system:masters'),
];
const REQUESTERS: UserInfo[] = [
  serviceAccountUser('a', 'app'),
  serviceAccountUser('b', 'ci'),
  serviceAccountUser('b', 'app'),
  serviceAccountUser('a', 'app', 'n1'),
  { name: 'bob', groups: ['system:authenticated'] },
  { name: 'carol', groups: ['ops', 'system:authenticated'] },
  { name: 'probe:member-of:system:serviceaccounts', groups: ['system:serviceaccounts'] },
  { name: 'system:node:n2', groups: ['system:nodes', 'system:authenticated'] },
  { name: 'root', groups: ['system:masters'] },
  { name: 'dave', groups: ['system:authenticated'] },
];
const HEADERS: ImpersonationHeaders[] = [
  { user: 'alice' },
  { user: 'probe', groups: ['ops'] },
  { user: 'system:serviceaccount:a:app' },
  { user: 'system:serviceaccount:b:ci' },
  { user: 'system:node:n1', groups: ['system:nodes'] },
  { user: 'system:node:n3' },
];
const CHAINS: (AuthorizerName[] | undefined)[] = [undefined, ['RBAC'], ['Node', 'RBAC', 'AlwaysAllow'], ['AlwaysDeny', 'RBAC'], ['Node']];

describe('mayImpersonate (analysis)', () => {
  let yes = 0;
  let no = 0;
  for (let seed = 1; seed <= 60; seed++) {
    it(`answers as AuthzEngine.mayImpersonate (seed ${seed})`, () => {
      const r = createRandom(1500 + seed);
      const state = randomRbacState(r, { ...SMALL_RBAC, rules: RULES, subjects: SUBJECTS, namespaces: NSS });
      for (const chain of CHAINS) {
        const engine = createAuthzEngine(state, chain ? { chain } : {});
        const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
        for (const requester of REQUESTERS) {
          // One filter per requester, asked about every target in turn (as the node-status writers ask it).
          const filter = impersonationFilter(ctx, requester);
          for (const headers of HEADERS) {
            const expected = engine.mayImpersonate(requester, headers);
            expect([requester.name, headers.user, chain, mayImpersonate(ctx, requester, headers)]).toEqual([requester.name, headers.user, chain, expected]);
            expect([requester.name, headers.user, chain, filter(headers)]).toEqual([requester.name, headers.user, chain, expected]);
            if (expected) yes++;
            else no++;
          }
        }
      }
    });
  }
  let indexed = 0;
  let reaching = 0;
  for (let seed = 1; seed <= 30; seed++) {
    it(`impersonableIndex lists the users impersonationFilter lets each requester through for (seed ${seed})`, () => {
      const r = createRandom(1700 + seed);
      const state = randomRbacState(r, { ...SMALL_RBAC, rules: RULES, subjects: SUBJECTS, namespaces: NSS });
      // Repeated names, as the node-status writers' targets repeat the probe user.
      const users = [...HEADERS.map((h) => h.user), 'probe', 'alice'];
      for (const chain of CHAINS) {
        const engine = createAuthzEngine(state, chain ? { chain } : {});
        const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
        const index = impersonableIndex(ctx, users);
        for (const requester of REQUESTERS) {
          const filter = impersonationFilter(ctx, requester);
          const marks = new Uint8Array(users.length).fill(7);
          const at = index(requester, marks) ? users.flatMap((_, i) => (marks[i] === 1 ? [i] : [])) : undefined;
          if (at === undefined) expect(marks.every((m) => m === 7)).toBe(true);
          else expect(marks.every((m) => m === 0 || m === 1)).toBe(true);
          // undefined: every user is to be asked; otherwise exactly those the filter lets through.
          const expected = users.flatMap((user, i) => (filter({ user }) ? [i] : []));
          if (at === undefined) continue;
          indexed++;
          if (at.length > 0) reaching++;
          expect([requester.name, chain, at]).toEqual([requester.name, chain, expected]);
        }
      }
    });
  }
  it('impersonableIndex answers for most requesters (the comparisons above are not vacuous)', () => {
    expect(indexed).toBeGreaterThan(400);
    expect(reaching).toBeGreaterThan(100);
    expect(reaching).toBeLessThan(indexed);
  });

  it('lets pairs through and filters pairs out (the cases above are not vacuous)', () => {
    expect(yes).toBeGreaterThan(1000);
    expect(no).toBeGreaterThan(1000);
  });

  it('rbacSubjectsOf answers as the engine, once per analysis and question', () => {
    const state = stateOf({
      clusterRoles: [clusterRole('imp', [RULES[0]])],
      clusterRoleBindings: [crb('imp', { kind: 'ClusterRole', name: 'imp' }, [User('bob'), Group('ops')])],
    });
    const engine = createAuthzEngine(state);
    const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
    const q = { verb: 'impersonate', group: '', resource: 'users', subresource: '', namespace: '', name: 'x' };
    const first = rbacSubjectsOf(ctx, q);
    expect(first).toEqual(engine.whoCanRbacSubjects({ resource: q }));
    expect(first.map((s) => s.name)).toEqual(['ops', 'bob']);
    expect(rbacSubjectsOf(ctx, { ...q })).toBe(first);
    expect(rbacSubjectsOf(ctx, { ...q, name: 'y' })).not.toBe(first);
  });
});

describe('impersonation candidates (shared questions)', () => {
  // Holders in namespaces with and without RoleBindings, with names rules list and names none lists:
  // the candidates are read from shared questions (the probe's name, the cluster-wide namespace)
  // where those are answered alike; they must be the union of the holder's own who-can answers.
  const HOLDERS: SubjectRef[] = [
    { kind: 'ServiceAccount', namespace: 'a', name: 'app' },
    { kind: 'ServiceAccount', namespace: 'a', name: 'other' },
    { kind: 'ServiceAccount', namespace: 'b', name: 'ci' },
    { kind: 'ServiceAccount', namespace: 'c', name: 'app' },
    { kind: 'ServiceAccount', namespace: 'c', name: 'other' },
    { kind: 'User', name: 'alice' },
    { kind: 'User', name: 'bob' },
    { kind: 'User', name: 'probe' },
    { kind: 'Group', name: 'ops' },
  ];
  const plainCandidates = (engine: ReturnType<typeof createAuthzEngine>, holder: SubjectRef) => {
    const out = new Map<string, SubjectRef>();
    for (const resource of impersonationIdentityChecks(holder))
      for (const subject of engine.whoCanRbacSubjects({ resource })) {
        const s = canonicalSubject(subject);
        if (!isMastersGroup(s) && !isNodeIdentity(s)) out.set(refKey(s), s);
      }
    out.delete(refKey(canonicalSubject(holder)));
    return [...out.values()].sort(compareSubjects);
  };
  let found = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`are the union of the holder's own who-can answers (seed ${seed})`, () => {
      const r = createRandom(1900 + seed);
      const state = randomRbacState(r, { ...SMALL_RBAC, rules: RULES, subjects: SUBJECTS, namespaces: NSS });
      const engine = createAuthzEngine(state);
      const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
      for (const holder of HOLDERS) {
        const expected = plainCandidates(engine, holder);
        expect([holder, impersonationCandidates(ctx, holder)]).toEqual([holder, expected]);
        found += expected.length;
        // The node-status writers keep only the set of each check's subjects.
        for (const resource of impersonationIdentityChecks(holder)) {
          const keys = (subjects: readonly SubjectRef[]) => [...new Set(subjects.map(refKey))].sort();
          expect([resource, keys(identityCheckSubjects(ctx, resource))]).toEqual([resource, keys(engine.whoCanRbacSubjects({ resource }))]);
        }
      }
    });
  }
  it('finds candidates (the comparisons above are not vacuous)', () => {
    expect(found).toBeGreaterThan(200);
  });
});
