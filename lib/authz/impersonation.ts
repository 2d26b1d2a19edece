import type { AuthzRequest, Decision, ResourceAttributes, UserInfo } from './types';
import { boundNodeName, nodeNameFromUsername, parseServiceAccountUsername, serviceAccountGroups, withAuthenticationGroup } from './user-info';

export interface ImpersonationHeaders {
  user: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export type ImpersonationMode = 'associated-node' | 'arbitrary-node' | 'serviceaccount' | 'user-info' | 'legacy';

export interface ImpersonationCheck {
  mode: ImpersonationMode;
  request: AuthzRequest;
  decision: Decision;
}

export interface ImpersonationOutcome {
  allowed: boolean;
  /** The mode that allowed it. */
  mode?: ImpersonationMode;
  /** The identity the request then runs as. */
  impersonated?: UserInfo;
  checks: ImpersonationCheck[];
  reason: string;
}

type Authorize = (request: AuthzRequest) => Decision;

const AUTHN_GROUP = 'authentication.k8s.io';

/**
 * Decides the impersonation part of a request as kube-apiserver's impersonation filter: constrained
 * modes (KEP-5284) in upstream order associated-node, arbitrary-node, serviceaccount, user-info,
 * then legacy `impersonate`. The first mode whose filter matches and whose checks all pass wins.
 * `target` is the request being made (resource or non-resource attributes, verb included).
 */
export function decideImpersonation(
  authorize: Authorize,
  requester: UserInfo,
  headers: ImpersonationHeaders,
  target: Pick<AuthzRequest, 'resource' | 'nonResource'>,
  options: { constrainedImpersonation: boolean },
): ImpersonationOutcome {
  const checks: ImpersonationCheck[] = [];
  const groups = headers.groups ?? [];
  const extra = headers.extra ?? {};
  const hasExtra = Object.keys(extra).length > 0;
  const onlyUser = groups.length === 0 && !headers.uid && !hasExtra;

  if (headers.user === '') {
    return { allowed: false, checks, reason: 'impersonating a uid, groups or extras requires a user (HTTP 400)' };
  }

  const d = new Decider(authorize, requester, target, checks);

  if (options.constrainedImpersonation) {
    const nodeName = nodeNameFromUsername(headers.user);
    const sa = parseServiceAccountUsername(headers.user);
    const validNode = nodeName !== undefined && nodeName !== '';

    if (validNode && onlyUser) {
      const requesterIsSa = parseServiceAccountUsername(requester.name) !== undefined;
      if (requesterIsSa && boundNodeName(requester) === nodeName) {
        // The identity check uses name "*" so that resourceNames-scoped grants never match.
        if (d.run('associated-node', [d.action('associated-node'), d.identity('associated-node', 'nodes', '*')])) {
          return allow('associated-node', nodeIdentityUser(headers.user), checks);
        }
      }
      if (d.run('arbitrary-node', [d.action('arbitrary-node'), d.identity('arbitrary-node', 'nodes', nodeName)])) {
        return allow('arbitrary-node', nodeIdentityUser(headers.user), checks);
      }
    }
    if (sa && onlyUser) {
      if (d.run('serviceaccount', [d.action('serviceaccount'), d.identity('serviceaccount', 'serviceaccounts', sa.name, sa.namespace)])) {
        return allow('serviceaccount', { name: headers.user, groups: [...serviceAccountGroups(sa.namespace), 'system:authenticated'] }, checks);
      }
    }
    if (nodeName === undefined && !sa) {
      const userInfoOk = userInfoChecks(headers, groups, extra, d);
      if (userInfoOk) return allow('user-info', resultUser(headers.user, headers.uid, groups, extra), checks);
    }
  }

  if (legacyChecks(requester, headers, groups, extra, d)) {
    const impersonated = legacyResultUser(headers, groups, extra);
    return allow('legacy', impersonated, checks);
  }
  const firstDenied = checks.find((c) => !c.decision.allowed);
  return {
    allowed: false,
    checks,
    reason: firstDenied ? `impersonation denied: ${describeCheck(firstDenied.request)}` : 'impersonation denied',
  };
}

/**
 * The identity check that each mode which could apply to these headers makes, whatever the target:
 * associated-node and arbitrary-node (a node user), serviceaccount (a service account), user-info
 * (any other user), and legacy (the user or service account). Every mode that allows runs its check
 * here, so a requester that none of them allows is refused by every mode: analyses that try many
 * requesters against many identities skip those pairs (AuthzEngine.mayImpersonate).
 */
export function identityChecksOf(headers: Pick<ImpersonationHeaders, 'user'>): ResourceAttributes[] {
  const out: ResourceAttributes[] = [];
  const ask = (verb: string, group: string, resource: string, name: string, namespace = '') =>
    out.push({ verb, group, resource, subresource: '', namespace, name });
  const nodeName = nodeNameFromUsername(headers.user);
  const sa = parseServiceAccountUsername(headers.user);
  if (nodeName !== undefined) {
    ask('impersonate:associated-node', AUTHN_GROUP, 'nodes', '*');
    ask('impersonate:arbitrary-node', AUTHN_GROUP, 'nodes', nodeName);
  }
  if (sa) ask('impersonate:serviceaccount', AUTHN_GROUP, 'serviceaccounts', sa.name, sa.namespace);
  else ask('impersonate:user-info', AUTHN_GROUP, 'users', headers.user);
  if (sa) ask('impersonate', '', 'serviceaccounts', sa.name, sa.namespace);
  else ask('impersonate', '', 'users', headers.user);
  return out;
}

/**
 * The checks of one decision: each request made, in order, and recorded with its mode. A class
 * rather than closures made on every call: analyses decide hundreds of thousands of them.
 */
class Decider {
  constructor(
    private readonly authorize: Authorize,
    private readonly requester: UserInfo,
    private readonly target: Pick<AuthzRequest, 'resource' | 'nonResource'>,
    private readonly checks: ImpersonationCheck[],
  ) {}

