import { roleBindingSubjects, type RbacIndex, type SubjectEntry } from '@/lib/authz/rbac-index';
import type { SubjectRef } from '@/lib/k8s/types';
import { refKey } from '@/lib/k8s/refs';
import { sameCanonicalSubject, usernameOf } from './identities';

/**
 * Tenant membership: the subjects of each namespace's RoleBindings (in their canonical form), plus,
 * by construction, its service accounts and its `system:serviceaccounts:<ns>` group (see isMemberOf
 * in the claim checks). Read from the engine's per-namespace subject indexes, by the username or
 * group name of the subject asked: a key string per subject of every RoleBinding (32,000 on the
 * diverse bench cluster) and a key set per namespace asked were ~0.3 s and ~9 MiB of CLAIM003.
 */
export interface Membership {
  /** Whether a RoleBinding of `namespace` names the subject (given in its canonical form). */
  namesIn(namespace: string, subject: SubjectRef): boolean;
  /**
   * For each of the subjects (canonical), by its refKey, the namespaces whose RoleBindings name it
   * (in binding order); subjects named nowhere are left out.
   */
  namespacesNaming(subjects: Iterable<SubjectRef>): Map<string, Set<string>>;
}

export function roleBindingMembership(rbac: Pick<RbacIndex, 'namespaceBindings'>): Membership {
  return {
    namesIn(namespace, subject) {
      const index = rbac.namespaceBindings.get(namespace);
      if (!index) return false;
      const named = subject.kind === 'Group' ? index.byGroup.get(subject.name) : index.byUser.get(usernameOf(subject));
      return named !== undefined && someNames(named, subject);
    },
    namespacesNaming(subjects) {
      const out = new Map<string, Set<string>>();
      const all = roleBindingSubjects(rbac);
      for (const subject of subjects) {
        // A namespace's list is in binding order and the lists in namespace order, as the bindings are.
        const lists = subject.kind === 'Group' ? all.byGroup.get(subject.name) : all.byUser.get(usernameOf(subject));
        if (!lists) continue;
        const key = refKey(subject);
        let namespaces = out.get(key);
        for (const entries of lists) {
          if (!someNames(entries, subject)) continue;
          if (!namespaces) out.set(key, (namespaces = new Set()));
          namespaces.add(entries[0].binding.ref.namespace ?? '');
        }
      }
      return out;
    },
  };
}

/** Whether one of the entries (a namespace's, under one username or group name) names the subject. */
function someNames(entries: readonly SubjectEntry[], subject: SubjectRef): boolean {
  for (const e of entries) if (sameCanonicalSubject(e.subject, subject)) return true;
  return false;
}
