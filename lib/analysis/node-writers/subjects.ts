import type { UserInfo } from '@/lib/authz/types';
import { parseServiceAccountUsername, serviceAccountUser, serviceAccountUsername } from '@/lib/authz/user-info';
import type { SubjectRef } from '@/lib/k8s/types';
import { PROBE_NAME } from '@/lib/analysis/evidence';

// Subjects ↔ identities for the node-writer and claim-writer analyses.

/**
 * The identity to ask the engine about for an RBAC binding subject: a service account with its
 * groups, a user (authenticated), or a synthetic member of a group (so only the group's grants count).
 */
export function userForSubject(subject: SubjectRef): UserInfo {
  if (subject.kind === 'ServiceAccount') return serviceAccountUser(subject.namespace ?? '', subject.name);
  if (subject.kind === 'User') {
    const sa = parseServiceAccountUsername(subject.name);
    if (sa) return serviceAccountUser(sa.namespace, sa.name);
    return { name: subject.name, groups: ['system:authenticated'] };
  }
  return { name: `${PROBE_NAME}:member-of:${subject.name}`, groups: [subject.name] };
}

/** Whether a binding-style subject (User, Group, ServiceAccount) names this authenticated user or one of its groups. */
export function subjectMatchesUser(subject: SubjectRef, user: UserInfo): boolean {
  if (subject.kind === 'Group') return user.groups.includes(subject.name);
  if (subject.kind === 'ServiceAccount') return user.name === serviceAccountUsername(subject.namespace ?? '', subject.name);
  return user.name === subject.name;
}
