import { performance } from 'node:perf_hooks';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { CHECK_LIST, runChecks } from '@/lib/analysis/checks/registry';
import { separateTexts } from '@/lib/analysis/finding-texts';
import { analyseIssues } from '@/lib/analysis/issues/group-issues';
import { withFixes } from '@/lib/analysis/fixes/issue-fixes';
import { withFixTexts } from '@/lib/analysis/fixes/finding-fix-texts';
import { deviceClassReports } from '@/lib/analysis/zeroing/device-classes';
import { mergeSettings } from '@/lib/analysis/settings';
import { listNodeWriters } from '@/lib/analysis/node-writers/node-writers';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';

// The report's analysis stage by stage, in the order buildReport runs them: the engine, the context,
// each check on its own (a check pays for what it first asks the context for: node or claim
// writers, quota usage), then all checks again (warm: finding IDs and texts), node writers, issues,
// their checked fixes (each applied to a copy of the cluster: ~1.4 s of a cold diverse report) and
// the findings' fix texts.

export interface Stage {
  name: string;
  ms: number;
  /** The check's findings. */
  findings?: number;
  /** Heap kept after the stage, measured after a full collection (only with --expose-gc). */
  heapMiB?: number;
}

export function analysisStages(state: ClusterState): Stage[] {
  const stages: Stage[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  let t = performance.now();
  const lap = (name: string, findings?: number) => {
    const ms = performance.now() - t;
    const stage: Stage = { name, ms, ...(findings === undefined ? {} : { findings }) };
    // The collection runs outside the timings.
    if (gc) {
      gc();
      stage.heapMiB = process.memoryUsage().heapUsed / 1024 / 1024;
    }
    stages.push(stage);
    t = performance.now();
  };
  const engine = createAuthzEngine(state);
  lap('authz engine');
  const ctx = buildAnalysisContext(state, engine, mergeSettings(undefined));
  lap('context');
  for (const check of CHECK_LIST) {
    const n = check.run(ctx).length;
    lap(`check ${check.id}`, n);
  }
  const findings = runChecks(ctx);
  lap('runChecks (all, again)');
  const { findings: slim, texts } = separateTexts(findings);
  const writers = listNodeWriters(ctx);
  lap('node writers');
  const { issues } = analyseIssues(slim, texts, ctx, writers);
  lap('issues and attack paths');
  const fixed = withFixes(ctx, issues, slim);
  lap('issue fixes (checked)');
  withFixTexts(texts, fixed, slim);
  lap('finding fix texts');
  deviceClassReports(ctx);
  lap('device classes');
  return stages;
}
