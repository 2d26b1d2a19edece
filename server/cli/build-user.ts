import 'server-only';
import type { UserInfo } from '@/lib/authz/types';
import type { ImpersonationHeaders } from '@/lib/authz/impersonation';
import { parseServiceAccountUsername, serviceAccountGroups, withAuthenticationGroup } from '@/lib/authz/user-info';
import { collectExtra, UsageError } from './usage-error';

/**
 * The identity kubectl's --as/--as-group/--as-user-extra produce: the request is impersonated, so
 * the result follows legacy impersonation (a service account without groups gets its SA groups;
 * system:authenticated is added). A node username gets no system:nodes group unless asked for.
 */
export function userFromAsFlags(as: string | undefined, asGroups: string[] | undefined, asExtra: string[] | undefined): UserInfo {
  if (as === undefined || as === '') {
    if (asGroups?.length || asExtra?.length) throw new UsageError('--as-group and --as-user-extra need --as');
    throw new UsageError('--as USER is required: a snapshot has no current user');
  }
  const sa = parseServiceAccountUsername(as);
  const given = asGroups ?? [];
  const user: UserInfo = { name: as, groups: withAuthenticationGroup(as, given.length === 0 && sa ? serviceAccountGroups(sa.namespace) : given) };
  const extra = collectExtra('--as-user-extra', asExtra);
  if (extra) user.extra = extra;
  return user;
}

/** The flags naming who sends a request and whom it impersonates (can-i, simulate). */
export const IDENTITY_OPTIONS = {
  as: { type: 'string' },
  'as-group': { type: 'string', multiple: true },
  'as-user-extra': { type: 'string', multiple: true },
  'impersonate-user': { type: 'string' },
  'impersonate-group': { type: 'string', multiple: true },
  'impersonate-uid': { type: 'string' },
  'impersonate-extra': { type: 'string', multiple: true },
} as const;

/** The impersonation headers of --impersonate-*, or undefined without --impersonate-user. */
export function impersonationFromFlags(values: {
  'impersonate-user'?: string;
  'impersonate-group'?: string[];
  'impersonate-uid'?: string;
  'impersonate-extra'?: string[];
}): ImpersonationHeaders | undefined {
  if (values['impersonate-user'] === undefined) {
    if (values['impersonate-group'] || values['impersonate-uid'] || values['impersonate-extra'])
      throw new UsageError('--impersonate-group, --impersonate-uid and --impersonate-extra need --impersonate-user');
    return undefined;
  }
  return {
    user: values['impersonate-user'],
    uid: values['impersonate-uid'],
    groups: values['impersonate-group'],
    extra: collectExtra('--impersonate-extra', values['impersonate-extra']),
  };
}
