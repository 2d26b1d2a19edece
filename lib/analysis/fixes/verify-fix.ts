import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { AuthzRequest } from '@/lib/authz/types';
import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { AccessIndex } from '@/lib/analysis/context/access';
import type { Capability } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import type { FixChange, FixProbe, IssueFix } from '@/lib/analysis/types';
import { deferredRequest, probeText, writtenProbe, type DeferredProbe } from './deferred-probe';
import { fixedAccess } from './fixed-access';
import { holderEngine, noRbacChanges } from './holder-engine';
import { reviewOf, userOf, type Holder } from './holder';
import { allowedToday, holderNeeds, type ObservedRequests } from './holder-needs';
import type { RbacEdits } from './role-edits';
import { decideWrite, withStateLists, type StateLists } from './write-probes';

// Checks a proposed fix before it is shown: its objects are valid for the API server, and on a copy
// of the cluster with the changes applied (holderEngine), (a) each holder no longer holds the
// finding's capability (the capability table's questions, asked again, and the proposal's own
// refused requests), (b) what each holder needs still holds (its persona's requests and its
// observed requests that are allowed today, and the proposal's own kept requests). A request of a
// holder is first asked of fixedAccess, which answers most of them from the original engine's index:
// the holder engine is made only for what it cannot answer.

/** The cluster after a fix, for a proposal's own checks. */
export interface AfterFix {
  /** Whether the request is allowed after the fix (meaningful for the holders' requests). */
  allowed(request: AuthzRequest): boolean;
  /** The engine after the fix (the holder engine, made on first call). */
  engine(): AuthzEngine;
}

export interface Proposal {
  holders: Holder[];
  edits?: RbacEdits;
  /** Changes to objects other than RBAC (workload patches), already checked by the proposer. */
  otherChanges?: FixChange[];
  /** Requests the fix must refuse (expect denied) or keep (expect allowed); a write probe is decided with `stateLists`. */
  probes: (FixProbe | DeferredProbe)[];
  /** The state's lists after the fix's other changes (a namespace relabelled, a policy added), for write probes. */
  stateLists?: StateLists;
  /** Capabilities no holder may hold after the fix. */
  capabilities?: readonly Capability[];
  /** What the proposer found wrong with its own objects (validation), or undefined. */
  problems?: string[];
  /** More checks on the cluster after the fix; each returned text is a failure. */
  after?: (after: AfterFix) => string[];
  checks: string[];
  /** What the changes do, in one sentence (the remediation's lead). */
  summary: string;
  /** What the changes leave to a person. */
  leftover?: string;
}

export type Proposed = Proposal | { none: string };

export function noFix(reason: string): IssueFix {
  return { status: 'none', changes: [], probes: [], checks: [], reason };
}

export function verifyProposal(ctx: AnalysisContext, p: Proposed, observed?: ObservedRequests): IssueFix {
  if ('none' in p) return noFix(p.none);
  const invalid = [...(p.problems ?? []), ...(p.edits?.problems() ?? [])];
  if (invalid.length > 0) return noFix(`the changes would be refused: ${invalid.join('; ')}`);
  const { changes, rbac } = p.edits ? p.edits.result() : { changes: [], rbac: noRbacChanges() };
  // A fix that changes no RBAC object (a workload patch) leaves every answer as it is today.
  const unchanged = rbac.clusterRoles.length + rbac.roles.length + rbac.clusterRoleBindings.length + rbac.roleBindings.length === 0;
  const users = p.holders.map((h) => h.user);
  let engine: AuthzEngine | undefined = unchanged ? ctx.engine : undefined;
  const engineAfter = () => (engine ??= holderEngine(ctx.engine, users, rbac));
  const fast = unchanged ? undefined : fixedAccess(ctx.engine, users, rbac);
  const allowedAfter = (request: AuthzRequest): boolean => fast?.allowed(request) ?? engineAfter().authorize(request).allowed;
  const failures: string[] = [];
  const probes: (FixProbe | DeferredProbe)[] = [];
  let written: AuthzEngine | undefined;
  for (const probe of p.probes) {
    let allowed: boolean;
    if ('deferred' in probe) allowed = allowedAfter(deferredRequest(probe));
    else if (probe.write) {
      const d = decideWrite((written ??= withStateLists(engineAfter(), p.stateLists)), probe);
      if ('unknown' in d) {
        failures.push(`${probe.text}: ${d.unknown}`);
        continue;
      }
      allowed = d.allowed;
    } else allowed = allowedAfter({ user: userOf(probe.review), resource: probe.review.resourceAttributes });
    if (allowed !== (probe.expect === 'allowed'))
      failures.push(`${'deferred' in probe ? probeText(probe) : probe.text} would be ${allowed ? 'allowed' : 'refused'}`);
    probes.push(probe);
  }
  let needsChecked = 0;
  for (const h of p.holders) {
    for (const need of allowedToday(ctx.engine, holderNeeds(ctx, h, observed))) {
      needsChecked++;
      const allowed = allowedAfter({ user: need.user, resource: need.attrs });
      if (!allowed) failures.push(`it would break ${need.text}`);
      else probes.push({ expect: 'allowed', text: need.text, review: reviewOf(need.user, need.attrs) });
    }
  }
  // No rule of the holders' bindings may match a capability's questions after the fix: none holds one.
  if (p.capabilities && p.capabilities.length > 0 && (!fast || fast.mayHold(p.capabilities.flatMap((cap) => cap.questions)))) {
    const after = engineAfter();
    const scoped = unchanged ? ctx : (Object.create(ctx, { engine: { value: after }, access: { value: new AccessIndex(after) } }) as AnalysisContext);
    for (const h of p.holders)
      for (const cap of p.capabilities) if (holdingOf(scoped, cap, h.subject)) failures.push(`${describeSubject(h.subject)} could still ${cap.label}`);
  }
  failures.push(...(p.after?.({ allowed: allowedAfter, engine: engineAfter }) ?? []));
  if (failures.length > 0) return noFix(`the change that removes it fails the engine's checks: ${[...new Set(failures)].join('; ')}`);
  const checks = [
    ...p.checks,
    ...(p.holders.length === 0
      ? []
      : [
          needsChecked > 0
            ? `${needsChecked} request${needsChecked === 1 ? '' : 's'} the holders need today stay allowed`
            : 'no persona or observed requests are known for the holders',
        ]),
  ];
  const listed = listedProbes(probes);
  return {
    status: 'verified',
    changes: [...changes, ...(p.otherChanges ?? [])],
    probes: listed,
    ...(listed.length < probes.length ? { probesNotListed: probes.length - listed.length } : {}),
    checks,
    ...(p.leftover ? { reason: p.leftover } : {}),
  };
}

/** Reviews listed per expectation (denied, allowed) in a verified fix; writes are always listed. */
export const LISTED_PROBES_PER_EXPECTATION = 16;

/** The probes a fix lists, in their order: every write, and the first reviews of each expectation (a deferred one written now). */
function listedProbes(probes: readonly (FixProbe | DeferredProbe)[]): FixProbe[] {
  const seen = { allowed: 0, denied: 0 };
  const out: FixProbe[] = [];
  for (const probe of probes) {
    if ('deferred' in probe) {
      if (++seen[probe.expect] <= LISTED_PROBES_PER_EXPECTATION) out.push(writtenProbe(probe));
    } else if (probe.write !== undefined || ++seen[probe.expect] <= LISTED_PROBES_PER_EXPECTATION) out.push(probe);
  }
  return out;
}
