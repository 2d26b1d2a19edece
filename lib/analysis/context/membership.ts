import type { IndexedBinding, RbacIndex } from '@/lib/authz/rbac-index';
import { canonicalKey } from './identities';

/**
 * Tenant membership: the subjects of each namespace's RoleBindings (canonical keys), plus, by
 * construction, its service accounts and its `system:serviceaccounts:<ns>` group (see isMemberOf
 * in the claim checks). Read for the namespaces and subjects asked: CLAIM003 asks about a few
 * hundred, and keys of every subject of every RoleBinding (32,000 on the diverse bench cluster, a
 * set per namespace and per subject) were 100–150 ms of its first run.
 */
export interface Membership {
  /** Whether a RoleBinding of `namespace` names the subject of this canonical key. */
  namesIn(namespace: string, key: string): boolean;
  /** For each of the canonical keys, the namespaces whose RoleBindings name it (in binding order); keys named nowhere are left out. */
  namespacesNaming(keys: ReadonlySet<string>): Map<string, Set<string>>;
}

export function roleBindingMembership(rbac: Pick<RbacIndex, 'bindings'>): Membership {
  let byNamespace: Map<string, IndexedBinding[]> | undefined;
  const keysByNamespace = new Map<string, Set<string>>();
  return {
    namesIn(namespace, key) {
      let keys = keysByNamespace.get(namespace);
      if (!keys) {
        byNamespace ??= roleBindingsByNamespace(rbac.bindings);
        keys = new Set();
        for (const b of byNamespace.get(namespace) ?? []) for (const s of b.subjects) keys.add(canonicalKey(s));
        keysByNamespace.set(namespace, keys);
      }
      return keys.has(key);
    },
    namespacesNaming(keys) {
      const out = new Map<string, Set<string>>();
      if (keys.size === 0) return out;
      for (const b of rbac.bindings) {
        if (b.ref.kind !== 'RoleBinding') continue;
        for (const s of b.subjects) {
          const key = canonicalKey(s);
          if (!keys.has(key)) continue;
          let namespaces = out.get(key);
          if (!namespaces) out.set(key, (namespaces = new Set()));
          namespaces.add(b.ref.namespace ?? '');
        }
      }
      return out;
    },
  };
}

function roleBindingsByNamespace(bindings: readonly IndexedBinding[]): Map<string, IndexedBinding[]> {
  const out = new Map<string, IndexedBinding[]>();
  for (const b of bindings) {
    if (b.ref.kind !== 'RoleBinding') continue;
    const ns = b.ref.namespace ?? '';
    const list = out.get(ns);
    if (list) list.push(b);
    else out.set(ns, [b]);
  }
  return out;
}
