import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { AccessIndex } from '@/lib/analysis/context/access';
import type { Capability } from '@/lib/analysis/capabilities';
import { holdingOf } from '@/lib/analysis/capability-holders';
import type { FixChange, FixProbe, IssueFix } from '@/lib/analysis/types';
import { deferredRequest, probeText, writtenProbe, type DeferredProbe } from './deferred-probe';
import { holderEngine, noRbacChanges } from './holder-engine';
import { reviewOf, userOf, type Holder } from './holder';
import { allowedToday, holderNeeds, type ObservedRequests } from './holder-needs';
import type { RbacEdits } from './role-edits';
import { decideWrite, withStateLists, type StateLists } from './write-probes';

// Checks a proposed fix before it is shown: its objects are valid for the API server, and on a copy
// of the cluster with the changes applied (holderEngine), (a) each holder no longer holds the
// finding's capability (the capability table's questions, asked again, and the proposal's own
// refused requests), (b) what each holder needs still holds (its persona's requests and its
// observed requests that are allowed today, and the proposal's own kept requests).

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
  /** More checks on the engine after the fix; each returned text is a failure. */
  after?: (engine: AuthzEngine) => string[];
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
  const after = unchanged
    ? ctx.engine
    : holderEngine(
        ctx.engine,
        p.holders.map((h) => h.user),
        rbac,
      );
  const failures: string[] = [];
  const probes: (FixProbe | DeferredProbe)[] = [];
  let written: AuthzEngine | undefined;
  for (const probe of p.probes) {
    let allowed: boolean;
    if ('deferred' in probe) allowed = after.authorize(deferredRequest(probe)).allowed;
    else if (probe.write) {
      const d = decideWrite((written ??= withStateLists(after, p.stateLists)), probe);
      if ('unknown' in d) {
        failures.push(`${probe.text}: ${d.unknown}`);
        continue;
      }
      allowed = d.allowed;
    } else allowed = after.authorize({ user: userOf(probe.review), resource: probe.review.resourceAttributes }).allowed;
    if (allowed !== (probe.expect === 'allowed'))
      failures.push(`${'deferred' in probe ? probeText(probe) : probe.text} would be ${allowed ? 'allowed' : 'refused'}`);
    probes.push(probe);
  }
  let needsChecked = 0;
  for (const h of p.holders) {
    for (const need of allowedToday(ctx.engine, holderNeeds(ctx, h, observed))) {
      needsChecked++;
      const allowed = after.authorize({ user: need.user, resource: need.attrs }).allowed;
      if (!allowed) failures.push(`it would break ${need.text}`);
      else probes.push({ expect: 'allowed', text: need.text, review: reviewOf(need.user, need.attrs) });
    }
  }
  if (p.capabilities && p.capabilities.length > 0) {
    const scoped = unchanged ? ctx : (Object.create(ctx, { engine: { value: after }, access: { value: new AccessIndex(after) } }) as AnalysisContext);
    for (const h of p.holders)
      for (const cap of p.capabilities) if (holdingOf(scoped, cap, h.subject)) failures.push(`${describeSubject(h.subject)} could still ${cap.label}`);
  }
  failures.push(...(p.after?.(after) ?? []));
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
