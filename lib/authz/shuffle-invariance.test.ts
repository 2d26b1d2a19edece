import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { createAuthzEngine } from './authz-engine';
import { clusterRole, crb, Group, node, pod, rb, res, role, SA, stateOf, User, user } from './__fixtures__/builders';
import type { AuthzRequest } from './types';

// Property: the order objects arrive in (API list order, file order) changes no answer, no reason
// and no who-can result.
const base = stateOf({
  nodes: [node('n1'), node('n2')],
  pods: [
    pod('a', 'p1', { nodeName: 'n1', serviceAccountName: 'sa1' }),
    pod('b', 'p2', { nodeName: 'n2', volumes: [{ name: 'v', secret: { secretName: 's' } }] }),
  ],
  clusterRoles: [
    clusterRole('view', null, { aggregate: [{ matchLabels: { agg: 'view' } }] }),
    clusterRole('v1', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { labels: { agg: 'view' } }),
    clusterRole('v2', [{ verbs: ['list'], apiGroups: ['resource.k8s.io'], resources: ['*'] }], { labels: { agg: 'view' } }),
    clusterRole('all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
    clusterRole('status', [{ verbs: ['update'], apiGroups: [''], resources: ['nodes/status'] }]),
  ],
  roles: [role('a', 'r', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s'] }])],
  clusterRoleBindings: [
    crb('c1', { kind: 'ClusterRole', name: 'view' }, [Group('viewers'), User('u1')]),
    crb('c2', { kind: 'ClusterRole', name: 'status' }, [SA('a', 'sa1')]),
    crb('c3', { kind: 'ClusterRole', name: 'all' }, [User('admin')]),
  ],
  roleBindings: [
    rb('a', 'b1', { kind: 'Role', name: 'r' }, [User('u2'), SA(undefined, 'sa1')]),
    rb('b', 'b2', { kind: 'ClusterRole', name: 'view' }, [User('u2')]),
  ],
});

const users = [
  user('u1'),
  user('u2'),
  user('x', 'viewers'),
  user('admin'),
  user('system:serviceaccount:a:sa1', 'system:serviceaccounts'),
  user('system:node:n2', 'system:nodes'),
];
const attrs = [
  res('get', '', 'pods', { namespace: 'a', name: 'p1' }),
  res('list', 'resource.k8s.io', 'resourceclaims', { namespace: 'b' }),
  res('get', '', 'secrets', { namespace: 'a', name: 's' }),
  res('get', '', 'secrets', { namespace: 'b', name: 's' }),
  res('update', '', 'nodes', { name: 'n1', subresource: 'status' }),
  res('delete', 'apps', 'deployments', { namespace: 'a', name: 'd' }),
];
const requests: AuthzRequest[] = users.flatMap((u) => attrs.map((a) => ({ user: u, resource: a })));

function answers(state: ClusterState) {
  const engine = createAuthzEngine(state);
  return {
    decisions: requests.map((r) => engine.authorize(r)),
    whoCan: attrs.map((a) => engine.whoCan({ resource: a })),
  };
}

const shuffled = <T>(list: T[]) => fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length });

describe('input order invariance', () => {
  const expected = answers(base);
  it('sanity: the fixture has both answers', () => {
    expect(expected.decisions.filter((d) => d.allowed).length).toBeGreaterThan(5);
    expect(expected.decisions.filter((d) => !d.allowed).length).toBeGreaterThan(5);
  });
  it('shuffling every collection changes no decision, reason or who-can result', () => {
    fc.assert(
      fc.property(
        shuffled(base.clusterRoles),
        shuffled(base.clusterRoleBindings),
        shuffled(base.roleBindings),
        shuffled(base.pods),
        shuffled(base.nodes),
        (clusterRoles, clusterRoleBindings, roleBindings, pods, nodes) => {
          const got = answers({ ...base, clusterRoles, clusterRoleBindings, roleBindings, pods, nodes });
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
