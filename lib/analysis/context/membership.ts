import type { RbacIndex } from '@/lib/authz/rbac-index';
import { refKey } from '@/lib/k8s/refs';
import { canonicalSubject } from './identities';

/**
 * Tenant membership: the subjects of each namespace's RoleBindings (canonical keys), plus, by
 * construction, its service accounts and its `system:serviceaccounts:<ns>` group (see isMemberOf
 * in the claim checks).
 */
export interface Membership {
  /** namespace → canonical keys of its RoleBindings' subjects. */
  byNamespace: Map<string, Set<string>>;
  /** canonical subject key → namespaces whose RoleBindings name it. */
  bySubject: Map<string, Set<string>>;
}

export function roleBindingMembership(rbac: Pick<RbacIndex, 'bindings'>): Membership {
  const m: Membership = { byNamespace: new Map(), bySubject: new Map() };
  for (const b of rbac.bindings) {
    if (b.ref.kind !== 'RoleBinding') continue;
    const ns = b.ref.namespace ?? '';
    let set = m.byNamespace.get(ns);
    if (!set) m.byNamespace.set(ns, (set = new Set()));
    for (const s of b.subjects) {
      const key = refKey(canonicalSubject(s));
      set.add(key);
      let namespaces = m.bySubject.get(key);
      if (!namespaces) m.bySubject.set(key, (namespaces = new Set()));
      namespaces.add(ns);
    }
  }
  return m;
}
