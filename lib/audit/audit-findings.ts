import { usernameOf } from '@/lib/analysis/context/identities';
import { findingId } from '@/lib/analysis/finding-id';
import { describeSubjectRef } from '@/lib/report/render-markdown';
import type { Finding, Severity } from '@/lib/report/types';
import type { AggregatedAlert } from './aggregate-activity';
import { OPAQUE_ALERT_BYTES, type AuditCheckId } from './alert-rules';

// The audit alert family of the check catalogue: one finding per (check, requester, objects),
// with the count and first/last time of the events behind it. IDs come from findingId, like every
// other check, so a finding keeps its ID from one window to the next.

export interface AuditCheck {
  id: AuditCheckId;
  severity: Severity;
  title: string;
  description: string;
  remediation: string;
}

export const AUDIT_CHECKS: readonly AuditCheck[] = [
  {
    id: 'AUDIT001',
    severity: 'high',
    title: 'ResourceClaim with adminAccess created',
    description:
      'A ResourceClaim or ResourceClaimTemplate create whose request asks for adminAccess: true (seen only when the audit policy logs request bodies: Request or RequestResponse).',
    remediation:
      'Confirm the namespace is meant to carry resource.kubernetes.io/admin-access=true and that the creator should have device admin access; otherwise remove the label and the claim.',
  },
  {
    id: 'AUDIT002',
    severity: 'high',
    title: `Opaque device parameters over ${OPAQUE_ALERT_BYTES / 1024} KiB`,
    description: `A claim, claim template or DeviceClass write carrying opaque parameters larger than ${OPAQUE_ALERT_BYTES} characters of JSON. The API server refuses more than 10 KiB, so such a request is a probe of the drivers' parsers or of validation (needs request bodies in the log).`,
    remediation: 'Find out why the identity sends oversized driver parameters; restrict who can create claims in that namespace.',
  },
  {
    id: 'AUDIT003',
    severity: 'medium',
    title: 'DeviceClass or ResourceSlice mutated by a non-driver',
    description:
      'Any DeviceClass create/update/patch/delete, and ResourceSlice writes by an identity that is not a node, not a DRA driver (a service account that holds resourceclaims/driver or resourceclaims/status writes when the cluster is known) and not the garbage collector deleting slices.',
    remediation: 'DeviceClasses should change only through reviewed deployments; slices only through their driver. Remove the write grant from the identity.',
  },
  {
    id: 'AUDIT004',
    severity: 'high',
    title: 'Denied resourceclaims/driver or resourceclaims/binding writes',
    description:
      'Writes to the DRA status subresources refused by authorization: a driver that lost (or never had) its grant after a least-privilege rollout, or an identity probing claim status.',
    remediation:
      'If the identity is a driver, grant associated-node:update/patch on resourceclaims/driver for its driver name (resourceNames); otherwise investigate the source node.',
  },
  {
    id: 'AUDIT005',
    severity: 'critical',
    title: 'nodes/status written by impersonating another node',
    description:
      "nodes/status update/patch made while impersonating system:node:X from a requester whose token is not bound to X: legacy or arbitrary-node impersonation used to rewrite another node's status.",
    remediation:
      'Replace legacy/arbitrary-node impersonation grants with constrained impersonation (impersonate:associated-node + impersonate-on:associated-node:update on nodes/status).',
  },
];

const BY_ID = new Map(AUDIT_CHECKS.map((c) => [c.id, c]));

export interface AuditFindingOptions {
  /** Whether a service account is a DRA driver (AUDIT003); without a cluster every service account counts as one. */
  isDriver?: (username: string) => boolean;
}

function message(a: AggregatedAlert): string {
  const who = describeSubjectRef(a.subject);
  const from = a.node ? ` from node ${a.node}` : '';
  const times = `${a.count} event(s) between ${a.first} and ${a.last}`;
  const reason = a.reason ? ` Last reason: ${a.reason}` : '';
  return `${who}${from}: ${a.details.join('; ')}. ${times}.${reason}`;
}

/** Findings for aggregated alerts, in the shape and ID scheme of every other check. */
export function auditFindings(alerts: readonly AggregatedAlert[], options: AuditFindingOptions = {}): Finding[] {
  const out: Finding[] = [];
  for (const a of alerts) {
    const check = BY_ID.get(a.check)!;
    if (a.check === 'AUDIT003' && a.writerIsServiceAccount && a.objects[0]?.kind === 'ResourceSlice') {
      if (!options.isDriver || options.isDriver(usernameOf(a.subject))) continue;
    }
    out.push({
      id: findingId(a.check, [a.subject], a.objects),
      check: a.check,
      severity: check.severity,
      title: check.title,
      subjects: [a.subject],
      objects: a.objects,
      message: message(a),
      evidence: [
        { type: 'note', text: `audit: ${a.count} event(s), first ${a.first}, last ${a.last}` },
        ...a.details.map((text) => ({ type: 'note' as const, text })),
      ],
      remediation: check.remediation,
    });
  }
  return out;
}
