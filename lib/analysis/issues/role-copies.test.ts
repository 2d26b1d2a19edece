import { describe, expect, it } from 'vitest';
import { role, stateOf } from '@/lib/authz/__fixtures__/builders';
import { buildRbacIndex } from '@/lib/authz/rbac-index';
import { fnv1a64 } from '@/lib/analysis/finding-id';
import { refKey } from '@/lib/k8s/refs';
import type { PolicyRule } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { roleCopyKeys } from './role-copies';

// Copies of a Role are the Roles of one name with the same rules in several namespaces. roleCopyKeys
// hashes only the rules of names met in more than one namespace: held to the plain grouping (every
// Role hashed, groups of one dropped) on random Roles.

const RULES: PolicyRule[] = [
  { verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
  { verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] },
  { verbs: ['create'], apiGroups: [''], resources: ['pods'] },
];

function plainRoleCopyKeys(index: ReturnType<typeof buildRbacIndex>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const [namespace, inNs] of index.roles)
    for (const [name, r] of inNs) {
      const key = `Role */${name}#${fnv1a64(JSON.stringify(r.rules.map((x) => x.rule)))}`;
      groups.set(key, [...(groups.get(key) ?? []), refKey({ kind: 'Role', namespace, name })]);
    }
  const out = new Map<string, string>();
  for (const [key, refs] of groups) if (refs.length > 1) for (const ref of refs) out.set(ref, key);
  return out;
}

describe('roleCopyKeys', () => {
  it('gives copies (same name and rules) one key; a Role of the same name with other rules, or of a name used once, none', () => {
    const keys = roleCopyKeys(
      buildRbacIndex(
        stateOf({
          roles: [role('a', 'claims', [RULES[0]]), role('b', 'claims', [RULES[0]]), role('c', 'claims', [RULES[1]]), role('d', 'lonely', [RULES[0]])],
        }),
      ),
    );
    const key = (ns: string, name: string) => keys.get(refKey({ kind: 'Role', namespace: ns, name }));
    expect(key('a', 'claims')).toBeDefined();
    expect(key('a', 'claims')).toBe(key('b', 'claims'));
    expect(key('c', 'claims')).toBeUndefined();
    expect(key('d', 'lonely')).toBeUndefined();
  });

  for (let seed = 1; seed <= 30; seed++) {
    it(`equals the plain grouping on random Roles (seed ${seed})`, () => {
      const r = createRandom(seed);
      const roles = Array.from({ length: 5 + r.int(40) }, (_, i) =>
        role(
          `ns-${r.int(8)}`,
          r.chance(0.5) ? `shared-${r.int(4)}` : `own-${i}`,
          Array.from({ length: 1 + r.int(2) }, () => r.pick(RULES)),
        ),
      );
      const index = buildRbacIndex(stateOf({ roles }));
      const keys = roleCopyKeys(index);
      expect([...keys].sort()).toEqual([...plainRoleCopyKeys(index)].sort());
    });
  }
});
