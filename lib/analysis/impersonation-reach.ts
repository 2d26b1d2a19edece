import type { ImpersonatedDecision } from '@/lib/authz/authz-engine';
import { identityChecksOf, type ImpersonationHeaders } from '@/lib/authz/impersonation';
import type { AuthzRequest, UserInfo } from '@/lib/authz/types';
import type { ResourceAttributes } from '@/lib/authz/types';
import { serviceAccountUsername, subjectKeysOf } from '@/lib/authz/user-info';
import { consultedAuthorizers } from '@/lib/authz/who-can';
import { compareSubjects, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from './context-types';
import { canonicalSubject, isMastersGroup, isNodeIdentity } from './context/identities';
import { memoPerAnalysis, memoPerSubject } from './context/memo-per-analysis';
import { decisionEvidence, PROBE_NAME } from './evidence';
import { userForSubject } from './node-writers/subjects';
import type { Evidence } from './types';

// Who can act as a holder of a capability by impersonating it: legacy `impersonate` on the holder's
// user, service account or group, or constrained `impersonate:serviceaccount` / `impersonate:user-info`
// with the `impersonate-on:<mode>:<verb>` grant for the request (authz-semantics.md §7). Candidates
// come from the RBAC index; each is then decided end to end by the engine (authorizeImpersonated), so
// the modes, their order and the feature gates are the server's.

const AUTHN = 'authentication.k8s.io';

export interface Impersonator {
  subject: SubjectRef;
  /** The engine's decision: impersonation grants, then the impersonated identity's own. */
  decision: ImpersonatedDecision;
  via: Evidence[];
}

/** The headers that impersonate a holder (a group through a synthetic member, as the API server needs a user). */
function headersFor(holder: SubjectRef): ImpersonationHeaders {
  if (holder.kind === 'ServiceAccount') return { user: serviceAccountUsername(holder.namespace ?? '', holder.name) };
  if (holder.kind === 'User') return { user: holder.name };
  return { user: `${PROBE_NAME}:member-of:${holder.name}`, groups: [holder.name] };
}

/** The identity checks (legacy and constrained) whose grants could let someone impersonate the holder. */
export function impersonationIdentityChecks(holder: SubjectRef): ResourceAttributes[] {
  const asks: ResourceAttributes[] = [];
  const ask = (verb: string, group: string, resource: string, name: string, namespace = '') =>
    asks.push({ verb, group, resource, subresource: '', namespace, name });
  if (holder.kind === 'ServiceAccount') {
    ask('impersonate', '', 'serviceaccounts', holder.name, holder.namespace ?? '');
    ask('impersonate:serviceaccount', AUTHN, 'serviceaccounts', holder.name, holder.namespace ?? '');
  } else if (holder.kind === 'User') {
    ask('impersonate', '', 'users', holder.name);
    ask('impersonate:user-info', AUTHN, 'users', holder.name);
  } else {
    ask('impersonate', '', 'groups', holder.name);
    ask('impersonate:user-info', AUTHN, 'groups', holder.name);
  }
  return asks;
}

/**
 * engine.whoCanRbacSubjects for one resource question (without selectors), answered once per
 * analysis: the node-status writers' requesters and impersonation filter, DRA005 and full-control
 * reach ask the same identity checks about the same identities, each a walk of the RBAC index.
 */
export const rbacSubjectsOf: (ctx: AnalysisContext, resource: ResourceAttributes) => readonly SubjectRef[] = memoPerAnalysis(
  (r: ResourceAttributes) => `${r.verb}\u0000${r.group}\u0000${r.resource}\u0000${r.subresource}\u0000${r.namespace}\u0000${r.name}`,
  (ctx: AnalysisContext, resource: ResourceAttributes) => ctx.engine.whoCanRbacSubjects({ resource }),
);

/** Keys (refKey, as binding subjects are written) of whom RBAC lets pass some identity check for impersonating `user`. */
const identityHolders: (ctx: AnalysisContext, user: string) => ReadonlySet<string> = memoPerAnalysis(
  (user: string) => user,
  (ctx: AnalysisContext, user: string) => {
    const out = new Set<string>();
    for (const check of identityChecksOf({ user })) for (const s of rbacSubjectsOf(ctx, check)) out.add(refKey(s));
    return out;
  },
);

/**
 * engine.mayImpersonate (whether any mode's identity check can pass), from the answers of
 * rbacSubjectsOf: the node-status writers ask it for ~110,000 requester and target pairs, and the
 * engine's own filter asked again the questions their requesters came from.
 */
export function mayImpersonate(ctx: AnalysisContext, requester: UserInfo, headers: ImpersonationHeaders): boolean {
  return impersonationFilter(ctx, requester)(headers);
}

/**
 * mayImpersonate for one requester and any headers: what depends on the requester alone (the chain,
 * its privileged groups, its binding-subject keys) is read once, not for each of the ~100 targets
 * the node-status writers try for each of ~1,000 requesters.
 */
export function impersonationFilter(ctx: AnalysisContext, requester: UserInfo): (headers: ImpersonationHeaders) => boolean {
  const engine = ctx.engine;
  // Where RBAC is not consulted its who-can answers are empty: the engine decides.
  if (!consultedAuthorizers(engine.chain).includes('RBAC')) return (headers) => engine.mayImpersonate(requester, headers);
  // Only RBAC grants impersonation: system:masters, a node identity and a chain with AlwaysAllow are not filtered.
  if (requester.groups.includes('system:masters') || requester.name.startsWith('system:node:') || engine.chain.includes('AlwaysAllow')) return PASS_ALL;
  const keys = subjectKeysOf(requester);
  return (headers) => {
    const holders = identityHolders(ctx, headers.user);
    for (const k of keys) if (holders.has(k)) return true;
    return false;
  };
}

const PASS_ALL = () => true;

// DRA005 and full-control reach ask about the same holders for several targets; the candidates
// depend on the holder only (each is a few who-can questions of the whole RBAC index).
/** Grants (binding subjects) that could let someone impersonate the holder; RBAC only. */
const candidates: (ctx: AnalysisContext, holder: SubjectRef) => readonly SubjectRef[] = memoPerSubject(readCandidates);

function readCandidates(ctx: AnalysisContext, holder: SubjectRef): SubjectRef[] {
  const asks = impersonationIdentityChecks(holder);
  const out = new Map<string, SubjectRef>();
  for (const resource of asks)
    for (const subject of rbacSubjectsOf(ctx, resource)) {
      const s = canonicalSubject(subject);
      if (!isMastersGroup(s) && !isNodeIdentity(s)) out.set(refKey(s), s);
    }
  out.delete(refKey(canonicalSubject(holder)));
  return [...out.values()].sort(compareSubjects);
}

/**
 * Identities that can send `target` as the holder, each confirmed by the engine end to end; those
 * `skip` names are not decided (a caller that drops them anyway saves a decision per holder).
 */
export function impersonatorsOf(
  ctx: AnalysisContext,
  holder: SubjectRef,
  target: Pick<AuthzRequest, 'resource'>,
  skip?: (subject: SubjectRef) => boolean,
): Impersonator[] {
  const headers = headersFor(holder);
  const out: Impersonator[] = [];
  for (const subject of candidates(ctx, holder)) {
    if (skip?.(subject)) continue;
    const decision = ctx.engine.authorizeImpersonated(userForSubject(subject), headers, target);
    if (!decision.allowed) continue;
    const via: Evidence[] = [];
    for (const c of decision.impersonation.checks) if (c.mode === decision.impersonation.mode && c.decision.allowed) via.push(...decisionEvidence(c.decision));
    out.push({ subject, decision, via });
  }
  return out;
}
