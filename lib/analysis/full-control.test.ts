import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { PolicyRule } from '@/lib/k8s/types';
import { buildAnalysisContext } from './context/build-analysis-context';
import { FullControlIndex } from './full-control';
import { DEFAULT_SETTINGS } from './settings';

// Full control of the cluster by each path the API server leaves open (authz-semantics.md §5, §7): a
// cluster with the bootstrap cluster-admin role, one ClusterRole under test bound to User alice, and
// near misses that must not count.

const RBAC = 'rbac.authorization.k8s.io';
const ADMIN = clusterRole('cluster-admin', [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
]);

function fullControlOfAlice(rules: PolicyRule[], extra: { roles?: ReturnType<typeof clusterRole>[] } = {}): string | undefined {
  const state = stateOf({
    clusterRoles: [ADMIN, clusterRole('under-test', rules), ...(extra.roles ?? [])],
    clusterRoleBindings: [
      crb('under-test', { kind: 'ClusterRole', name: 'under-test' }, [User('alice')]),
      ...(extra.roles ?? []).map((r) => crb(r.metadata.name, { kind: 'ClusterRole', name: r.metadata.name }, [User('alice')])),
    ],
  });
  const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
  return new FullControlIndex(ctx).of({ kind: 'User', name: 'alice' });
}

describe('full control of the cluster', () => {
  it('* on * in every group is full control; * on every resource of one group is not', () => {
    expect(fullControlOfAlice([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])).toMatch(/cluster-admin equivalent/);
    expect(fullControlOfAlice([{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }])).toBeUndefined();
  });

  it('legacy impersonation of any user and group reaches system:masters; of named users only, it does not', () => {
    expect(fullControlOfAlice([{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] }])).toMatch(/impersonate Group system:masters/);
    expect(fullControlOfAlice([{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['bob'] }])).toBeUndefined();
    // Groups without a user to impersonate: the API server needs Impersonate-User, so nothing is reached.
    expect(fullControlOfAlice([{ verbs: ['impersonate'], apiGroups: [''], resources: ['groups'] }])).toBeUndefined();
  });

  it('impersonating a service account bound to cluster-admin is full control', () => {
    const state = stateOf({
      clusterRoles: [
        ADMIN,
        clusterRole('sa-impersonator', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['root'] }]),
      ],
      clusterRoleBindings: [
        crb('root-admin', { kind: 'ClusterRole', name: 'cluster-admin' }, [SA('ops', 'root')]),
        crb('imp', { kind: 'ClusterRole', name: 'sa-impersonator' }, [Group('oncall')]),
      ],
    });
    const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
    expect(new FullControlIndex(ctx).of({ kind: 'Group', name: 'oncall' })).toMatch(/impersonate ServiceAccount ops\/root/);
  });

  it('bind on cluster-admin with create clusterrolebindings is full control; create without bind is not', () => {
    const create: PolicyRule = { verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] };
    expect(fullControlOfAlice([create, { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['cluster-admin'] }])).toMatch(
      /bind ClusterRole cluster-admin/,
    );
    expect(fullControlOfAlice([create])).toBeUndefined();
    // bind on another role only: binding cluster-admin is refused.
    expect(fullControlOfAlice([create, { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['view'] }])).toBeUndefined();
  });

  it('escalate with create on clusterroles and unscoped bind: a new all-powerful role bound to itself, even with no cluster-admin role', () => {
    const rules: PolicyRule[] = [
      { verbs: ['create', 'escalate', 'bind'], apiGroups: [RBAC], resources: ['clusterroles'] },
      { verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] },
    ];
    // Unscoped bind covers cluster-admin too.
    expect(fullControlOfAlice(rules)).toMatch(/bind ClusterRole cluster-admin/);
    const withoutClusterAdmin = (r: PolicyRule[]) => {
      const state = stateOf({
        clusterRoles: [clusterRole('under-test', r)],
        clusterRoleBindings: [crb('under-test', { kind: 'ClusterRole', name: 'under-test' }, [User('alice')])],
      });
      return new FullControlIndex(buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS)).of({ kind: 'User', name: 'alice' });
    };
    expect(withoutClusterAdmin(rules)).toMatch(/create a ClusterRole with every permission/);
    // Without escalate the new role's rules must be held already: the create is refused.
    expect(withoutClusterAdmin(rules.map((r) => ({ ...r, verbs: r.verbs.filter((v) => v !== 'escalate') })))).toBeUndefined();
  });

  it('escalate and update on a ClusterRole bound to it is full control; on a role not bound to it, it is not', () => {
    const own = [{ verbs: ['update', 'escalate'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['under-test'] }];
    expect(fullControlOfAlice(own)).toMatch(/add any permission to ClusterRole under-test/);
    const other = [{ verbs: ['update', 'escalate'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['unbound'] }];
    expect(fullControlOfAlice(other)).toBeUndefined();
    // update without escalate: the storage layer refuses rules it does not hold.
    expect(fullControlOfAlice([{ verbs: ['update'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['under-test'] }])).toBeUndefined();
  });
});
