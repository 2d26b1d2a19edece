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

/**
 * subjectMatchesUser for any of some subjects, in constant time: binding subjects are tested against
 * every service account with pods (tens of thousands on a large cluster).
 */
export class SubjectMatcher {
  private readonly users = new Set<string>();
  private readonly groups = new Set<string>();
  /** The service accounts the users name, as (namespace, name): every split of a service-account username. */
  private readonly accounts = new Map<string, Set<string>>();
  /** A group every service account is in (system:serviceaccounts, system:authenticated). */
  private allAccounts = false;
  /** The namespaces of system:serviceaccounts:<namespace> groups. */
  private readonly accountNamespaces = new Set<string>();

  constructor(subjects: Iterable<SubjectRef>) {
    for (const subject of subjects) {
      if (subject.kind === 'Group') this.addGroup(subject.name);
      else this.addUser(subject.kind === 'ServiceAccount' ? serviceAccountUsername(subject.namespace ?? '', subject.name) : subject.name);
    }
  }

  private addGroup(group: string): void {
    this.groups.add(group);
    // The groups of serviceAccountUser.
    if (group === SA_ALL_GROUP || group === 'system:authenticated') this.allAccounts = true;
    else if (group.startsWith(SA_GROUP_PREFIX)) this.accountNamespaces.add(group.slice(SA_GROUP_PREFIX.length));
  }

  private addUser(name: string): void {
    this.users.add(name);
    if (!name.startsWith(SA_USER_PREFIX)) return;
    // serviceAccountUsername(ns, n) is this name exactly when it splits at some ':' into ns and n.
    for (let i = name.indexOf(':', SA_USER_PREFIX.length); i >= 0; i = name.indexOf(':', i + 1)) {
      const ns = name.slice(SA_USER_PREFIX.length, i);
      let names = this.accounts.get(ns);
      if (!names) this.accounts.set(ns, (names = new Set()));
      names.add(name.slice(i + 1));
    }
  }

  /** Whether a subject names this authenticated user or one of its groups. */
  appliesTo(user: UserInfo): boolean {
    if (this.users.has(user.name)) return true;
    for (const g of user.groups) if (this.groups.has(g)) return true;
    return false;
  }

  /** As appliesTo(serviceAccountUser(namespace, name)), without making the identity or its name. */
  appliesToAccount(namespace: string, name: string): boolean {
    return this.allAccounts || this.accountNamespaces.has(namespace) || this.accounts.get(namespace)?.has(name) === true;
  }
}

// serviceAccountUsername's prefix (system:serviceaccount:), taken from it rather than written again.
const SA_USER_PREFIX = serviceAccountUsername('', '').slice(0, -1);
const SA_ALL_GROUP = 'system:serviceaccounts';
const SA_GROUP_PREFIX = `${SA_ALL_GROUP}:`;
