import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { clusterRole, crb, Group, rb, res, role, SA, stateOf, User, user } from './__fixtures__/builders';
import type { AuthzRequest } from './types';

// authz-semantics.md §0 and §2: chain, subject matching and binding scope.
const state = stateOf({
  clusterRoles: [
    clusterRole('pod-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }]),
    clusterRole('claim-writer', [{ verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] }]),
    clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }]),
    clusterRole('node-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }]),
  ],
  roles: [role('team-a', 'cm-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }])],
  clusterRoleBindings: [
    crb('alice-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [User('alice')]),
    crb('star-user', { kind: 'ClusterRole', name: 'pod-reader' }, [User('*'), Group('*')]),
    crb('crb-to-role', { kind: 'Role', name: 'cm-reader' }, [User('bob')]),
    crb('sa-without-namespace', { kind: 'ClusterRole', name: 'pod-reader' }, [SA(undefined, 'orphan')]),
    crb('health', { kind: 'ClusterRole', name: 'health' }, [Group('system:authenticated')]),
    crb('odd-kinds', { kind: 'ClusterRole', name: 'pod-reader' }, [
      { kind: 'user', name: 'carol' },
      { kind: 'serviceaccount', name: 'x', namespace: 'team-a' },
    ]),
    crb('missing-role', { kind: 'ClusterRole', name: 'does-not-exist' }, [User('dave')]),
    crb('sa-user-subject', { kind: 'ClusterRole', name: 'node-reader' }, [User('system:serviceaccount:team-a:builder')]),
  ],
  roleBindings: [
    rb('team-a', 'bob-cm', { kind: 'Role', name: 'cm-reader' }, [User('bob')]),
    rb('team-a', 'claims', { kind: 'ClusterRole', name: 'claim-writer' }, [SA(undefined, 'builder')]),
    rb('team-a', 'nodes-via-rb', { kind: 'ClusterRole', name: 'node-reader' }, [User('erin')]),
    rb('team-a', 'health-via-rb', { kind: 'ClusterRole', name: 'health' }, [User('erin')]),
  ],
});

const sa = (ns: string, name: string) =>
  user(`system:serviceaccount:${ns}:${name}`, 'system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated');

const cases: { name: string; request: AuthzRequest; allowed: boolean }[] = [
  {
    name: 'system:masters group is allowed anything',
    request: { user: user('root', 'system:masters'), resource: res('delete', '', 'nodes', { name: 'n1' }) },
    allowed: true,
  },
  {
    name: 'a user NAMED system:masters gets nothing',
    request: { user: user('system:masters'), resource: res('get', '', 'pods', { namespace: 'x', name: 'p' }) },
    allowed: false,
  },
  {
    name: 'ClusterRoleBinding grants in every namespace',
    request: { user: user('alice'), resource: res('get', '', 'pods', { namespace: 'any', name: 'p' }) },
    allowed: true,
  },
  { name: 'ClusterRoleBinding grants cluster-wide list', request: { user: user('alice'), resource: res('list', '', 'pods') }, allowed: true },
  { name: 'User "*" is not a wildcard', request: { user: user('mallory'), resource: res('get', '', 'pods', { namespace: 'x', name: 'p' }) }, allowed: false },
  { name: 'Group "*" is not a wildcard', request: { user: user('mallory', 'devs'), resource: res('list', '', 'pods') }, allowed: false },
  {
    name: 'a ClusterRoleBinding to a Role never resolves',
    request: { user: user('bob'), resource: res('get', '', 'configmaps', { namespace: 'other', name: 'c' }) },
    allowed: false,
  },
  {
    name: 'RoleBinding to a Role grants in its namespace',
    request: { user: user('bob'), resource: res('get', '', 'configmaps', { namespace: 'team-a', name: 'c' }) },
    allowed: true,
  },
  {
    name: 'RoleBinding grants nothing in another namespace',
    request: { user: user('bob'), resource: res('get', '', 'configmaps', { namespace: 'team-b', name: 'c' }) },
    allowed: false,
  },
  { name: 'RoleBinding grants nothing for an all-namespace list', request: { user: user('bob'), resource: res('list', '', 'configmaps') }, allowed: false },
  {
    name: 'SA subject without namespace in a RoleBinding takes the binding namespace',
    request: { user: sa('team-a', 'builder'), resource: res('create', 'resource.k8s.io', 'resourceclaims', { namespace: 'team-a' }) },
    allowed: true,
  },
  {
    name: 'RoleBinding → ClusterRole only inside the binding namespace',
    request: { user: sa('team-a', 'builder'), resource: res('create', 'resource.k8s.io', 'resourceclaims', { namespace: 'team-b' }) },
    allowed: false,
  },
  {
    name: 'SA subject without namespace in a ClusterRoleBinding matches nothing',
    request: { user: sa('default', 'orphan'), resource: res('list', '', 'pods') },
    allowed: false,
  },
  { name: 'subject kinds are case-sensitive ("user" matches nothing)', request: { user: user('carol'), resource: res('list', '', 'pods') }, allowed: false },
  { name: 'subject kind "serviceaccount" matches nothing', request: { user: sa('team-a', 'x'), resource: res('list', '', 'pods') }, allowed: false },
  {
    name: 'a binding to a missing role contributes nothing',
    request: { user: user('dave'), resource: res('get', '', 'pods', { namespace: 'x', name: 'p' }) },
    allowed: false,
  },
  {
    name: 'a User subject named like an SA matches that SA',
    request: { user: sa('team-a', 'builder'), resource: res('get', '', 'nodes', { name: 'n1' }) },
    allowed: true,
  },
  {
    name: 'RoleBindings never grant cluster-scoped resources',
    request: { user: user('erin'), resource: res('get', '', 'nodes', { name: 'n1' }) },
    allowed: false,
  },
  { name: 'RoleBindings never grant non-resource URLs', request: { user: user('erin'), nonResource: { verb: 'get', path: '/healthz' } }, allowed: false },
  {
    name: 'non-resource URL via ClusterRoleBinding to a group',
    request: { user: user('frank', 'system:authenticated'), nonResource: { verb: 'get', path: '/healthz' } },
    allowed: true,
  },
  {
    name: 'non-resource URL: other path denied',
    request: { user: user('frank', 'system:authenticated'), nonResource: { verb: 'get', path: '/metrics' } },
    allowed: false,
  },
];

describe('RBAC resolution (authorizer chain system:masters → Node → RBAC)', () => {
  const engine = createAuthzEngine(state);
  it.each(cases)('$name → $allowed', ({ request, allowed }) => {
    expect(engine.authorize(request).allowed).toBe(allowed);
  });

  it('explains an allowed answer with binding, role and rule', () => {
    const d = engine.authorize({ user: sa('team-a', 'builder'), resource: res('create', 'resource.k8s.io', 'resourceclaims', { namespace: 'team-a' }) });
    expect(d.decidedBy).toBe('rbac');
    expect(d.grant).toMatchObject({
      binding: { kind: 'RoleBinding', name: 'claims', namespace: 'team-a' },
      role: { kind: 'ClusterRole', name: 'claim-writer' },
      ruleIndex: 0,
      subject: { kind: 'ServiceAccount', name: 'builder', namespace: 'team-a' },
    });
    expect(d.reason).toBe('RBAC: allowed by RoleBinding "claims/team-a" of ClusterRole "claim-writer" to ServiceAccount "builder/team-a"');
  });

  it('the RBAC-only chain ignores the Node authorizer', () => {
    const rbacOnly = createAuthzEngine(state, { chain: ['RBAC'] });
    const node = { user: user('system:node:n1', 'system:nodes'), resource: res('update', '', 'nodes', { subresource: 'status', name: 'n1' }) };
    expect(engine.authorize(node).allowed).toBe(true);
    expect(rbacOnly.authorize(node).allowed).toBe(false);
  });
});
