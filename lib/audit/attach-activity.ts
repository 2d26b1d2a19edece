import { usernameOf } from '@/lib/analysis/context/identities';
import { compareFindings } from '@/lib/analysis/checks/registry';
import type { AuthzEngine } from '@/lib/authz/authz-engine';
import { SEVERITIES, type Report, type Severity } from '@/lib/analysis/types';
import type { AuditAggregate } from './aggregate-activity';
import { auditFindings } from './audit-findings';
import { unusedGrants } from './unused-grants';

/** Identities the report shows as DRA drivers (writers of claim status, any mode). */
function driverUsernames(report: Report): Set<string> {
  const out = new Set<string>();
  for (const w of report.allNodes.claimStatusWriters) out.add(usernameOf(w.subject));
  for (const n of report.nodes) for (const w of n.claimStatusWriters) out.add(usernameOf(w.subject));
  return out;
}

/**
 * The report with what the audit log adds: AUDIT findings merged into `findings` and `summary`, and
 * the `activity` section. Existing fields keep their meaning; nothing is removed.
 */
export function withActivity(report: Report, engine: AuthzEngine, aggregate: AuditAggregate): Report {
  const drivers = driverUsernames(report);
  const extra = auditFindings(aggregate.alerts, { isDriver: (u) => drivers.has(u) });
  const findings = [...report.findings, ...extra].sort(compareFindings);
  const summary = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) summary[f.severity]++;
  return { ...report, findings, summary, activity: { ...aggregate.activity, unusedGrants: unusedGrants(engine, aggregate) } };
}
