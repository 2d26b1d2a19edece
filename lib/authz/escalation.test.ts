import { describe, expect, it } from 'vitest';
import type { ClusterRole, RoleBinding } from '@/lib/k8s/types';
import { createAuthzEngine } from './authz-engine';
import { covers } from './covers';
import { clusterRole, crb, rb, role, stateOf, User, user } from './__fixtures__/builders';

// authz-semantics.md §5: Covers, escalate, bind.
describe('Covers', () => {
  const cases = [
    {
      name: '* verbs cover a named verb',
      owner: [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      covered: true,
    },
    {
      name: 'an enumeration never covers *',
      owner: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
      servant: [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }],
      covered: false,
    },
    {
      name: '*/status covers pods/status',
      owner: [{ verbs: ['get'], apiGroups: [''], resources: ['*/status'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['pods/status'] }],
      covered: true,
    },
    {
      name: 'named owner does not cover an unnamed atom',
      owner: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
      covered: false,
    },
    {
      name: 'unnamed owner covers a named atom',
      owner: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
      servant: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }],
      covered: true,
    },
    {
      name: 'atoms may be covered by different owner rules',
      owner: [
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
      ],
      servant: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
      covered: true,
    },
    {
      name: 'URL prefix covers',
      owner: [{ verbs: ['get'], nonResourceURLs: ['/api/*'] }],
      servant: [{ verbs: ['get'], nonResourceURLs: ['/api/v1'] }],
      covered: true,
    },
    {
      name: 'resource rules never cover URLs',
      owner: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      servant: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      covered: false,
    },
  ];
  it.each(cases)('$name → $covered', ({ owner, servant, covered }) => expect(covers(owner, servant)).toBe(covered));
});

describe('creating RBAC objects (escalation check)', () => {
  const state = stateOf({
    clusterRoles: [
      clusterRole('rbac-writer', [
        { verbs: ['create'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'] },
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
      ]),
      clusterRole('escalator', [{ verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }]),
      clusterRole('named-escalator', [{ verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['x'] }]),
      clusterRole('binder', [{ verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'] }]),
      clusterRole('cluster-admin', [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ]),
    ],
    roles: [role('team-a', 'ns-all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])],
    clusterRoleBindings: [
      crb('w', { kind: 'ClusterRole', name: 'rbac-writer' }, [User('writer'), User('esc'), User('named-esc'), User('binder')]),
      crb('e', { kind: 'ClusterRole', name: 'escalator' }, [User('esc')]),
      crb('ne', { kind: 'ClusterRole', name: 'named-escalator' }, [User('named-esc')]),
      crb('b', { kind: 'ClusterRole', name: 'binder' }, [User('binder')]),
    ],
    roleBindings: [rb('team-a', 'ns-admin', { kind: 'Role', name: 'ns-all' }, [User('ns-admin')])],
  });
  const engine = createAuthzEngine(state);
  const podsReader: ClusterRole = clusterRole('reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
  const secretsReader: ClusterRole = clusterRole('secrets', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]);
  const bindAdmin = (ns: string): RoleBinding => rb(ns, 'x', { kind: 'ClusterRole', name: 'cluster-admin' }, [User('me')]);

  it('may create a role whose rules it holds', () => expect(engine.canCreate(user('writer'), podsReader)).toMatchObject({ allowed: true, path: 'covers' }));
  it('may not grant what it does not hold', () => {
    const d = engine.canCreate(user('writer'), secretsReader);
    expect(d.allowed).toBe(false);
    expect(d.uncovered).toEqual(secretsReader.rules);
  });
  it('escalate on clusterroles lifts the check', () => expect(engine.canCreate(user('esc'), secretsReader)).toMatchObject({ allowed: true, path: 'escalate' }));
  it('escalate restricted by resourceNames never helps a create (name is empty)', () =>
    expect(engine.canCreate(user('named-esc'), secretsReader).allowed).toBe(false));
  it('aggregationRule needs cluster-admin-equivalent rules', () => {
    const agg = clusterRole('agg', null, { aggregate: [{ matchLabels: { a: 'b' } }] });
    expect(engine.canCreate(user('writer'), agg).reason).toContain('aggregationRule');
  });
  it('bind on cluster-admin lets one bind it without holding it', () =>
    expect(engine.canCreate(user('binder'), bindAdmin('team-b'))).toMatchObject({ allowed: true, path: 'bind' }));
  it('*/*/* in a namespace lets one bind cluster-admin there (but not create the binding elsewhere)', () => {
    expect(engine.canCreate(user('ns-admin'), bindAdmin('team-a'))).toMatchObject({ allowed: true });
    expect(engine.canCreate(user('ns-admin'), bindAdmin('team-b')).allowed).toBe(false);
  });
  it('without create permission nothing else matters', () =>
    expect(engine.canCreate(user('nobody'), podsReader).reason).toContain('cannot create clusterroles'));
  it('system:masters bypasses the check', () =>
    expect(engine.canCreate(user('root', 'system:masters'), secretsReader)).toMatchObject({ allowed: true, path: 'system:masters' }));
});
