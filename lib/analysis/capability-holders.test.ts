import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { Group, node, SA, User } from '@/lib/authz/__fixtures__/builders';
import { randomRbacState } from '@/lib/authz/__fixtures__/random-rbac';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { PolicyRule, Subject, SubjectRef } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { CAPABILITIES } from './capabilities';
import { canonicalSubject } from './context/identities';

// A capability holding reads an identity's RBAC entries with AccessIndex.rbacEntriesFor, which does not
// ask about node identities (their entries are dropped): it must give the plain definition, the
// identity's entries of the whole cluster's RBAC answer, for users (whose group system:nodes is then
// left out), node users, groups (system:nodes and system:masters included) and service accounts, on
// random grants bound to all of them, for every question of the capability model.

const NSS = ['a', 'b'];
const RULES: PolicyRule[] = [
  ...CAPABILITIES.flatMap((c) =>
    c.questions.map((q) => ({
      apiGroups: [q.group],
      resources: [q.subresource ? `${q.resource}/${q.subresource}` : q.resource],
      verbs: [...q.verbs],
      ...(Array.isArray(q.names) && q.names.length > 0 && q.names[0] !== '' ? { resourceNames: [...q.names] } : {}),
    })),
  ),
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { apiGroups: ['resource.k8s.io'], resources: ['*'], verbs: ['update'], resourceNames: ['x'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
];
const SUBJECTS: Subject[] = [
  SA('a', 'app'),
  SA('b', 'ci'),
  User('bob'),
  User('system:serviceaccount:b:app'),
  User('system:node:n1'),
  Group('ops'),
  Group('system:nodes'),
  Group('system:masters'),
  Group('system:serviceaccounts:a'),
  Group('system:authenticated'),
];
const ASKED: SubjectRef[] = [
  { kind: 'ServiceAccount', namespace: 'a', name: 'app' },
  { kind: 'ServiceAccount', namespace: 'b', name: 'app' },
  { kind: 'User', name: 'bob' },
  { kind: 'User', name: 'carol' },
  { kind: 'User', name: 'system:node:n1' },
  { kind: 'User', name: 'system:serviceaccount:a:app' },
  { kind: 'Group', name: 'ops' },
  { kind: 'Group', name: 'system:nodes' },
  { kind: 'Group', name: 'system:masters' },
];

describe('AccessIndex.rbacEntriesFor on the capability questions', () => {
  let held = 0;
  for (let seed = 1; seed <= 40; seed++) {
    it(`equals entriesFor(rbacWhoCan(q)) (seed ${seed})`, () => {
      const r = createRandom(2300 + seed);
      const state = randomRbacState(
        r,
        {
          rules: RULES,
          subjects: SUBJECTS,
          namespaces: NSS,
          clusterRoles: 6,
          rulesPerRole: 4,
          subjectsPerBinding: 3,
          clusterRoleBindings: { min: 1, spread: 4 },
          roleBindings: { min: 1, spread: 6 },
        },
        { nodes: [node('n1')] },
      );
      const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);
      for (const cap of CAPABILITIES)
        for (const q of cap.questions)
          for (const subject of ASKED) {
            const expected = ctx.access.entriesFor(ctx.access.rbacWhoCan(q), canonicalSubject(subject));
            expect([cap.id, subject, ctx.access.rbacEntriesFor(q, subject)]).toEqual([cap.id, subject, expected]);
            if (expected.length > 0) held++;
          }
    });
  }
  it('finds holdings (the cases above are not vacuous)', () => {
    expect(held).toBeGreaterThan(1000);
  });
});
