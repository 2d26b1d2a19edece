import 'server-only';
import { z } from 'zod';
import type { CanIResponse, WhoCanResponse } from '@/lib/api/dto';
import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { NonResourceAttributes, ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { NODE_NAME_EXTRA, nodeNameFromUsername, parseServiceAccountUsername, serviceAccountGroups, withAuthenticationGroup } from '@/lib/authz/user-info';
import { resolveResourceType } from '@/lib/k8s/resource-types';
import { getAnalysis } from './get-report';

// The CLI's who-can and can-i questions for the dashboard's explorer (GET /api/v1/who-can, /can-i).

const word = (what: string, max: number, pattern: RegExp) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} is too long`)
    .regex(pattern, `${what} has characters no Kubernetes ${what} can have`);

const optionalName = (what: string, max: number) => z.string().trim().max(max, `${what} is too long`).optional().default('');

export const AccessQuerySchema = z.strictObject({
  verb: word('verb', 100, /^[A-Za-z*:-]+$/),
  /** kubectl TYPE[.GROUP] (`resourceclaims`, `deviceclasses.resource.k8s.io`), TYPE/SUBRESOURCE, or a non-resource path `/healthz`. */
  resource: word('resource', 253, /^[A-Za-z0-9*./_-]+$/),
  subresource: z
    .string()
    .trim()
    .max(63)
    .regex(/^[a-z0-9*-]*$/, 'subresource must be lowercase letters, digits or -')
    .optional()
    .default(''),
  /** Empty: every namespace (or a cluster-scoped resource). */
  namespace: z
    .string()
    .trim()
    .max(63)
    .regex(/^[a-z0-9-]*$/, 'namespace must be a DNS label')
    .optional()
    .default(''),
  name: optionalName('name', 253),
});

export const CanIQuerySchema = AccessQuerySchema.extend({
  user: z.string({ error: 'user is required' }).trim().min(1, 'user is required').max(512, 'user is too long'),
  groups: z.array(z.string().trim().min(1).max(512)).max(50, 'at most 50 groups').optional().default([]),
  /** For a service account: the node its token is bound to (authentication.kubernetes.io/node-name). */
  node: optionalName('node', 253),
});

export type AccessQueryInput = z.input<typeof AccessQuerySchema>;
export type CanIQueryInput = z.input<typeof CanIQuerySchema>;

interface Target {
  resource?: ResourceAttributes;
  nonResource?: NonResourceAttributes;
  warning?: string;
}

function targetOf(q: z.output<typeof AccessQuerySchema>): Target {
  if (q.resource.startsWith('/')) {
    if (q.subresource || q.namespace || q.name)
      throw new z.ZodError([{ code: 'custom', path: ['resource'], message: 'a non-resource path takes no subresource, namespace or name', input: q.resource }]);
    return { nonResource: { verb: q.verb, path: q.resource } };
  }
  let type = q.resource;
  let subresource = q.subresource;
  const slash = type.indexOf('/');
  if (slash >= 0) {
    if (subresource)
      throw new z.ZodError([
        { code: 'custom', path: ['resource'], message: 'give the subresource either as TYPE/SUB or in subresource, not both', input: q.resource },
      ]);
    subresource = type.slice(slash + 1);
    type = type.slice(0, slash);
    if (!type || !/^[a-z0-9*-]+$/.test(subresource))
      throw new z.ZodError([{ code: 'custom', path: ['resource'], message: 'expected TYPE/SUBRESOURCE', input: q.resource }]);
  }
  const resolved = resolveResourceType(type);
  const target: Target = {
    resource: {
      verb: q.verb,
      group: resolved.group,
      resource: resolved.resource,
      subresource,
      namespace: resolved.namespaced ? q.namespace : '',
      name: q.name,
    },
  };
  if (resolved.warning) target.warning = resolved.warning;
  return target;
}

/** The resource request a question names, resolved as who-can and can-i ask it; undefined when it does not parse. */
export function resourceRequestOf(input: unknown): ResourceAttributes | undefined {
  const q = AccessQuerySchema.safeParse(input);
  if (!q.success) return undefined;
  try {
    return targetOf(q.data).resource;
  } catch {
    return undefined;
  }
}

/** The identity the authenticator would produce for this username, plus the groups given. */
export function userFor(name: string, groups: readonly string[], node: string): UserInfo {
  const all = [...groups];
  const sa = parseServiceAccountUsername(name);
  if (sa) for (const g of serviceAccountGroups(sa.namespace)) if (!all.includes(g)) all.push(g);
  if (nodeNameFromUsername(name) !== undefined && !all.includes('system:nodes')) all.push('system:nodes');
  const user: UserInfo = { name, groups: withAuthenticationGroup(name, all) };
  if (node && sa) user.extra = { [NODE_NAME_EXTRA]: [node] };
  return user;
}

/** The report's own engine (default chain Node,RBAC), built once per cluster state. */
async function engine(): Promise<AuthzEngine> {
  return (await getAnalysis()).context.engine;
}

export async function whoCan(input: unknown): Promise<WhoCanResponse> {
  const q = AccessQuerySchema.parse(input);
  const target = targetOf(q);
  const e = await engine();
  const subjects = e.whoCan(target.resource ? { resource: target.resource } : { nonResource: target.nonResource! });
  const res: WhoCanResponse = { request: target.resource ?? target.nonResource!, subjects };
  if (target.warning) res.warning = target.warning;
  return res;
}

export async function canI(input: unknown): Promise<CanIResponse> {
  const q = CanIQuerySchema.parse(input);
  const target = targetOf(q);
  const user = userFor(q.user, q.groups, q.node);
  const e = await engine();
  const d = e.authorize(target.resource ? { user, resource: target.resource } : { user, nonResource: target.nonResource! });
  const res: CanIResponse = {
    allowed: d.allowed,
    reason: d.reason,
    decidedBy: d.decidedBy ?? null,
    grant: d.grant ?? null,
    user,
    request: target.resource ?? target.nonResource!,
  };
  if (target.warning) res.warning = target.warning;
  return res;
}
