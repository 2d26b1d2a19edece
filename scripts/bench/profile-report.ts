// Where the report's analysis spends its time on the large bench cluster: one line per stage.
import { performance } from 'node:perf_hooks';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { CHECK_LIST, runChecks } from '@/lib/analysis/checks/registry';
import { separateTexts } from '@/lib/analysis/finding-texts';
import { analyseIssues } from '@/lib/analysis/issues/group-issues';
import { deviceClassReports } from '@/lib/analysis/zeroing/device-classes';
import { mergeSettings } from '@/lib/analysis/settings';
import { listNodeWriters } from '@/lib/analysis/node-writers/node-writers';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { largeClusterFile } from './large-cluster-file';

async function main() {
  const file = process.argv[2] ?? (await largeClusterFile());
  let t = performance.now();
  const lap = (what: string) => {
    const now = performance.now();
    console.log(`${what.padEnd(40)} ${(now - t).toFixed(0).padStart(7)} ms`);
    t = now;
  };
  const state = await loadSnapshot(file, { maxBytes: 4 * 1024 ** 3 });
  lap('load');
  const engine = createAuthzEngine(state);
  lap('authz engine');
  const ctx = buildAnalysisContext(state, engine, mergeSettings(undefined));
  lap('context');
  for (const check of CHECK_LIST) {
    const n = check.run(ctx).length;
    lap(`check ${check.id} (${n})`);
  }
  const findings = runChecks(ctx);
  lap('runChecks (all, again)');
  const { findings: slim, texts } = separateTexts(findings);
  const writers = listNodeWriters(ctx);
  lap('node writers');
  analyseIssues(slim, texts, ctx, writers);
  lap('issues and attack paths');
  deviceClassReports(ctx);
  lap('device classes');
}
void main();
