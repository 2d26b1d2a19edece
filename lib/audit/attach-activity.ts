import { usernameOf } from '@/lib/analysis/context/identities';
import { compareFindings } from '@/lib/analysis/checks/registry';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { analyseIssues } from '@/lib/analysis/issues/group-issues';
import { withFixes } from '@/lib/analysis/fixes/issue-fixes';
import { withFixTexts } from '@/lib/analysis/fixes/finding-fix-texts';
import type { ObservedRequests } from '@/lib/analysis/fixes/holder-needs';
import { parseUsageKey } from './classify-request';
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
  const analysed = extra.length > 0 ? analyseIssues(findings, texts, context, { allNodes: report.allNodes, nodes: report.nodes }) : report;
  // Fixes checked again: what each identity was observed doing must keep working.
  const issues = withFixes(context, analysed.issues, findings, observedRequests(aggregate));
  const attackPaths = analysed.attackPaths;
  // The findings of a fixed issue show the fix checked with the observed requests.
  const fixedTexts = withFixTexts(texts, issues, findings);
  const activity = { ...aggregate.activity, unusedGrants: unusedGrants(context.engine, aggregate) };
  return { ...build, texts: fixedTexts, report: { ...report, issues, attackPaths, findings, summary, activity } };
}

/** The successful requests of each identity in the window, as request attributes. */
function observedRequests(aggregate: Pick<AuditAggregate, 'usage'>): ObservedRequests {
  const out = new Map<string, ReturnType<typeof parseUsageKey>[]>();
  for (const [identity, { used }] of aggregate.usage) out.set(identity, [...used].map(parseUsageKey));
  return out;
}
