import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, rb, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { describeSubject } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import { changedGrantees, inputsForChangedGrantees, isChangedGrantee } from './changed-grantees';
import { bindingSubjects, draPermissions, permissionScopeOf } from './dra-permissions';
import { permissionInputsOf, permissionInputsState } from './permission-inputs';

// Drift asks only the subjects whose grants changed. RBAC semantics decide who that is: a subject
// asked as itself matches the bindings naming it (a service account also as the User
// `system:serviceaccount:ns:name`), through the roles they reference, a ClusterRole's rules
// including what aggregation gathers. Each case checks the set against asking every subject.

const CLAIMS: PolicyRule[] = [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['get', 'list'] }];
const STATUS: PolicyRule[] = [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] }];
const AGG = { 'rbac.example.com/aggregate-to-claims': 'true' };

function base(): ClusterState {
  return stateOf(
    {
      roles: [role('team-a', 'claims', CLAIMS)],
      clusterRoles: [
        clusterRole('claims-admin', [], { aggregate: [{ matchLabels: AGG }] }),
        clusterRole('status-writer', STATUS),
        clusterRole('unrelated', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]),
      ],
      roleBindings: [
        rb('team-a', 'app', { kind: 'Role', name: 'claims' }, [SA('team-a', 'app')]),
        rb('team-a', 'devs', { kind: 'ClusterRole', name: 'claims-admin' }, [Group('team-a-devs')]),
      ],
      clusterRoleBindings: [crb('ops', { kind: 'ClusterRole', name: 'status-writer' }, [User('ops'), SA('ops', 'bot')])],
    },
    'v1.36.3',
  );
}

/** Subjects whose DRA permission lines differ, asking every subject on both sides. */
function differing(a: ClusterState, b: ClusterState): string[] {
  const subjects = new Map([...bindingSubjects(a), ...bindingSubjects(b)].map((s) => [describeSubject(s), s]));
  const scope = permissionScopeOf([permissionInputsOf(a), permissionInputsOf(b)]);
  const p = draPermissions(a, [...subjects.values()], scope);
  const q = draPermissions(b, [...subjects.values()], scope);
  const lines = (m: typeof p, k: string) => [...(m.get(k)?.permissions ?? [])].sort().join('\n');
  return [...subjects.keys()].filter((k) => lines(p, k) !== lines(q, k)).sort();
}

function changedOf(a: ClusterState, b: ClusterState): string[] {
  const changed = changedGrantees(permissionInputsOf(a), permissionInputsOf(b));
  return [...bindingSubjects(a), ...bindingSubjects(b)]
    .filter((s) => isChangedGrantee(changed, s))
    .map(describeSubject)
    .filter((k, i, all) => all.indexOf(k) === i)
    .sort();
}

describe('changedGrantees', () => {
  it('no change: no subject is asked', () => {
    const changed = changedGrantees(permissionInputsOf(base()), permissionInputsOf(base()));
    expect(changed).toEqual({ all: false, users: new Set(), groups: new Set() });
  });

  it("a Role's rules change: only the subjects bound to it", () => {
    const b = base();
    b.roles = [role('team-a', 'claims', [...CLAIMS, ...STATUS])];
    expect(differing(base(), b)).toEqual(['ServiceAccount team-a/app']);
    expect(changedOf(base(), b)).toEqual(['ServiceAccount team-a/app']);
  });

  it('a ClusterRole aggregated into another: the subjects of the aggregating role too; one no selector picks: nobody', () => {
    const picked = base();
    picked.clusterRoles = [...picked.clusterRoles, clusterRole('claim-status', STATUS, { labels: AGG })];
    expect(differing(base(), picked)).toEqual(['Group team-a-devs']);
    expect(changedOf(base(), picked)).toEqual(['Group team-a-devs']);
    const unpicked = base();
    unpicked.clusterRoles = [...unpicked.clusterRoles, clusterRole('claim-status', STATUS)];
    expect(changedOf(base(), unpicked)).toEqual([]);
  });

  it('a service account is also named as the User system:serviceaccount:ns:name', () => {
    const b = base();
    b.clusterRoleBindings = [
      ...b.clusterRoleBindings,
      crb('alias', { kind: 'ClusterRole', name: 'status-writer' }, [User('system:serviceaccount:team-a:app')]),
    ];
    expect(differing(base(), b)).toEqual(['ServiceAccount team-a/app', 'User system:serviceaccount:team-a:app']);
    expect(changedOf(base(), b)).toEqual(['ServiceAccount team-a/app', 'User system:serviceaccount:team-a:app']);
  });

  it('a binding removed: its subjects; labels on a binding change no answer', () => {
    const b = base();
    b.clusterRoleBindings = [];
    b.roleBindings = b.roleBindings.map((x) => ({ ...x, metadata: { ...x.metadata, labels: { team: 'a' } } }));
    expect(differing(base(), b)).toEqual(['ServiceAccount ops/bot', 'User ops']);
    expect(changedOf(base(), b)).toEqual(['ServiceAccount ops/bot', 'User ops']);
  });

  it("the API server's flags change: every subject", () => {
    const b = base();
    b.pods = [
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'kube-apiserver-cp', namespace: 'kube-system' },
        spec: { containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', '--authorization-mode=AlwaysAllow'] }] },
      },
    ];
    expect(differing(base(), b).length).toBeGreaterThan(0);
    expect(changedGrantees(permissionInputsOf(base()), permissionInputsOf(b)).all).toBe(true);
  });

  it('the bindings kept for the changed subjects answer them as the whole cluster does', () => {
    const b = base();
    b.roles = [role('team-a', 'claims', [...CLAIMS, ...STATUS])];
    const changed = changedGrantees(permissionInputsOf(base()), permissionInputsOf(b));
    const inputs = permissionInputsOf(b);
    const kept = inputsForChangedGrantees(changed, inputs);
    expect(kept.roleBindings.map((x) => x.metadata.name)).toEqual(['app']);
    const subject = { kind: 'ServiceAccount' as const, namespace: 'team-a', name: 'app' };
    const scope = permissionScopeOf([inputs]);
    expect(draPermissions(permissionInputsState(kept), [subject], scope)).toEqual(draPermissions(b, [subject], scope));
  });
});
