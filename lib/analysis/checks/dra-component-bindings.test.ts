import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { Group, SA, User } from '@/lib/authz/__fixtures__/builders';
import { randomRbacState } from '@/lib/authz/__fixtures__/random-rbac';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { PolicyRule, Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { draComponentBindings } from './dra-component-bindings';
import { boundRoles } from './dra-shared';

// draComponentBindings must give what DRA009 read from a bound role's built bindings: each binding's
// canonical subjects that are DRA component service accounts and not admin-equivalent. On random RBAC
// where some accounts (and users named as accounts) write ResourceSlices or claim status (components),
// some hold everything (admin-equivalent), and others only read, bound by ClusterRoleBindings and
// RoleBindings in several namespaces; and with an account whose name the context's component list cannot
// give back (a '/' in it), where every role is read.

const NSS = ['drivers', 'gpu', 'tenant'];
const RULES: PolicyRule[] = [
  { apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['create'] },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] },
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['get'] },
  { apiGroups: ['apps'], resources: ['daemonsets'], verbs: ['get'] },
];
const SUBJECTS: Subject[] = [
  SA('drivers', 'plugin'),
  SA('drivers', 'controller'),
  SA('gpu', 'plugin'),
  SA('gpu', 'exporter'),
  SA('tenant', 'app'),
  User('system:serviceaccount:gpu:plugin'),
  User('system:serviceaccount:drivers:ops'),
  User('system:serviceaccount:tenant:a:b'),
  User('bob'),
  Group('ops'),
  Group('system:serviceaccounts:gpu'),
];
const ODD: Subject[] = [SA('gpu', 'odd/name'), User('system:serviceaccount:drivers:x/y')];

/** DRA009's reading before: the role's built bindings (boundRoles), their subjects tested one by one. */
function plainComponentBindings(ctx: ReturnType<typeof buildAnalysisContext>, bound: ReturnType<typeof boundRoles>[number]) {
  return bound.bindings
    .map((b) => ({
      ref: b.ref,
      subjects: b.subjects.filter((s: SubjectRef) => s.kind === 'ServiceAccount' && ctx.isDraComponent(s) && !ctx.isAdminEquivalent(s)),
    }))
    .filter((b) => b.subjects.length > 0);
}

describe('draComponentBindings on random RBAC', () => {
  const found = { roles: 0, none: 0 };
  for (let seed = 1; seed <= 60; seed++) {
    it(`equals the bound role's bindings filtered to components (seed ${seed})`, () => {
      const r = createRandom(5200 + seed);
      const subjects = seed % 4 === 0 ? [...SUBJECTS, ...ODD] : SUBJECTS;
      const state = randomRbacState(r, {
        rules: RULES,
        subjects,
        namespaces: NSS,
        clusterRoles: 6,
        rulesPerRole: 2,
        subjectsPerBinding: 3,
        clusterRoleBindings: { min: 1, spread: 4 },
        roleBindings: { min: 2, spread: 8 },
      });
      const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
      for (const bound of boundRoles(ctx)) {
        const expected = plainComponentBindings(ctx, bound);
        expect([bound.role.key, draComponentBindings(ctx, bound.role)]).toStrictEqual([bound.role.key, expected]);
        if (expected.length > 0) found.roles++;
        else found.none++;
      }
    });
  }
  it('finds roles bound to components and roles that are not (the cases above are not vacuous)', () => {
    expect(found.roles).toBeGreaterThan(100);
    expect(found.none).toBeGreaterThan(100);
  });
});
