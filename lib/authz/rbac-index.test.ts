import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { clusterRole, crb, Group, rb, role, stateOf } from './__fixtures__/builders';
import { bindingsOfRoleIn, buildRbacIndex, candidateRules, candidateRulesFor } from './rbac-index';
import { ruleAllowsResource } from './rule-matches';

// The index's shortcuts must never lose a rule or a binding that applies: checked on random rules
// (wildcard groups, wildcard resources, "*" + "/sub", subresources, several groups per rule) against
// testing every rule and every binding.

const GROUPS = ['', 'apps', 'resource.k8s.io', '*'];
const RESOURCES = ['pods', 'pods/status', 'pods/exec', 'nodes', 'nodes/status', 'resourceclaims', 'resourceclaims/status', '*', '*/status', '*/exec'];
const VERBS = ['get', 'update', 'patch', 'impersonate', '*'];
const NSS = ['a', 'b', 'c'];

describe('candidateRules, candidateRulesFor and bindingsOfRoleIn', () => {
  for (let seed = 1; seed <= 40; seed++) {
    it(`miss no rule that matches and no binding that applies (seed ${seed})`, () => {
      const r = createRandom(500 + seed);
      const some = <T>(list: readonly T[], max: number) => [...new Set(Array.from({ length: 1 + r.int(max) }, () => r.pick(list)))];
      const rule = (): PolicyRule => ({ apiGroups: some(GROUPS, 2), resources: some(RESOURCES, 3), verbs: some(VERBS, 2) });
      const rules = () => Array.from({ length: 1 + r.int(4) }, rule);
      const clusterRoles = Array.from({ length: 8 }, (_, i) => clusterRole(`c${i}`, rules()));
      const roles = NSS.map((ns, i) => role(ns, `r${i}`, rules()));
      const index = buildRbacIndex(
        stateOf({
          clusterRoles,
          roles,
          clusterRoleBindings: Array.from({ length: 5 }, (_, i) =>
            crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, [Group('g')]),
          ),
          roleBindings: Array.from({ length: 12 }, (_, i) => {
            const ns = r.pick(NSS);
            const roleRef = r.chance(0.4)
              ? { kind: 'Role', name: roles[NSS.indexOf(ns)].metadata.name }
              : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
            return rb(ns, `rb${i}`, roleRef, [Group('g')]);
          }),
        }),
      );
      const every = [...index.clusterRoles.values(), ...[...index.roles.values()].flatMap((m) => [...m.values()])].flatMap((role) =>
        role.rules.map((_, ruleIndex) => ({ role, ruleIndex })),
      );
      for (const group of GROUPS.filter((g) => g !== '*'))
        for (const combined of RESOURCES.filter((x) => !x.startsWith('*'))) {
          const [resource, subresource = ''] = combined.split('/');
          for (const verb of VERBS.filter((v) => v !== '*')) {
            const attrs = { verb, group, resource, subresource, namespace: '', name: '' };
            const matching = every.filter((ref) => ruleAllowsResource(ref.role.rules[ref.ruleIndex].rule, attrs));
            const candidates = candidateRules(index, group, resource, subresource).map((ref) => `${ref.role.key} #${ref.ruleIndex}`);
            expect(new Set(candidates).size).toBe(candidates.length);
            for (const ref of matching) expect(candidates, `for ${group}/${combined}`).toContain(`${ref.role.key} #${ref.ruleIndex}`);
            const forVerb = candidateRulesFor(index, verb, group, resource, subresource).map((ref) => `${ref.role.key} #${ref.ruleIndex}`);
            for (const ref of matching) expect(forVerb, `for ${verb} ${group}/${combined}`).toContain(`${ref.role.key} #${ref.ruleIndex}`);
          }
        }
      for (const [key, all] of index.bindingsByRole)
        for (const ns of ['', ...NSS]) {
          const applies = all.filter((b) => b.ref.kind === 'ClusterRoleBinding' || (ns !== '' && b.ref.namespace === ns));
          expect(bindingsOfRoleIn(index, key, ns)).toEqual(applies);
        }
    });
  }
});
