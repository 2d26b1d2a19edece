import { refKey } from '@/lib/k8s/refs';
import type { UserInfo } from './types';

const SA_USER_PREFIX = 'system:serviceaccount:';
const NODE_USER_PREFIX = 'system:node:';

export const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';

/** `system:serviceaccount:<ns>:<name>` → {namespace, name}; anything else (incl. empty parts) → undefined. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_USER_PREFIX)) return undefined;
  const rest = username.slice(SA_USER_PREFIX.length);
  const parts = rest.split(':');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0], name: parts[1] };
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SA_USER_PREFIX}${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
}

/** The node name of a node username, or undefined; `system:node:` alone yields ''. */
export function nodeNameFromUsername(username: string): string | undefined {
  return username.startsWith(NODE_USER_PREFIX) ? username.slice(NODE_USER_PREFIX.length) : undefined;
}

/**
 * The identity the Node authorizer recognises: username `system:node:<name>` AND group
 * `system:nodes` (pkg/auth/nodeidentifier). Returns undefined when the request is not from a node.
 */
export function nodeIdentity(user: UserInfo): { nodeName: string } | undefined {
  const nodeName = nodeNameFromUsername(user.name);
  if (nodeName === undefined) return undefined;
  if (!user.groups.includes('system:nodes')) return undefined;
  return { nodeName };
}

/** A full service-account identity as the authenticator produces it (groups included). */
export function serviceAccountUser(namespace: string, name: string, nodeName?: string): UserInfo {
  const user: UserInfo = {
    name: serviceAccountUsername(namespace, name),
    groups: [...serviceAccountGroups(namespace), 'system:authenticated'],
  };
  if (nodeName !== undefined) user.extra = { [NODE_NAME_EXTRA]: [nodeName] };
  return user;
}

export function nodeUser(nodeName: string): UserInfo {
  return { name: `${NODE_USER_PREFIX}${nodeName}`, groups: ['system:nodes', 'system:authenticated'] };
}

/** The node name a service account token is bound to, only when exactly one value is present. */
export function boundNodeName(user: UserInfo): string | undefined {
  const values = user.extra?.[NODE_NAME_EXTRA];
  if (!values || values.length !== 1 || values[0] === '') return undefined;
  return values[0];
}

/**
 * A user's groups as the API server completes them for an impersonated user (the same for one a
 * question names): system:unauthenticated for system:anonymous, else system:authenticated, unless
 * either is there already.
 */
export function withAuthenticationGroup(name: string, groups: readonly string[]): string[] {
  const out = [...groups];
  if (name === 'system:anonymous') {
    if (!out.includes('system:unauthenticated')) out.push('system:unauthenticated');
  } else if (!out.includes('system:authenticated') && !out.includes('system:unauthenticated')) {
    out.push('system:authenticated');
  }
  return out;
}

// Kept per identity object: the node-status writers ask about the same requester objects ~100,000 times.
const subjectKeysByUser = new WeakMap<UserInfo, string[]>();

/**
 * The binding-subject keys (refKey form) an identity matches as: its user, its service account, its
 * groups. Made once per identity object (do not change it after asking).
 */
export function subjectKeysOf(user: UserInfo): string[] {
  let keys = subjectKeysByUser.get(user);
  if (!keys) {
    const sa = parseServiceAccountUsername(user.name);
    keys = [
      refKey({ kind: 'User', name: user.name }),
      ...(sa ? [refKey({ kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name })] : []),
      ...user.groups.map((g) => refKey({ kind: 'Group', name: g })),
    ];
    subjectKeysByUser.set(user, keys);
  }
  return keys;
}
