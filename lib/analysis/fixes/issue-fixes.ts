import type { AnalysisContext } from '@/lib/analysis/context-types';
import { CATALOG, type CheckId } from '@/lib/analysis/catalog';
import { capability } from '@/lib/analysis/capabilities';
import type { Finding, FixChange, Issue } from '@/lib/analysis/types';
import { refKey } from '@/lib/k8s/refs';
import { pushTo } from '@/lib/k8s/push-to';
import { copiesLead } from '@/lib/analysis/issues/group-issues';
import { fixText } from './fix-text';
import { res } from './holder';
import type { ObservedRequests } from './holder-needs';
import { proposeClaimGuard } from './propose-claim-guard';
import { proposeDeviceStatus } from './propose-device-status';
import { proposeDriverScope } from './propose-driver-scope';
import { proposeEscalationRemoval } from './propose-escalation-removal';
import { proposeNodeIdentityGrants } from './propose-node-identity-grants';
import { proposeNodeStatus } from './propose-node-status';
import { proposeNodeWrites } from './propose-node-writes';
import { proposeLeastPrivilege } from './propose-least-privilege';
import { proposeAdminAccessLabelRemoval, proposeLegacyLabelRemoval } from './propose-namespace-labels';
import { proposePodHardening } from './propose-pod-hardening';
import { proposeClaimCountQuota, proposeDeviceQuota } from './propose-quota-limits';
import { proposeRemoveAccess } from './propose-remove-access';
import { proposeSlicePinning } from './propose-slice-pinning';
import { proposeTaintRuleWrites } from './propose-taint-rule-writes';
import { proposeWildcardNarrowing } from './propose-wildcard-narrowing';
import { noFix, verifyProposal, type Proposed } from './verify-fix';
import { MANUAL_REMEDIES } from './manual-remedies';

// Structured, checked fixes for the issues of a report (DESIGN §4: "a remediation is a change the
// engine can apply and check"). Each check with a structured fix proposes changes; verifyProposal
// applies them to a copy of the cluster and checks them before they are shown. The issue's
// remediation text is then written from the verified changes, or says there is no safe automatic
// fix and why. The checks whose remedy is no object change the engine can make (manual-remedies.ts)
// carry a `fix` with status none and their advice in words.

type Proposer = (ctx: AnalysisContext, findings: readonly Finding[], observed?: ObservedRequests) => Proposed;

const DRA = 'resource.k8s.io';
const RBAC = 'rbac.authorization.k8s.io';
const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'];

const PROPOSERS: Partial<Record<CheckId, Proposer>> = {
  DRA001: proposeLeastPrivilege,
  DRA002: proposeWildcardNarrowing,
  DRA003: (ctx, findings) =>
    proposeRemoveAccess(ctx, findings, {
      remove: { group: DRA, resources: ['resourceslices', 'deviceclasses'], verbs: WRITES },
      capabilities: [capability('write-resourceslices'), capability('write-deviceclasses')],
      refused: () => [
        res('create', DRA, 'resourceslices'),
        res('update', DRA, 'resourceslices', { name: 'any-slice' }),
        res('delete', DRA, 'resourceslices', { name: 'any-slice' }),
        res('create', DRA, 'deviceclasses'),
        res('update', DRA, 'deviceclasses', { name: 'any-class' }),
      ],
    }),
  DRA004: proposeDriverScope,
  DRA005: proposeDeviceStatus,
  DRA007: (ctx, findings) =>
    proposeRemoveAccess(ctx, findings, {
      remove: { group: DRA, resources: ['resourceclaims/binding'], verbs: ['update', 'patch'] },
      capabilities: [capability('allocate-claims')],
      // The API server checks binding at cluster scope (no namespace, no name).
      refused: () => ['update', 'patch'].map((verb) => res(verb, DRA, 'resourceclaims', { subresource: 'binding' })),
    }),
  DRA008: proposeEscalationRemoval,
  DRA012: proposeSlicePinning,
  // The tenant keeps reading its Namespace; it can no longer set the admin-access label on it.
  CLAIM003: (ctx, findings) => {
    const namespaces = [...new Set(findings.flatMap((f) => f.objects.filter((o) => o.kind === 'Namespace').map((o) => o.name)))];
    // A request on a Namespace object carries the namespace's own name as its namespace (RequestInfo).
    // The same requests for every holder, made once: an issue of many holders and namespaces asks
    // each holder about every namespace (~157,000 requests on the diverse bench cluster).
    const requests = namespaces.flatMap((ns) => ['update', 'patch'].map((verb) => res(verb, '', 'namespaces', { namespace: ns, name: ns })));
    return proposeRemoveAccess(ctx, findings, {
      remove: { group: '', resources: ['namespaces'], verbs: ['update', 'patch'] },
      what: 'update and patch on namespaces',
      capabilities: [],
      refused: () => requests,
    });
  },
  // bind and escalate go; role writes and binding creates (RBAC administration) stay.
  DRA010: (ctx, findings) =>
    proposeRemoveAccess(ctx, findings, {
      remove: { group: RBAC, resources: ['clusterroles', 'roles'], verbs: ['bind', 'escalate'] },
      capabilities: [capability('escalate-or-bind')],
      refused: (h) => {
        const namespace = h.subject.namespace ?? 'default';
        return [
          res('bind', RBAC, 'clusterroles', { name: 'any-role' }),
          res('bind', RBAC, 'clusterroles', { namespace, name: 'any-role' }),
          res('escalate', RBAC, 'clusterroles', { name: 'any-role' }),
          res('escalate', RBAC, 'roles', { namespace, name: 'any-role' }),
        ];
      },
    }),
  DRA011: proposeTaintRuleWrites,
  CLAIM001: proposeAdminAccessLabelRemoval,
  CLAIM004: proposeClaimGuard,
  CLAIM005: proposeLegacyLabelRemoval,
  NODE001: proposeNodeStatus,
  NODE002: (ctx, findings) =>
    proposeRemoveAccess(ctx, findings, {
      remove: { group: '', resources: ['users', 'groups', 'serviceaccounts'], verbs: ['impersonate'] },
      capabilities: [capability('legacy-impersonation')],
      refused: () => [res('impersonate', '', 'groups', { name: 'system:masters' }), res('impersonate', '', 'users', { name: 'system:admin' })],
    }),
  NODE003: proposeNodeWrites,
  NODE006: proposeNodeIdentityGrants,
  POD003: proposePodHardening,
  QUOTA001: proposeClaimCountQuota,
  QUOTA002: proposeDeviceQuota,
};

