import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { clusterRole, crb, node, pod, rb, res, role, SA, stateOf, User, user } from './__fixtures__/builders';
import type { ImpersonationHeaders } from './impersonation';
import { serviceAccountUser } from './user-info';

// authz-semantics.md §7 and dra-facts.md §8: legacy and constrained impersonation.
const state = stateOf({
  nodes: [node('n1'), node('n2')],
  pods: [pod('kube-system', 'reporter-n1', { nodeName: 'n1', serviceAccountName: 'reporter' })],
  clusterRoles: [
    clusterRole('node-readiness-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
    clusterRole('node-status-patcher-constrained', [
      { verbs: ['impersonate-on:associated-node:get'], apiGroups: [''], resources: ['nodes'] },
      { verbs: ['impersonate-on:associated-node:update'], apiGroups: [''], resources: ['nodes/status'] },
    ]),
    clusterRole('named-node-impersonator', [
      { verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'], resourceNames: ['n1'] },
    ]),
    clusterRole('arbitrary-n2', [
      { verbs: ['impersonate:arbitrary-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'], resourceNames: ['n2'] },
      { verbs: ['impersonate-on:arbitrary-node:update'], apiGroups: [''], resources: ['nodes/status'] },
    ]),
    clusterRole('legacy-any', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'] }]),
    clusterRole('user-info-alice', [
      { verbs: ['impersonate:user-info'], apiGroups: ['authentication.k8s.io'], resources: ['users'], resourceNames: ['alice'] },
      { verbs: ['impersonate:user-info'], apiGroups: ['authentication.k8s.io'], resources: ['groups'], resourceNames: ['devs'] },
    ]),
    clusterRole('alice-reads-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]),
    clusterRole('sa-identity', [{ verbs: ['impersonate:serviceaccount'], apiGroups: ['authentication.k8s.io'], resources: ['serviceaccounts'] }]),
  ],
  roles: [
    role('team-a', 'impersonate-on-pods', [
      { verbs: ['impersonate-on:user-info:get', 'impersonate-on:serviceaccount:get'], apiGroups: [''], resources: ['pods'] },
    ]),
  ],
  clusterRoleBindings: [
    crb('reporter-identity', { kind: 'ClusterRole', name: 'node-readiness-impersonator' }, [SA('kube-system', 'reporter')]),
    crb('reporter-action', { kind: 'ClusterRole', name: 'node-status-patcher-constrained' }, [SA('kube-system', 'reporter')]),
    crb('named', { kind: 'ClusterRole', name: 'named-node-impersonator' }, [SA('kube-system', 'named')]),
    crb('named-action', { kind: 'ClusterRole', name: 'node-status-patcher-constrained' }, [SA('kube-system', 'named')]),
    crb('arb', { kind: 'ClusterRole', name: 'arbitrary-n2' }, [User('ops')]),
    crb('legacy', { kind: 'ClusterRole', name: 'legacy-any' }, [User('legacy-admin')]),
    crb('ui', { kind: 'ClusterRole', name: 'user-info-alice' }, [User('helpdesk')]),
    crb('alice', { kind: 'ClusterRole', name: 'alice-reads-pods' }, [User('alice')]),
    crb('sa-id', { kind: 'ClusterRole', name: 'sa-identity' }, [User('helpdesk')]),
  ],
  roleBindings: [rb('team-a', 'imp-on', { kind: 'Role', name: 'impersonate-on-pods' }, [User('helpdesk')])],
});

const engine = createAuthzEngine(state);
const statusOf = (n: string) => ({ resource: res('update', '', 'nodes', { name: n, subresource: 'status' }) });
const asNode = (n: string): ImpersonationHeaders => ({ user: `system:node:${n}` });

describe('constrained impersonation (KEP-5284)', () => {
  it('a reporter with a token bound to n1 may update n1 status via associated-node', () => {
    const d = engine.authorizeImpersonated(serviceAccountUser('kube-system', 'reporter', 'n1'), asNode('n1'), statusOf('n1'));
    expect(d.allowed).toBe(true);
    expect(d.impersonation.mode).toBe('associated-node');
    expect(d.impersonation.impersonated).toEqual({ name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] });
  });
  it('the same reporter cannot impersonate n2 (its token names n1)', () => {
    expect(engine.authorizeImpersonated(serviceAccountUser('kube-system', 'reporter', 'n1'), asNode('n2'), statusOf('n2')).allowed).toBe(false);
  });
  it('without a node-bound token there is no associated node', () => {
    expect(engine.authorizeImpersonated(serviceAccountUser('kube-system', 'reporter'), asNode('n1'), statusOf('n1')).allowed).toBe(false);
  });
  it('two node-name extras are not exactly one: denied', () => {
    const u = { ...serviceAccountUser('kube-system', 'reporter'), extra: { 'authentication.kubernetes.io/node-name': ['n1', 'n1'] } };
    expect(engine.authorizeImpersonated(u, asNode('n1'), statusOf('n1')).allowed).toBe(false);
  });
  it('resourceNames-scoped impersonate:associated-node never matches (identity check uses name "*")', () => {
    expect(engine.authorizeImpersonated(serviceAccountUser('kube-system', 'named', 'n1'), asNode('n1'), statusOf('n1')).allowed).toBe(false);
  });
  it('the action verb must match: the reporter may not patch (only update)', () => {
    const d = engine.authorizeImpersonated(serviceAccountUser('kube-system', 'reporter', 'n1'), asNode('n1'), {
      resource: res('patch', '', 'nodes', { name: 'n1', subresource: 'status' }),
    });
    expect(d.allowed).toBe(false);
  });
  it('arbitrary-node scoped by resourceNames allows exactly that node', () => {
    expect(engine.authorizeImpersonated(user('ops', 'system:authenticated'), asNode('n2'), statusOf('n2'))).toMatchObject({
      allowed: true,
      impersonation: { mode: 'arbitrary-node' },
    });
    expect(engine.authorizeImpersonated(user('ops', 'system:authenticated'), asNode('n1'), statusOf('n1')).allowed).toBe(false);
  });
  it('node modes need only Impersonate-User: adding a group skips them', () => {
    expect(engine.authorizeImpersonated(user('ops'), { user: 'system:node:n2', groups: ['system:nodes'] }, statusOf('n2')).allowed).toBe(false);
  });
  it('user-info: identity on users/alice plus the action verb on the target', () => {
    const d = engine.authorizeImpersonated(user('helpdesk'), { user: 'alice' }, { resource: res('get', '', 'pods', { namespace: 'team-a', name: 'p' }) });
    expect(d).toMatchObject({ allowed: true, impersonation: { mode: 'user-info', impersonated: { name: 'alice', groups: ['system:authenticated'] } } });
  });
  it('user-info: the action grant is namespaced (team-b denied)', () => {
    expect(
      engine.authorizeImpersonated(user('helpdesk'), { user: 'alice' }, { resource: res('get', '', 'pods', { namespace: 'team-b', name: 'p' }) }).allowed,
    ).toBe(false);
  });
  it('user-info: a group without an identity grant is refused', () => {
    expect(
      engine.authorizeImpersonated(
        user('helpdesk'),
        { user: 'alice', groups: ['admins'] },
        { resource: res('get', '', 'pods', { namespace: 'team-a', name: 'p' }) },
      ).allowed,
    ).toBe(false);
    expect(
      engine.authorizeImpersonated(
        user('helpdesk'),
        { user: 'alice', groups: ['devs'] },
        { resource: res('get', '', 'pods', { namespace: 'team-a', name: 'p' }) },
      ).allowed,
    ).toBe(true);
  });
  it('user-info refuses system:masters even if groups/* were granted', () => {
    const s = stateOf({
      clusterRoles: [
        clusterRole('all-ids', [
          { verbs: ['impersonate:user-info'], apiGroups: ['authentication.k8s.io'], resources: ['users', 'groups'] },
          { verbs: ['impersonate-on:user-info:get'], apiGroups: [''], resources: ['pods'] },
        ]),
      ],
      clusterRoleBindings: [crb('x', { kind: 'ClusterRole', name: 'all-ids' }, [User('h')])],
    });
    const e = createAuthzEngine(s);
    expect(
      e.authorizeImpersonated(user('h'), { user: 'bob', groups: ['system:masters'] }, { resource: res('get', '', 'pods', { namespace: 'a', name: 'p' }) })
        .allowed,
    ).toBe(false);
    expect(
      e.authorizeImpersonated(user('h'), { user: 'bob', groups: ['team'] }, { resource: res('get', '', 'pods', { namespace: 'a', name: 'p' }) }).allowed,
    ).toBe(false);
  });
  it('serviceaccount mode: identity grant in authentication.k8s.io plus a namespaced action grant', () => {
    const d = engine.authorizeImpersonated(
      user('helpdesk'),
      { user: 'system:serviceaccount:team-a:bot' },
      { resource: res('get', '', 'pods', { namespace: 'team-a', name: 'p' }) },
    );
    expect(d.impersonation.mode).toBe('serviceaccount');
    expect(d.impersonation.impersonated?.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated']);
    // the impersonated SA itself has no pod access
    expect(d.allowed).toBe(false);
  });
  it('constrained impersonation off (1.35) only leaves legacy', () => {
    const e = createAuthzEngine(state, { features: { constrainedImpersonation: false } });
    expect(e.authorizeImpersonated(serviceAccountUser('kube-system', 'reporter', 'n1'), asNode('n1'), statusOf('n1')).allowed).toBe(false);
  });
});

describe('legacy impersonation', () => {
  it('impersonate on users reaches any node identity, but adds no system:nodes group', () => {
    const d = engine.authorizeImpersonated(user('legacy-admin'), asNode('n2'), statusOf('n2'));
    expect(d.impersonation).toMatchObject({ allowed: true, mode: 'legacy', impersonated: { name: 'system:node:n2', groups: ['system:authenticated'] } });
    expect(d.allowed).toBe(false);
  });
  it('with the group system:nodes the node identity can write nodes/status', () => {
    const d = engine.authorizeImpersonated(user('legacy-admin'), { user: 'system:node:n2', groups: ['system:nodes'] }, statusOf('n2'));
    expect(d).toMatchObject({ allowed: true, impersonation: { mode: 'legacy' }, decision: { decidedBy: 'node' } });
  });
  it('an SA impersonated without groups gets its SA groups', () => {
    const d = engine.authorizeImpersonated(
      user('legacy-admin'),
      { user: 'system:serviceaccount:ns:bot' },
      { resource: res('get', '', 'pods', { namespace: 'ns', name: 'p' }) },
    );
    expect(d.impersonation.impersonated?.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated']);
  });
  it('legacy may impersonate system:masters', () => {
    const d = engine.authorizeImpersonated(
      user('legacy-admin'),
      { user: 'x', groups: ['system:masters'] },
      { resource: res('delete', '', 'nodes', { name: 'n1' }) },
    );
    expect(d).toMatchObject({ allowed: true, impersonation: { mode: 'legacy' }, decision: { decidedBy: 'privileged-group' } });
  });
  it('impersonating a uid needs uids in authentication.k8s.io', () => {
    expect(
      engine.authorizeImpersonated(user('legacy-admin'), { user: 'x', uid: '42' }, { resource: res('get', '', 'pods', { namespace: 'ns', name: 'p' }) })
        .impersonation.allowed,
    ).toBe(false);
  });
  it('groups without a user is a bad request', () => {
    expect(engine.authorizeImpersonated(user('legacy-admin'), { user: '', groups: ['g'] }, statusOf('n1')).reason).toContain('requires a user');
  });
});
