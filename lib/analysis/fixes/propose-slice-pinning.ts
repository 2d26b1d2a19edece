import { describeSubject } from '@/lib/k8s/refs';
import { slicePinningPolicy } from '@/lib/admission/slice-pinning-policy';
import type { SubjectRef, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { usernameOf } from '@/lib/analysis/context/identities';
import { pinningFor, slicePinningPolicies } from '@/lib/analysis/context/slice-pinning';
import type { Finding, FixChange, FixProbe } from '@/lib/analysis/types';
import { list, slug } from '@/lib/analysis/checks/check-helpers';
import { otherNodeOf, type Holder } from './holder';
import { holdersOfIssue } from './propose-remove-access';
import { servedDrivers } from './served-drivers';
import type { Proposed } from './verify-fix';
import { decideWrite, writeProbe, type StateLists } from './write-probes';

// DRA012: a node-local driver may write ResourceSlices of every node, and no admission policy pins its
// writes to its own node. The fix adds, per holder, a ValidatingAdmissionPolicy and binding
// (lib/admission/slice-pinning-policy.ts); it changes no RBAC, so every authorization answer stays. Checked: the
// policies pin each holder by the same evaluation DRA012 makes (context/slice-pinning.ts: creates,
// updates and deletes of another node's slices refused), a slice of another node is refused, and a
// slice of its own node, which the driver publishes, is still accepted.

function slice(node: string, driver: string): Record<string, unknown> {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: `${node}-${driver}-fix-check`.slice(0, 253) },
    spec: { driver, pool: { name: node, generation: 1, resourceSliceCount: 1 }, nodeName: node, devices: [] },
  };
}

/** The driver name its slices carry: the one it serves, else the cluster's only driver, else a stand-in. */
function driverOf(ctx: AnalysisContext, h: Holder): string {
  return servedDrivers(ctx, h.subject)[0] ?? (ctx.knownDrivers.length === 1 ? ctx.knownDrivers[0] : 'fix-check.dra-posture.io');
}

/** The pinning policy and binding of one service account (slice-pinning-policy.ts), named after it. */
export function pinningPolicyOf(sa: SubjectRef): { policy: ValidatingAdmissionPolicy; binding: ValidatingAdmissionPolicyBinding } {
  return slicePinningPolicy({ name: `${slug(sa)}-slices-own-node`, username: usernameOf(sa) });
}

/** The policy and binding that pin one holder's slice writes, and the writes that check them (those the cluster accepts today). */
export function pinSlices(
  ctx: AnalysisContext,
  h: Holder & { node: string },
): { changes: FixChange[]; probes: FixProbe[]; policy: ValidatingAdmissionPolicy; binding: ValidatingAdmissionPolicyBinding } {
  const who = describeSubject(h.subject);
  const { policy, binding } = pinningPolicyOf(h.subject);
  const changes: FixChange[] = [
    {
      action: 'create',
      object: policy as unknown as Record<string, unknown>,
      why: `refuses ResourceSlice writes by ${who} unless spec.nodeName is the node its token names`,
    },
    { action: 'create', object: binding as unknown as Record<string, unknown>, why: 'turns the policy on (Deny)' },
  ];
  const driver = driverOf(ctx, h);
  const other = otherNodeOf(ctx, h);
  const own = writeProbe('allowed', `${who}: create a ResourceSlice of its own node ${h.node} (driver ${driver})`, h.user, 'CREATE', slice(h.node, driver));
  const foreign = writeProbe('denied', `${who}: create a ResourceSlice of another node (${other})`, h.user, 'CREATE', slice(other, driver));
  // Only what the cluster accepts today decides the fix: a write refused already is not its doing.
  const probes = [own, foreign].filter((probe) => {
    const today = decideWrite(ctx.engine, probe);
    return 'allowed' in today && today.allowed;
  });
  return { changes, probes, policy, binding };
}

/** Failures when the policies (with the cluster's own) leave a holder unpinned, by DRA012's evaluation. */
export function unpinned(
  ctx: AnalysisContext,
  holders: readonly Holder[],
  stateLists: Required<Pick<StateLists, 'validatingAdmissionPolicies' | 'validatingAdmissionPolicyBindings'>>,
): string[] {
  const pinning = slicePinningPolicies({ ...ctx.state, ...stateLists });
  return holders
    .filter((h) => pinningFor(pinning, usernameOf(h.subject)).pinnedBy.length === 0)
    .map((h) => `${describeSubject(h.subject)} could still write ResourceSlices of other nodes`);
}

export function proposeSlicePinning(ctx: AnalysisContext, findings: readonly Finding[]): Proposed {
  const holders = holdersOfIssue(ctx, findings);
  const changes: FixChange[] = [];
  const probes: FixProbe[] = [];
  const stateLists = {
    validatingAdmissionPolicies: [...ctx.state.validatingAdmissionPolicies],
    validatingAdmissionPolicyBindings: [...ctx.state.validatingAdmissionPolicyBindings],
  };
  for (const h of holders) {
    const who = describeSubject(h.subject);
    if (h.subject.kind !== 'ServiceAccount') return { none: `${who} is not a service account: no token of it names a node to pin its writes to` };
    if (h.node === undefined)
      return { none: `${who} runs no pod on a node, so no token of it names one: a policy pinning its slice writes to its node would refuse them all` };
    const pinned = pinSlices(ctx, { ...h, node: h.node });
    changes.push(...pinned.changes);
    probes.push(...pinned.probes);
    stateLists.validatingAdmissionPolicies.push(pinned.policy);
    stateLists.validatingAdmissionPolicyBindings.push(pinned.binding);
  }
  return {
    holders,
    otherChanges: changes,
    probes,
    stateLists,
    after: () => unpinned(ctx, holders, stateLists),
    checks: [
      'the policies refuse each holder’s create, update and delete of another node’s ResourceSlices (the evaluation DRA012 makes)',
      'each holder’s slices of its own node are still accepted; no RBAC changes',
    ],
    summary: `Add a ValidatingAdmissionPolicy and binding that pin the ResourceSlice writes of ${list(holders.map((h) => describeSubject(h.subject)))} to the node each token names`,
  };
}
