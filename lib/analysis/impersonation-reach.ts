import type { ImpersonatedDecision } from '@/lib/authz/authz-engine';
import { identityChecksOf, type ImpersonationHeaders } from '@/lib/authz/impersonation';
import type { AuthzRequest, UserInfo } from '@/lib/authz/types';
import type { ResourceAttributes } from '@/lib/authz/types';
import { serviceAccountUsername, subjectKeysOf } from '@/lib/authz/user-info';
import { consultedAuthorizers } from '@/lib/authz/who-can';
import { compareSubjects, refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import { pushTo } from '@/lib/k8s/push-to';
import type { AnalysisContext } from './context-types';
import { canonicalSubject, isMastersGroup, isNodeIdentity } from './context/identities';
import { memoPerAnalysis, memoPerSubject } from './context/memo-per-analysis';
import { decisionEvidence, PROBE_NAME } from './evidence';
import { userForSubject } from './node-writers/subjects';
import { resourceNamesInRules } from './node-writers/rule-names';
import { combinedResource, ruleAllowsResource } from '@/lib/authz/rule-matches';
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

function questionKey(r: ResourceAttributes): string {
  return `${r.verb}\u0000${r.group}\u0000${r.resource}\u0000${r.subresource}\u0000${r.namespace}\u0000${r.name}`;
}

/**
 * engine.whoCanRbacSubjects for one resource question (without selectors), answered once per
 * analysis: the node-status writers' requesters and impersonation filter, DRA005 and full-control
 * reach ask the same identity checks about the same identities, each a walk of the RBAC index.
 */
export const rbacSubjectsOf: (ctx: AnalysisContext, resource: ResourceAttributes) => readonly SubjectRef[] = memoPerAnalysis(
  questionKey,
  (ctx: AnalysisContext, resource: ResourceAttributes) => ctx.engine.whoCanRbacSubjects({ resource }),
);

/** Keys (refKey, as binding subjects are written) of whom RBAC lets pass some identity check for impersonating `user`. */
const identityHolders: (ctx: AnalysisContext, user: string) => ReadonlySet<string> = memoPerAnalysis(
  (user: string) => user,
  (ctx: AnalysisContext, user: string) => {
    const checks = identityChecksOf({ user });
    // Without RoleBindings of its namespace, a user's holders are those of the shared cluster-wide
    // questions: one set for the many targets that ask them (each was a set of every holder's key).
    if (!checks.some((check) => check.namespace !== '' && namespaceSubjects(ctx, check).length > 0))
      return clusterHolders(
        ctx,
        checks.map((check) => clusterQuestion(ctx, check)),
      );
    const out = new Set<string>();
    for (const check of checks) for (const s of identityCheckSubjects(ctx, check)) out.add(refKey(s));
    return out;
  },
);

const clusterHolders: (ctx: AnalysisContext, checks: ResourceAttributes[]) => ReadonlySet<string> = memoPerAnalysis(
  (checks: ResourceAttributes[]) => checks.map(questionKey).join('\u0001'),
  (ctx: AnalysisContext, checks: ResourceAttributes[]) => {
    const out = new Set<string>();
    for (const check of checks) for (const s of rbacSubjectsOf(ctx, check)) out.add(refKey(s));
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
  const keys = filterKeysOf(ctx, requester);
  if (!keys) return PASS_ALL;
  return (headers) => {
    const holders = identityHolders(ctx, headers.user);
    for (const k of keys) if (holders.has(k)) return true;
    return false;
  };
}

/**
 * The binding-subject keys impersonationFilter looks for among the holders of a user's identity
 * checks; undefined where it does not filter by them (RBAC not consulted, or a requester it lets
 * through whatever the headers).
 */
function filterKeysOf(ctx: AnalysisContext, requester: UserInfo): readonly string[] | undefined {
  const engine = ctx.engine;
  if (!consultedAuthorizers(engine.chain).includes('RBAC')) return undefined;
  // Only RBAC grants impersonation: system:masters, a node identity and a chain with AlwaysAllow are not filtered.
  if (requester.groups.includes('system:masters') || requester.name.startsWith('system:node:') || engine.chain.includes('AlwaysAllow')) return undefined;
  return subjectKeysOf(requester);
}

/**
 * For a fixed list of impersonated user names asked about for many requesters: marks (1) in
 * `marks` the positions of those impersonationFilter lets a requester through for, the others 0;
 * false, marks untouched, when it may let it through for any (then each must be asked). Found from
 * the requester's few keys rather than by testing every name: the node-status writers have ~100
 * targets for each of ~1,000 requesters, and most requesters may impersonate none of them. Marks,
 * not lists: a list per requester outlived scavenges while its targets were decided.
 */
export function impersonableIndex(ctx: AnalysisContext, users: readonly string[]): (requester: UserInfo, marks: Uint8Array) => boolean {
  let byKey: Map<string, number[]> | undefined;
  return (requester, marks) => {
    const keys = filterKeysOf(ctx, requester);
    if (!keys) return false;
    if (!byKey) {
      byKey = new Map();
      for (let i = 0; i < users.length; i++) for (const k of identityHolders(ctx, users[i])) pushTo(byKey, k, i);
    }
    marks.fill(0);
    for (const k of keys) for (const i of byKey.get(k) ?? NONE) marks[i] = 1;
    return true;
  };
}

const NONE: readonly number[] = Object.freeze([]);

const PASS_ALL = () => true;

// DRA005 and full-control reach ask about the same holders for several targets; the candidates
// depend on the holder only (each is a few who-can questions of the whole RBAC index).
/** Grants (binding subjects) that could let someone impersonate the holder; RBAC only. */
export const impersonationCandidates: (ctx: AnalysisContext, holder: SubjectRef) => readonly SubjectRef[] = memoPerSubject(readCandidates);

function readCandidates(ctx: AnalysisContext, holder: SubjectRef): readonly SubjectRef[] {
  const checks = impersonationIdentityChecks(holder);
  // The ClusterRoleBindings' answer, shared by the holders whose names no rule lists; then what the
  // RoleBindings of the holder's namespace add (who-can walked every ClusterRoleBinding again for
  // each namespace: thousands of device-status writers in as many namespaces).
  const shared = sharedCandidates(
    ctx,
    checks.map((check) => clusterQuestion(ctx, check)),
  );
  let added: Map<string, SubjectRef> | undefined;
  for (const check of checks)
    if (check.namespace !== '')
      for (const subject of namespaceSubjects(ctx, check)) {
        const s = canonicalSubject(subject);
        const key = refKey(s);
        if (!shared.keys.has(key) && !isMastersGroup(s) && !isNodeIdentity(s)) (added ??= new Map()).set(key, s);
      }
  const own = refKey(canonicalSubject(holder));
  const others = shared.keys.has(own) ? shared.list.filter((s) => refKey(s) !== own) : shared.list;
  if (!added) return others;
  added.delete(own);
  return [...others, ...added.values()].sort(compareSubjects);
}

/**
 * The candidates of cluster-wide identity checks: canonical, without system:masters and node
 * identities, sorted; with their keys.
 */
const sharedCandidates: (ctx: AnalysisContext, checks: ResourceAttributes[]) => { list: SubjectRef[]; keys: ReadonlySet<string> } = memoPerAnalysis(
  (checks: ResourceAttributes[]) => checks.map(questionKey).join('\u0001'),
  (ctx: AnalysisContext, checks: ResourceAttributes[]) => {
    const out = new Map<string, SubjectRef>();
    for (const resource of checks)
      for (const subject of rbacSubjectsOf(ctx, resource)) {
        const s = canonicalSubject(subject);
        if (!isMastersGroup(s) && !isNodeIdentity(s)) out.set(refKey(s), s);
      }
    return { list: [...out.values()].sort(compareSubjects), keys: new Set(out.keys()) };
  },
);

/**
 * The check asked of the ClusterRoleBindings only (namespace ''), and for a name no rule on the
 * resource lists, about the probe's name: every such name has the same answer.
 */
function clusterQuestion(ctx: AnalysisContext, check: ResourceAttributes): ResourceAttributes {
  const listed = listedNames(ctx, check.verb, check.group, check.resource, check.subresource);
  const name = listed.has(check.name) || listed.has(PROBE_NAME) ? check.name : PROBE_NAME;
  return name === check.name && check.namespace === '' ? check : { ...check, name, namespace: '' };
}

const listedNames: (ctx: AnalysisContext, verb: string, group: string, resource: string, subresource: string) => ReadonlySet<string> = memoPerAnalysis(
  (verb: string, group: string, resource: string, subresource: string) => `${verb}\u0000${group}\u0000${resource}\u0000${subresource}`,
  (ctx: AnalysisContext, verb: string, group: string, resource: string, subresource: string) =>
    resourceNamesInRules(ctx.engine, group, resource, subresource, [verb]),
);

/**
 * The binding subjects rbacSubjectsOf gives for an identity check, as a set (each maybe more than
 * once, in no set order): the shared cluster-wide answer and the RoleBindings of its namespace.
 */
export function identityCheckSubjects(ctx: AnalysisContext, check: ResourceAttributes): readonly SubjectRef[] {
  const cluster = rbacSubjectsOf(ctx, clusterQuestion(ctx, check));
  if (check.namespace === '') return cluster;
  const local = namespaceSubjects(ctx, check);
  return local.length === 0 ? cluster : [...cluster, ...local];
}

/** The subjects of the RoleBindings of the check's namespace whose role has a rule allowing it (as who-can matches roles). */
function namespaceSubjects(ctx: AnalysisContext, check: ResourceAttributes): SubjectRef[] {
  const out: SubjectRef[] = [];
  const combined = combinedResource({ resource: check.resource, subresource: check.subresource });
  for (const b of ctx.access.bindingsByNamespace().get(check.namespace) ?? []) {
    if (!b.role) continue;
    for (const { rule } of b.role.rules)
      if (ruleAllowsResource(rule, check, combined)) {
        out.push(...b.subjects);
        break;
      }
  }
  return out;
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
  for (const subject of impersonationCandidates(ctx, holder)) {
    if (skip?.(subject)) continue;
    const decision = ctx.engine.authorizeImpersonated(userForSubject(subject), headers, target);
    if (!decision.allowed) continue;
    const via: Evidence[] = [];
    for (const c of decision.impersonation.checks) if (c.mode === decision.impersonation.mode && c.decision.allowed) via.push(...decisionEvidence(c.decision));
    out.push({ subject, decision, via });
  }
  return out;
}
