import { describe, expect, it } from 'vitest';
import type { PolicyRule, Subject, SubjectRef } from '@/lib/k8s/types';
import { compareStrings } from '@/lib/k8s/refs';
import { createRandom } from '@/scripts/bench/prng';
import { clusterRole, crb, Group, rb, role, SA, stateOf, User } from './__fixtures__/builders';
import { createAuthzEngine } from './authz-engine';
import { ruleAllowsResource } from './rule-matches';
import type { ResourceAttributes } from './types';
import { rbacSubjectKeys, rbacSubjects, type WhoCanGrant } from './who-can';

// who-can matches the rules without resourceNames once per verb and resource and tests only the rules
// that list names per question, keeping the answer of a name no rule lists. Checked against the RBAC
// authorizer's plain rule: a binding applies (ClusterRoleBindings everywhere, RoleBindings in their
// namespace) when its role has a rule allowing the request, and its grant is the role's first such rule.
// Random RBAC with resourceNames (including "" and empty lists), names listed and not, asked twice.

const GROUPS = ['', 'resource.k8s.io', '*'];
const RESOURCES = ['users', 'resourceclaims', 'resourceclaims/status', '*', '*/status'];
const VERBS = ['impersonate', 'get', 'update', '*'];
const NAMES = ['x', 'y', ''];
const NSS = ['a', 'b'];

const keyOf = (s: SubjectRef) => `${s.kind}/${s.namespace ?? ''}/${s.name}`;
const byBinding = (a: WhoCanGrant, b: WhoCanGrant) =>
  compareStrings(a.binding.kind, b.binding.kind) ||
  compareStrings(a.binding.namespace ?? '', b.binding.namespace ?? '') ||
  compareStrings(a.binding.name, b.binding.name);

describe('who-can rule matching per verb and resource', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`answers as the plain rule test, for every name and namespace (seed ${seed})`, () => {
      const r = createRandom(4200 + seed);
      const some = <T>(list: readonly T[], max: number) => [...new Set(Array.from({ length: 1 + r.int(max) }, () => r.pick(list)))];
      const rule = (): PolicyRule => ({
        apiGroups: some(GROUPS, 2),
        resources: some(RESOURCES, 2),
        verbs: some(VERBS, 2),
        ...(r.chance(0.35) ? { resourceNames: r.chance(0.15) ? [] : some(NAMES, 2) } : {}),
      });
      const rules = () => Array.from({ length: 1 + r.int(4) }, rule);
      const subjects = (): Subject[] =>
        Array.from({ length: 1 + r.int(3) }, () => r.pick([Group('g'), Group('h'), User('alice'), User('bob'), SA('a', 'x'), SA('b', 'y')]));
      const clusterRoles = Array.from({ length: 8 }, (_, i) => clusterRole(`c${i}`, rules()));
      const roles = NSS.map((ns, i) => role(ns, `r${i}`, rules()));
      const state = stateOf({
        clusterRoles,
        roles,
        clusterRoleBindings: Array.from({ length: 6 }, (_, i) => crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, subjects())),
        roleBindings: Array.from({ length: 8 }, (_, i) => {
          const ns = r.pick(NSS);
          const roleRef = r.chance(0.4)
            ? { kind: 'Role', name: roles[NSS.indexOf(ns)].metadata.name }
            : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
          return rb(ns, `rb${i}`, roleRef, subjects());
        }),
      });
      const engine = createAuthzEngine(state, { chain: ['RBAC'] });
      const rbac = engine.rbac;
      for (let round = 0; round < 2; round++)
        for (const group of GROUPS.filter((g) => g !== '*'))
          for (const combined of RESOURCES.filter((x) => !x.startsWith('*')))
            for (const verb of VERBS.filter((v) => v !== '*'))
              for (const namespace of ['', ...NSS])
                for (const name of [...NAMES, 'unlisted']) {
                  const [resource, subresource = ''] = combined.split('/');
                  const attrs: ResourceAttributes = { verb, group, resource, subresource, namespace, name };
                  const plain = new Map<string, WhoCanGrant[]>();
                  const plainSubjects = new Map<string, SubjectRef>();
                  for (const b of rbac.bindings) {
                    if (!b.role || (b.ref.kind === 'RoleBinding' && b.ref.namespace !== namespace)) continue;
                    const ruleIndex = b.role.rules.findIndex((x) => ruleAllowsResource(x.rule, attrs));
                    if (ruleIndex < 0) continue;
                    const from = b.role.rules[ruleIndex].from;
                    for (const s of b.subjects) {
                      const grants = plain.get(keyOf(s)) ?? [];
                      grants.push({ binding: b.ref, role: b.role.ref, ruleIndex, ...(from ? { aggregatedFrom: from } : {}) });
                      plain.set(keyOf(s), grants);
                      plainSubjects.set(keyOf(s), s);
                    }
                  }
                  const label = `${verb} ${group}/${combined} ${namespace}/${name} round ${round}`;
                  const query = { resource: attrs };
                  const entries = engine.whoCan(query).filter((e) => e.via === 'rbac');
                  expect(new Map(entries.map((e) => [keyOf(e.subject), e.grants])), label).toEqual(
                    new Map([...plain].map(([k, grants]) => [k, [...grants].sort(byBinding)])),
                  );
                  const subjects = rbacSubjects(rbac, query);
                  expect(subjects, label).toStrictEqual(entries.map((e) => e.subject));
                  expect(new Set(subjects.map(keyOf)), label).toEqual(new Set(plainSubjects.keys()));
                  const keys = rbacSubjectKeys(rbac, query);
                  expect(keys, label).toEqual(new Set(plainSubjects.keys()));
                  // Answers kept for names no rule lists are handed out as copies: changing one changes no later answer.
                  subjects.push({ kind: 'User', name: 'intruder' });
                  keys.add('User//intruder');
                  expect(rbacSubjects(rbac, query), label).toStrictEqual(entries.map((e) => e.subject));
                  expect(rbacSubjectKeys(rbac, query).has('User//intruder'), label).toBe(false);
                }
    });
  }
});
