import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, rb, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { contextOf } from '../__fixtures__/builders';
import { canonicalSubject } from '@/lib/analysis/context/identities';
import { refKey } from '@/lib/k8s/refs';
import { createRandom } from '@/scripts/bench/prng';
import { dra010 as escalationCheck } from './dra-escalation-check';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite } from '@/lib/authz/simulate-write';
import { buildReport } from '@/lib/report/build-report';
import type { ClusterState } from '@/lib/k8s/cluster-state';

// DRA010: bind or escalate, plus create on bindings, reach DRA writes the identity does not hold.
const RBAC = 'rbac.authorization.k8s.io';
const claimWriter = clusterRole('claim-writer', [{ verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }]);
const podReader = clusterRole('pod-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
const createBindings = clusterRole('binding-creator', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] }]);
const binder = (names: string[]) => clusterRole('binder', [{ verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: names }]);
const escalator = clusterRole('escalator', [{ verbs: ['escalate', 'create', 'update'], apiGroups: [RBAC], resources: ['clusterroles'] }]);
const bound = (role: string) => crb(`mallory-${role}`, { kind: 'ClusterRole', name: role }, [User('mallory')]);
const dra010 = (state: ClusterState) => buildReport(state).findings.filter((f) => f.check === 'DRA010');

describe('DRA010', () => {
  it('bind on a role with DRA writes plus create on bindings is a finding, and the path is real (the simulator accepts the binding)', () => {
    const state = stateOf({
      clusterRoles: [claimWriter, podReader, createBindings, binder(['claim-writer'])],
      clusterRoleBindings: [bound('binder'), bound('binding-creator')],
    });
    const findings = dra010(state);
    expect(findings).toHaveLength(1);
    expect(findings[0].subjects).toEqual([{ kind: 'User', name: 'mallory' }]);
    expect(findings[0].objects.map((o) => o.name)).toEqual(expect.arrayContaining(['binder', 'binding-creator']));
    const grant = {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'self' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'claim-writer' },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: 'mallory' }],
    };
    const sim = simulateWrite(createAuthzEngine(state), {
      user: { name: 'mallory', groups: ['system:authenticated'] },
      attributes: { verb: 'create', group: RBAC, resource: 'clusterrolebindings', subresource: '', namespace: '', name: '' },
      object: grant,
    });
    expect(sim.allowed).toBe(true);
    expect(sim.steps.at(-1)!.reason).toContain('may bind');
  });

  it('no finding when the bindable roles grant no DRA write, or when bindings cannot be created', () => {
    expect(
      dra010(
        stateOf({
          clusterRoles: [claimWriter, podReader, createBindings, binder(['pod-reader'])],
          clusterRoleBindings: [bound('binder'), bound('binding-creator')],
        }),
      ),
    ).toEqual([]);
    expect(dra010(stateOf({ clusterRoles: [claimWriter, binder(['claim-writer'])], clusterRoleBindings: [bound('binder')] }))).toEqual([]);
  });

  it('escalate with write access to ClusterRoles plus create on bindings reaches every DRA write', () => {
    const findings = dra010(stateOf({ clusterRoles: [escalator, createBindings], clusterRoleBindings: [bound('escalator'), bound('binding-creator')] }));
    expect(findings).toHaveLength(1);
    expect(findings[0].evidence.length).toBeGreaterThan(1);
  });

  it('leaves admin-equivalents to DRA001 and RoleBinding-scoped binders in their namespace', () => {
    const admin = clusterRole('cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
    expect(
      dra010(stateOf({ clusterRoles: [admin], clusterRoleBindings: [crb('root', { kind: 'ClusterRole', name: 'cluster-admin' }, [User('root')])] })),
    ).toEqual([]);
    const nsRoles = stateOf({
      clusterRoles: [claimWriter, binder(['claim-writer']), clusterRole('rb-creator', [{ verbs: ['create'], apiGroups: [RBAC], resources: ['rolebindings'] }])],
      roleBindings: [
        rb('team', 'b1', { kind: 'ClusterRole', name: 'binder' }, [User('eve')]),
        rb('team', 'b2', { kind: 'ClusterRole', name: 'rb-creator' }, [User('eve')]),
      ],
    });
    expect(dra010(nsRoles).map((f) => f.subjects[0].name)).toEqual(['eve']);
  });
});

// DRA010 asks the create/write questions about the holders of bind and escalate only (whoCanAmong);
// on random RBAC it must report what it reports when every question is the whole cluster's answer.
describe('DRA010 on random RBAC', () => {
  const NSS = ['t0', 't1'];
  const RULES = [
    { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'] },
    { verbs: ['bind'], apiGroups: [RBAC], resources: ['clusterroles'], resourceNames: ['c0'] },
    { verbs: ['escalate', 'update'], apiGroups: [RBAC], resources: ['clusterroles', 'roles'] },
    { verbs: ['create'], apiGroups: [RBAC], resources: ['clusterrolebindings'] },
    { verbs: ['create'], apiGroups: [RBAC], resources: ['rolebindings'] },
    { verbs: ['create', 'patch'], apiGroups: [RBAC], resources: ['roles'] },
    { verbs: ['*'], apiGroups: [RBAC], resources: ['*'] },
    { verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] },
    { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
  ];
  const pool = [User('mallory'), User('eve'), Group('devs'), SA('t0', 'app'), SA('t1', 'ci'), Group('system:serviceaccounts:t1')];

  for (let seed = 1; seed <= 60; seed++) {
    it(`reports as from the whole answers (seed ${seed})`, () => {
      const r = createRandom(seed);
      const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
      const clusterRoles = RULES.map((rule, i) => clusterRole(`c${i}`, some(RULES, 2).concat(rule)));
      const parts = {
        clusterRoles,
        roles: NSS.map((ns) => role(ns, 'local', some(RULES, 3))),
        clusterRoleBindings: Array.from({ length: 1 + r.int(6) }, (_, i) =>
          crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, some(pool, 2)),
        ),
        roleBindings: Array.from({ length: 2 + r.int(6) }, (_, i) => {
          const ns = r.pick(NSS);
          const roleRef = r.chance(0.5) ? { kind: 'Role', name: 'local' } : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
          return rb(ns, `rb${i}`, roleRef, some(pool, 2));
        }),
      };
      const fast = escalationCheck.run(contextOf(parts));
      // The plain path: whoCanAmong answered from the whole cluster's answer.
      const ctx = contextOf(parts);
      ctx.access.whoCanAmong = (q, subjects) => {
        const keys = new Set(subjects.map((s) => refKey(canonicalSubject(s))));
        return ctx.access.whoCan(q).filter((e) => keys.has(refKey(e.subject)));
      };
      expect(fast).toEqual(escalationCheck.run(ctx));
    });
  }
});
