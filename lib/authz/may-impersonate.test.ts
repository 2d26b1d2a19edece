import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { Group, SA, User } from './__fixtures__/builders';
import { randomRbacState, SMALL_RBAC } from './__fixtures__/random-rbac';
import { createAuthzEngine } from './authz-engine';
import type { ImpersonationHeaders } from './impersonation';
import type { UserInfo } from './types';
import { serviceAccountUser } from './user-info';

// mayImpersonate is a filter in front of authorizeImpersonated: when it says no, the full decision
// must refuse, for every mode, verb and target. Checked on random impersonation grants (legacy and
// constrained, named and unnamed, to users, service accounts and groups, through ClusterRoleBindings
// and RoleBindings) against the full decision, with and without constrained impersonation.

const AUTHN = 'authentication.k8s.io';
const NSS = ['a', 'b'];
const IDENTITY_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['users'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice'] },
  { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['*'], resourceNames: ['app'] },
  { apiGroups: ['*'], resources: ['*'], verbs: ['impersonate'] },
  { apiGroups: [AUTHN], resources: ['users', 'groups'], verbs: ['impersonate:user-info'] },
  { apiGroups: [AUTHN], resources: ['serviceaccounts'], verbs: ['impersonate:serviceaccount'] },
  { apiGroups: [AUTHN], resources: ['nodes'], verbs: ['impersonate:arbitrary-node'] },
  { apiGroups: [AUTHN], resources: ['nodes'], verbs: ['impersonate:associated-node'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['impersonate-on:arbitrary-node:patch', 'impersonate-on:user-info:patch'] },
  {
    apiGroups: ['*'],
    resources: ['*'],
    verbs: ['impersonate-on:serviceaccount:update', 'impersonate-on:associated-node:update', 'impersonate-on:associated-node:patch'],
  },
  { apiGroups: ['*'], resources: ['*'], verbs: ['impersonate-on:serviceaccount:patch', 'impersonate-on:serviceaccount:get', 'impersonate-on:user-info:get'] },
  { apiGroups: [AUTHN], resources: ['serviceaccounts'], verbs: ['impersonate:serviceaccount'], resourceNames: ['app'] },
  { apiGroups: [''], resources: ['nodes/status', 'pods'], verbs: ['update', 'patch', 'get'] },
];
const SUBJECTS = [
  SA('a', 'app'),
  SA('b', 'ci'),
  User('bob'),
  User('system:serviceaccount:b:app'),
  Group('ops'),
  Group('system:serviceaccounts:a'),
  Group('system:authenticated'),
];
const REQUESTERS: UserInfo[] = [
  serviceAccountUser('a', 'app'),
  serviceAccountUser('b', 'ci'),
  serviceAccountUser('b', 'app'),
  serviceAccountUser('a', 'app', 'n1'),
  serviceAccountUser('b', 'ci', 'n1'),
  { name: 'bob', groups: ['system:authenticated'] },
  { name: 'carol', groups: ['ops', 'system:authenticated'] },
  { name: 'dave', groups: ['system:authenticated'] },
];
const HEADERS: ImpersonationHeaders[] = [
  { user: 'alice' },
  { user: 'alice', groups: ['ops'] },
  { user: 'system:serviceaccount:a:app' },
  { user: 'system:serviceaccount:b:ci' },
  { user: 'system:node:n1' },
  { user: 'system:node:n1', groups: ['system:nodes'] },
  { user: 'probe', groups: ['system:masters'] },
];
const TARGETS = [
  { verb: 'patch', group: '', resource: 'nodes', subresource: 'status', namespace: '', name: 'n1' },
  { verb: 'update', group: '', resource: 'pods', subresource: '', namespace: 'a', name: 'p' },
  { verb: 'get', group: '', resource: 'pods', subresource: '', namespace: 'b', name: 'p' },
];

describe('AuthzEngine.mayImpersonate', () => {
  let refused = 0;
  let allowed = 0;
  for (let seed = 1; seed <= 100; seed++) {
    it(`says no only where authorizeImpersonated refuses (seed ${seed})`, () => {
      const r = createRandom(700 + seed);
      const state = randomRbacState(r, { ...SMALL_RBAC, rules: IDENTITY_RULES, subjects: SUBJECTS, namespaces: NSS });
      for (const constrainedImpersonation of [true, false]) {
        const engine = createAuthzEngine(state, { features: { constrainedImpersonation } });
        for (const requester of REQUESTERS)
          for (const headers of HEADERS) {
            const may = engine.mayImpersonate(requester, headers);
            for (const resource of TARGETS) {
              const d = engine.authorizeImpersonated(requester, headers, { resource });
              if (!may) expect([requester.name, headers, resource, d.allowed]).toEqual([requester.name, headers, resource, false]);
              if (!may) refused++;
              if (d.impersonation.allowed) allowed++;
            }
          }
      }
    });
  }
  it('filters pairs out, and lets allowed ones through (the cases above are not vacuous)', () => {
    expect(refused).toBeGreaterThan(100);
    expect(allowed).toBeGreaterThan(100);
  });
});
