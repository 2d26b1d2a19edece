import type { SubjectRef } from '@/lib/k8s/types';
import { refKey } from '@/lib/k8s/refs';
import { nodeNameFromUsername, parseServiceAccountUsername, serviceAccountUsername } from '@/lib/authz/user-info';

// Identity helpers shared by the context and the checks. An RBAC subject and the identity it names
// are kept apart: a User subject named `system:serviceaccount:ns:sa` *is* that service account, so
// subjects are normalised to the ServiceAccount form before they are compared or reported.

/** The canonical form of a subject: User `system:serviceaccount:<ns>:<name>` becomes a ServiceAccount. */
export function canonicalSubject(subject: SubjectRef): SubjectRef {
  if (subject.kind === 'User') {
    const sa = parseServiceAccountUsername(subject.name);
    if (sa) return { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name };
  }
  if (subject.kind === 'ServiceAccount') return { kind: 'ServiceAccount', namespace: subject.namespace ?? '', name: subject.name };
  return { kind: subject.kind, name: subject.name };
}

/** Whether canonicalSubject(s) is `id` (itself canonical), without making it: the subjects under id's username or group name. */
export function sameCanonicalSubject(s: SubjectRef, id: SubjectRef): boolean {
  if (s.kind !== id.kind) {
    // A User named system:serviceaccount:<ns>:<name> is that service account.
    if (id.kind !== 'ServiceAccount' || s.kind !== 'User') return false;
    const sa = parseServiceAccountUsername(s.name);
    return sa !== undefined && sa.namespace === id.namespace && sa.name === id.name;
  }
  if (s.kind === 'User') return s.name === id.name && parseServiceAccountUsername(s.name) === undefined;
  return s.name === id.name && (s.kind === 'Group' || (s.namespace ?? '') === (id.namespace ?? ''));
}

/** The key (refKey) of a subject's canonical form: a service account's username counts as the account. */
export function canonicalKey(subject: SubjectRef): string {
  return refKey(canonicalSubject(subject));
}

export function serviceAccountRef(namespace: string, name: string): SubjectRef {
  return { kind: 'ServiceAccount', namespace, name };
}

/** The username an identity authenticates as (Groups have none: their name is returned). */
export function usernameOf(subject: SubjectRef): string {
  return subject.kind === 'ServiceAccount' ? serviceAccountUsername(subject.namespace ?? '', subject.name) : subject.name;
}

/** A node identity: user `system:node:<name>` or group `system:nodes`. */
export function isNodeIdentity(subject: SubjectRef): boolean {
  if (subject.kind === 'Group') return subject.name === 'system:nodes';
  return subject.kind === 'User' && nodeNameFromUsername(subject.name) !== undefined;
}

export function isMastersGroup(subject: SubjectRef): boolean {
  return subject.kind === 'Group' && subject.name === 'system:masters';
}

/**
 * Groups every member of a population carries: they name "everyone" (or every service account),
 * never a system component, so they are not system identities.
 */
export function isBroadGroup(name: string): boolean {
  return (
    name === 'system:authenticated' || name === 'system:unauthenticated' || name === 'system:serviceaccounts' || name.startsWith('system:serviceaccounts:')
  );
}

/**
 * Whether a binding subject (already canonical) applies to the identity: the same identity, or a
 * group the identity is known to carry. Service accounts carry `system:serviceaccounts`,
 * `system:serviceaccounts:<ns>` and `system:authenticated`; node users carry `system:nodes` and
 * `system:authenticated`; other users are only known to carry `system:authenticated`. A Group
 * identity is matched by the same group only.
 */
export function subjectAppliesTo(bindingSubject: SubjectRef, identity: SubjectRef): boolean {
  const s = canonicalSubject(bindingSubject);
  const id = canonicalSubject(identity);
  if (refKey(s) === refKey(id)) return true;
  if (s.kind !== 'Group' || id.kind === 'Group') return false;
  if (s.name === 'system:authenticated') return true;
  if (id.kind === 'ServiceAccount') return s.name === 'system:serviceaccounts' || s.name === `system:serviceaccounts:${id.namespace}`;
  return isNodeIdentity(id) && s.name === 'system:nodes';
}
