import { usernameOf } from '@/lib/analysis/context/identities';
import { findingId } from '@/lib/analysis/finding-id';
import { issueIdOf, rootCauseOf } from '@/lib/analysis/issues/root-cause';
import { describeSubject } from '@/lib/k8s/refs';
import { CATALOG } from '@/lib/analysis/catalog';
import type { DetailedFinding } from '@/lib/analysis/types';
import type { AggregatedAlert } from './aggregate-activity';

// The audit alert family of the check catalogue (lib/analysis/catalog.ts, AUDIT001–005): one finding per (check, requester, objects),
// with the count and first/last time of the events behind it. IDs come from findingId, like every
// other check, so a finding keeps its ID from one window to the next.

export interface AuditFindingOptions {
  /** Whether a service account is a DRA driver (AUDIT003); without a cluster every service account counts as one. */
  isDriver?: (username: string) => boolean;
}

function message(a: AggregatedAlert): string {
  const who = describeSubject(a.subject);
  const from = a.node ? ` from node ${a.node}` : '';
  const times = `${a.count} event(s) between ${a.first} and ${a.last}`;
  const reason = a.reason ? ` Last reason: ${a.reason}` : '';
  return `${who}${from}: ${a.details.join('; ')}. ${times}.${reason}`;
}

/** Findings for aggregated alerts, in the shape and ID scheme of every other check. */
export function auditFindings(alerts: readonly AggregatedAlert[], options: AuditFindingOptions = {}): DetailedFinding[] {
  const out: DetailedFinding[] = [];
  for (const a of alerts) {
    const check = CATALOG[a.check];
    if (a.check === 'AUDIT003' && a.writerIsServiceAccount && a.objects[0]?.kind === 'ResourceSlice') {
      if (!options.isDriver || options.isDriver(usernameOf(a.subject))) continue;
    }
    out.push({
      id: findingId(a.check, [a.subject], a.objects),
      issueId: issueIdOf(a.check, rootCauseOf({ check: a.check, objects: a.objects })),
      check: a.check,
      severity: check.severity,
      subjects: [a.subject],
      objects: a.objects,
      evidence: [
        { type: 'note', text: `audit: ${a.count} event(s), first ${a.first}, last ${a.last}` },
        ...a.details.map((text) => ({ type: 'note' as const, text })),
      ],
      title: check.title,
      message: message(a),
      remediation: check.remediation,
    });
  }
  return out;
}
