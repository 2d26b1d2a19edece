import { fnv1a64 } from '@/lib/analysis/finding-id';
import type { RbacIndex } from '@/lib/authz/rbac-index';
import { refKey } from '@/lib/k8s/refs';

// A chart or onboarding template often stamps the same Role (same name, same rules) into every tenant
// namespace. A mistake in it is one cause with one fix (the template), not one issue per namespace:
// Roles that have copies get a shared root-cause key. A Role without copies keeps its own key.

/** Role ref key → the key its copies share (the name and a hash of the rules), only for Roles with copies. */
export function roleCopyKeys(index: Pick<RbacIndex, 'roles'>): Map<string, string> {
  // Copies share a name: a Role whose name is in no other namespace has none, and its rules are not
  // hashed (10,000 Roles of distinct names on a large cluster with varied RBAC).
  const namesSeen = new Map<string, number>();
  for (const inNs of index.roles.values()) for (const name of inNs.keys()) namesSeen.set(name, (namesSeen.get(name) ?? 0) + 1);
  const groups = new Map<string, string[]>();
  for (const [namespace, inNs] of index.roles) {
    for (const [name, role] of inNs) {
      if (namesSeen.get(name)! < 2) continue;
      const key = `Role */${name}#${fnv1a64(JSON.stringify(role.rules.map((r) => r.rule)))}`;
      const list = groups.get(key);
      const ref = refKey({ kind: 'Role', namespace, name });
      if (list) list.push(ref);
      else groups.set(key, [ref]);
    }
  }
  const out = new Map<string, string>();
  for (const [key, refs] of groups) if (refs.length > 1) for (const ref of refs) out.set(ref, key);
  return out;
}
