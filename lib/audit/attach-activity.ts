import { usernameOf } from '@/lib/analysis/context/identities';
import { compareFindings } from '@/lib/analysis/checks/registry';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { analyseIssues } from '@/lib/analysis/issues/group-issues';
import { SEVERITIES, type FindingTexts, type Report, type Severity } from '@/lib/analysis/types';
import { separateTexts } from '@/lib/analysis/finding-texts';
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
 * The report with what the audit log adds: AUDIT findings merged into `findings`, `summary` and
 * `issues`, and the `activity` section. Existing fields keep their meaning; nothing is removed.
 */
export function withActivity<B extends { report: Report; context: AnalysisContext; texts: FindingTexts }>(build: B, aggregate: AuditAggregate): B {
  const { report, context } = build;
  const drivers = driverUsernames(report);
  const audit = separateTexts(auditFindings(aggregate.alerts, { isDriver: (u) => drivers.has(u) }));
  const extra = audit.findings;
  const texts = new Map([...build.texts, ...audit.texts]);
  const findings = [...report.findings, ...extra].sort(compareFindings);
  const summary = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) summary[f.severity]++;
  const { issues, attackPaths } = extra.length > 0 ? analyseIssues(findings, texts, context, { allNodes: report.allNodes, nodes: report.nodes }) : report;
  const activity = { ...aggregate.activity, unusedGrants: unusedGrants(context.engine, aggregate) };
  return { ...build, texts, report: { ...report, issues, attackPaths, findings, summary, activity } };
}