/** Fixes of one object per namespace: the text prints this many, the JSON carries all (a large cluster has thousands). */
const SHOWN_CHANGES: Partial<Record<CheckId, number>> = { QUOTA001: 20, QUOTA002: 20 };

/** How many of a check's fix changes its issue's text prints (the rest are in fix.changes). */
export function shownChanges(check: CheckId): number {
  return SHOWN_CHANGES[check] ?? Infinity;
}

export function checksWithFixes(): CheckId[] {
  return Object.keys(PROPOSERS) as CheckId[];
}

/** The checks whose remedy the engine does not change objects for (their issues say why, in words). */
export function checksWithManualRemedies(): CheckId[] {
  return Object.keys(MANUAL_REMEDIES) as CheckId[];
}

/** The issues with `fix` set (and their remediation text written from it) where the check has a structured fix. */
export function withFixes(ctx: AnalysisContext, issues: readonly Issue[], findings: readonly Finding[], observed?: ObservedRequests): Issue[] {
  let byId: Map<string, Finding> | undefined;
  const fixed = issues.map((issue) => {
    const propose = PROPOSERS[issue.check];
    const manual = MANUAL_REMEDIES[issue.check];
    if (!propose && !manual) return issue;
    byId ??= new Map(findings.map((f) => [f.id, f]));
    const list = issue.findingIds.map((id) => byId!.get(id)).filter((f): f is Finding => f !== undefined);
    if (list.length === 0) return issue;
    if (!propose) {
      const fix = noFix(manual!.reason(ctx, list));
      const advice = manual!.advice?.(ctx, list);
      // Copies of one Role: the lead that says to fix the chart they come from stays.
      const lead =
        advice !== undefined && issue.rootCause.length > 1 && issue.remediation.startsWith(copiesLead(issue.rootCause[0].kind, issue.rootCause.length))
          ? `${copiesLead(issue.rootCause[0].kind, issue.rootCause.length)} `
          : '';
      return { ...issue, fix, remediation: lead + fixText(fix, '', advice ?? issue.remediation) };
    }
    const proposed = propose(ctx, list, observed);
    const fix = verifyProposal(ctx, proposed, observed);
    const summary = 'none' in proposed ? '' : proposed.summary;
    return { ...issue, fix, remediation: fixText(fix, summary, CATALOG[issue.check].remediation, SHOWN_CHANGES[issue.check]) };
  });
  return withSharedObjects(fixed);
}

/** The object a change patches or creates, as a key. */
function changedObject(c: FixChange): string {
  if (c.action === 'patch') return refKey(c.target);
  const meta = (c.object.metadata ?? {}) as { name?: string; namespace?: string };
  return refKey({ kind: String(c.object.kind ?? ''), name: meta.name ?? '', ...(meta.namespace ? { namespace: meta.namespace } : {}) });
}

/**
 * Verified fixes that change the same object are each made against today's cluster: a patch replaces
 * the whole rule list, so applying them one after another as printed would undo the earlier one.
 * Each such fix names the others and its remediation says to apply one, then report again.
 */
function withSharedObjects(issues: Issue[]): Issue[] {
  const byObject = new Map<string, Issue[]>();
  for (const issue of issues) {
    if (issue.fix?.status !== 'verified') continue;
    for (const key of new Set(issue.fix.changes.map(changedObject))) pushTo(byObject, key, issue);
  }
  const shared = new Map<Issue, Set<Issue>>();
  for (const list of byObject.values()) {
    if (list.length < 2) continue;
    for (const a of list) {
      let others = shared.get(a);
      if (!others) shared.set(a, (others = new Set()));
      for (const b of list) if (b !== a) others.add(b);
    }
  }
  if (shared.size === 0) return issues;
  return issues.map((issue) => {
    const others = shared.get(issue);
    if (!others) return issue;
    const list = [...others];
    const names = list.slice(0, 5).map((o) => `${o.check} (${o.id})`);
    const more = list.length > 5 ? ` and ${list.length - 5} more` : '';
    const note =
      `\nBefore applying: the fix${list.length > 1 ? 'es' : ''} of ${names.join(', ')}${more} also change${list.length > 1 ? '' : 's'} an object this fix changes, each made against today's cluster. ` +
      'A patch replaces the whole rule list, so apply one of them, run the report again, and apply the next fix it prints (applied as printed one after the other, the later one would undo the earlier one).';
    return { ...issue, remediation: issue.remediation + note, fix: { ...issue.fix!, sharesObjectsWith: list.map((o) => o.id).sort() } };
  });
}
