import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { runChecks } from '@/lib/analysis/checks/registry';
import { analyseIssues } from '@/lib/analysis/issues/group-issues';
import { withFixes } from '@/lib/analysis/fixes/issue-fixes';
import { withFixTexts } from '@/lib/analysis/fixes/finding-fix-texts';
import { listNodeWriters } from '@/lib/analysis/node-writers/node-writers';
import { mergeSettings, type AnalysisSettings } from '@/lib/analysis/settings';
import { deviceClassReports } from '@/lib/analysis/zeroing/device-classes';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { AuthorizerName } from '@/lib/authz/types';
import type { ClusterConfigOverrides } from '@/lib/authz/cluster-config';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { SEVERITIES, type FindingTexts, type Report, type Severity } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import { separateTexts } from '@/lib/analysis/finding-texts';
import { checksUnknownFor } from '@/lib/analysis/check-kinds';

export interface BuildReportOptions {
  /** Overrides of the analysis settings (thresholds, indicator tables...). */
  settings?: Partial<AnalysisSettings>;
  /** Authorizer chain after system:masters (default: the cluster's own, else Node,RBAC). */
  chain?: readonly AuthorizerName[];
  /** What the user states about the API server (CLI flags), over its visible flags and version defaults. */
  clusterConfig?: ClusterConfigOverrides;
  /** The build of an earlier version of the same cluster: the engine's unchanged indexes are kept. */
  previous?: ReportBuild;
}

/** Everything a report is made of, for callers (API, UI) that also need the context. */
export interface ReportBuild {
  report: Report;
  context: AnalysisContext;
  /** Each finding's own message and fix (the report's JSON has them once per issue). */
  texts: FindingTexts;
}

/**
 * The posture report (DESIGN §5): findings of every check, node and claim status writers per node,
 * DRA quota usage, DeviceClass zeroing, warnings. Deterministic: the same cluster, in any object
 * order, gives the same JSON.
 */
export function buildReport(state: ClusterState, options: BuildReportOptions = {}): Report {
  return buildReportWithContext(state, options).report;
}

export function buildReportWithContext(state: ClusterState, options: BuildReportOptions = {}): ReportBuild {
  const settings = mergeSettings(options.settings);
  const engine = createAuthzEngine(state, {
    ...(options.chain ? { chain: options.chain } : {}),
    ...(options.clusterConfig ? { overrides: options.clusterConfig } : {}),
    previous: options.previous?.context.engine,
  });
  const context = buildAnalysisContext(state, engine, settings);

  const { findings, texts: checkTexts } = separateTexts(runChecks(context));
  const summary = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) summary[f.severity]++;

  const { allNodes, nodes } = listNodeWriters(context);
  const analysed = analyseIssues(findings, checkTexts, context, { allNodes, nodes });
  // Structured fixes, each applied to a copy of the cluster and checked before it is shown.
  const issues = withFixes(context, analysed.issues, findings);
  // A finding of a fixed issue shows that checked fix, never the check's own unchecked YAML.
  const texts = withFixTexts(checkTexts, issues, findings);
  const attackPaths = analysed.attackPaths;
  const quotaAnalysis = context.quotas;
  const { notes: configNotes, ...clusterConfig } = engine.config;
  const warnings = [...new Set([...state.warnings, ...engine.rbac.notes, ...quotaAnalysis.notes, ...configNotes])].sort(compareStrings);

  const report: Report = {
    schemaVersion: 2,
    source: {
      kind: state.source.kind,
      name: state.source.name,
      collectedAt: state.source.collectedAt ?? null,
      kubernetesVersion: state.source.kubernetesVersion ?? null,
    },
    summary,
    issues,
    attackPaths,
    findings,
    allNodes,
    nodes,
    quotas: quotaAnalysis.quotas,
    deviceClasses: deviceClassReports(context),
    warnings,
    clusterConfig,
  };
  // Kinds the source could not read make the checks that need them unknown, not a silent pass.
  const unread = state.source.unreadKinds ?? [];
  if (unread.length > 0) {
    report.partial = true;
    report.checksUnknown = checksUnknownFor(unread);
  }
  return { report, context, texts };
}

/** Findings at or above a severity (critical is the highest). */
export function countAtOrAbove(report: Pick<Report, 'summary'>, severity: Severity): number {
  const rank = SEVERITIES.indexOf(severity);
  return SEVERITIES.filter((_, i) => i <= rank).reduce((n, s) => n + (report.summary[s] ?? 0), 0);
}
