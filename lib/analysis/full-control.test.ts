import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, rb, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { UserInfo } from '@/lib/authz/types';
import { describeSubject, refKey } from '@/lib/k8s/refs';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import type { AnalysisContext } from './context-types';
import { buildAnalysisContext } from './context/build-analysis-context';
import { Q } from './context/questions';
import { FullControlIndex } from './full-control';
import { impersonatorsOf } from './impersonation-reach';
import { userForSubject } from './node-writers/subjects';
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

// FullControlIndex decides an identity already found as an impersonator only for the first holder, and
// asks the create of a ClusterRoleBinding once before both ways through one. Held here to the plain
// decision (every holder's impersonators, every canCreate asked) on random RBAC over the paths above.
describe('full control on random RBAC: the same answer as the plain decision', () => {
  const RULES: PolicyRule[] = [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['alice', 'bob'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['system:masters', 'oncall'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] },
    { verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['root'] },
    { verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] },
    { verbs: ['create', 'escalate'], apiGroups: [RBAC], resources: ['clusterroles'] },
    { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'] },
    { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['cluster-admin'] },
    { verbs: ['update', 'escalate'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['c1', 'c3'] },
    { verbs: ['patch'], apiGroups: [RBAC], resources: ['clusterroles'] },
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] },
  ];
  const POOL: Subject[] = [User('alice'), User('bob'), User('carol'), Group('oncall'), Group('ops'), SA('ops', 'root'), SA('team', 'app'), SA('team', 'ci')];

  for (let seed = 1; seed <= 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(seed);
      const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
      const roles = Array.from({ length: 6 }, (_, i) => clusterRole(`c${i}`, some(RULES, 2)));
      const state = stateOf({
        clusterRoles: r.chance(0.8) ? [ADMIN, ...roles] : roles,
        clusterRoleBindings: Array.from({ length: 2 + r.int(6) }, (_, i) =>
          crb(`crb${i}`, { kind: 'ClusterRole', name: r.chance(0.15) ? 'cluster-admin' : r.pick(roles).metadata.name }, some(POOL, 2)),
        ),
        roleBindings: Array.from({ length: r.int(4) }, (_, i) =>
          rb('team', `rb${i}`, { kind: 'ClusterRole', name: r.pick(roles).metadata.name }, some(POOL, 2)),
        ),
      });
      const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
      const index = new FullControlIndex(ctx);
      const plain = plainFullControl(ctx);
      const asked: SubjectRef[] = [
        ...POOL.map(({ kind, name, namespace }) => ({ kind: kind as SubjectRef['kind'], name, ...(namespace ? { namespace } : {}) })),
        { kind: 'Group', name: 'system:masters' },
      ];
      for (const s of asked) expect(index.of(s), refKey(s)).toBe(plain(s));
    });
  }
});

/** The decision of FullControlIndex without its shortcuts: every holder's impersonators, every escalation path asked in full. */
function plainFullControl(ctx: AnalysisContext): (s: SubjectRef) => string | undefined {
  const EVERYTHING = { verb: '*', group: '*', resource: '*', subresource: '', namespace: '', name: '' };
  const PROBE = 'dra-posture-probe-full-control';
  const impersonators = new Map<string, string>();
  const masters: SubjectRef = { kind: 'Group', name: 'system:masters' };
  for (const holder of [masters, ...ctx.access.rbacWhoCan(Q.adminProbe).map((e) => e.subject)])
    for (const imp of impersonatorsOf(ctx, holder, { resource: EVERYTHING })) {
      const key = refKey(imp.subject);
      if (!impersonators.has(key)) impersonators.set(key, `${describeSubject(holder)} (${imp.decision.impersonation.mode} impersonation)`);
    }
  const binding = (s: SubjectRef, role: string): ClusterRoleBinding => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: PROBE },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ kind: s.kind, name: s.name, ...(s.kind === 'ServiceAccount' ? { namespace: s.namespace } : { apiGroup: RBAC }) }],
  });
  const everything: ClusterRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: PROBE },
    rules: [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ],
  };
  const escalation = (s: SubjectRef, user: UserInfo): string | undefined => {
    const { engine } = ctx;
    if (engine.rbac.clusterRoles.has('cluster-admin') && engine.canCreate(user, binding(s, 'cluster-admin')).allowed)
      return 'may bind ClusterRole cluster-admin to itself cluster-wide (create clusterrolebindings, bind)';
    if (engine.canCreate(user, everything).allowed && engine.canCreate(user, binding(s, PROBE)).allowed)
      return 'may create a ClusterRole with every permission and bind it to itself (escalate, bind)';
    const allows = (verb: string, name: string) =>
      engine.authorize({ user, resource: { verb, group: RBAC, resource: 'clusterroles', subresource: '', namespace: '', name } }).allowed;
    const bound = new Set(
      engine
        .rulesFor(user, '')
        .filter((g) => g.binding.kind === 'ClusterRoleBinding')
        .map((g) => g.role.name),
    );
    for (const role of [...bound].sort())
      if (allows('escalate', role) && (allows('update', role) || allows('patch', role)))
        return `may add any permission to ClusterRole ${role}, which is bound to it cluster-wide (update, escalate)`;
    return undefined;
  };
  return (s) => {
    if (ctx.isAdminEquivalent(s))
      return s.kind === 'Group' && s.name === 'system:masters' ? 'is system:masters' : 'holds * on * in every API group (cluster-admin equivalent)';
    const impersonated = impersonators.get(refKey(s));
    if (impersonated) return `may impersonate ${impersonated}`;
    return escalation(s, userForSubject(s));
  };
}