  /** Runs the requests in order until one is denied; whether all were allowed. */
  run(mode: ImpersonationMode, requests: AuthzRequest[]): boolean {
    for (const request of requests) {
      const decision = this.authorize(request);
      this.checks.push({ mode, request, decision });
      if (!decision.allowed) return false;
    }
    return true;
  }

  /** The target request with the mode's impersonate-on verb. */
  action(mode: ImpersonationMode): AuthzRequest {
    const target = this.target;
    const verb = `impersonate-on:${mode}:${(target.resource ?? target.nonResource)!.verb}`;
    return target.resource
      ? { user: this.requester, resource: { ...target.resource, verb } }
      : { user: this.requester, nonResource: { ...target.nonResource!, verb } };
  }

  /** The mode's identity check on the impersonated object. */
  identity(mode: ImpersonationMode, resource: string, name: string, namespace = '', subresource = ''): AuthzRequest {
    return { user: this.requester, resource: { verb: `impersonate:${mode}`, group: AUTHN_GROUP, resource, subresource, namespace, name } };
  }
}

function userInfoChecks(headers: ImpersonationHeaders, groups: string[], extra: Record<string, string[]>, d: Decider): boolean {
  // user-info refuses the empty group and system:masters outright.
  if (groups.some((g) => g === '' || g === 'system:masters')) return false;
  for (const [key, values] of Object.entries(extra)) {
    if (!isValidExtraKey(key) || values.some((v) => v === '')) return false;
  }
  if (!d.run('user-info', [d.action('user-info'), d.identity('user-info', 'users', headers.user)])) return false;
  if (headers.uid && !d.run('user-info', [d.identity('user-info', 'uids', headers.uid)])) return false;
  if (groups.length >= 4 && d.run('user-info', [d.identity('user-info', 'groups', '*')])) {
    // one wildcard check covered every group
  } else if (
    !d.run(
      'user-info',
      groups.map((g) => d.identity('user-info', 'groups', g)),
    )
  )
    return false;
  const extraValues = Object.entries(extra).flatMap(([key, values]) => values.map((value) => ({ key, value })));
  if (extraValues.length >= 4 && d.run('user-info', [d.identity('user-info', 'userextras', '*', '', '*')])) return true;
  return d.run(
    'user-info',
    extraValues.map(({ key, value }) => d.identity('user-info', 'userextras', value, '', key)),
  );
}

function legacyChecks(requester: UserInfo, headers: ImpersonationHeaders, groups: string[], extra: Record<string, string[]>, d: Decider): boolean {
  const requests: AuthzRequest[] = [];
  const sa = parseServiceAccountUsername(headers.user);
  requests.push(sa ? legacyCheck(requester, '', 'serviceaccounts', sa.name, sa.namespace) : legacyCheck(requester, '', 'users', headers.user));
  for (const g of groups) requests.push(legacyCheck(requester, '', 'groups', g));
  if (headers.uid) requests.push(legacyCheck(requester, AUTHN_GROUP, 'uids', headers.uid));
  for (const [key, values] of Object.entries(extra)) for (const v of values) requests.push(legacyCheck(requester, AUTHN_GROUP, 'userextras', v, '', key));
  return d.run('legacy', requests);
}

function legacyCheck(requester: UserInfo, group: string, resource: string, name: string, namespace = '', subresource = ''): AuthzRequest {
  return { user: requester, resource: { verb: 'impersonate', group, resource, subresource, namespace, name } };
}

function legacyResultUser(headers: ImpersonationHeaders, groups: string[], extra: Record<string, string[]>): UserInfo {
  const sa = parseServiceAccountUsername(headers.user);
  const g = groups.length === 0 && sa ? serviceAccountGroups(sa.namespace) : [...groups];
  return resultUser(headers.user, headers.uid, g, extra);
}

/** The identity after impersonation: system:authenticated is added unless the user is anonymous. */
function resultUser(name: string, uid: string | undefined, groups: string[], extra: Record<string, string[]>): UserInfo {
  const user: UserInfo = { name, groups: withAuthenticationGroup(name, groups) };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}

function nodeIdentityUser(name: string): UserInfo {
  return { name, groups: ['system:nodes', 'system:authenticated'] };
}

function allow(mode: ImpersonationMode, impersonated: UserInfo, checks: ImpersonationCheck[]): ImpersonationOutcome {
  return { allowed: true, mode, impersonated, checks, reason: `impersonation allowed by mode ${mode}` };
}

// Extra keys must be non-empty, lowercase, domain-prefixed paths (e.g. example.com/team).
function isValidExtraKey(key: string): boolean {
  if (key === '' || key !== key.toLowerCase()) return false;
  const slash = key.indexOf('/');
  if (slash <= 0 || slash === key.length - 1) return false;
  return key.slice(0, slash).includes('.');
}

export function describeCheck(request: AuthzRequest): string {
  const r: ResourceAttributes | undefined = request.resource;
  if (!r) return `${request.nonResource?.verb} ${request.nonResource?.path}`;
  const res = r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
  const group = r.group ? `.${r.group}` : '';
  return `${request.user.name} cannot ${r.verb} ${res}${group}${r.name ? ` "${r.name}"` : ''}${r.namespace ? ` in namespace "${r.namespace}"` : ''}`;
}
