// Temporary (fixes-rest): time of withFixes per check on the diverse bench cluster.
import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { runChecks } from '@/lib/analysis/checks/registry';
import { separateTexts } from '@/lib/analysis/finding-texts';
import { analyseIssues } from '@/lib/analysis/issues/group-issues';
import { mergeSettings } from '@/lib/analysis/settings';
import { listNodeWriters } from '@/lib/analysis/node-writers/node-writers';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { withFixes } from '@/lib/analysis/fixes/issue-fixes';
import { largeClusterFile } from './large-cluster-file';
const state = await loadSnapshot(await largeClusterFile('diverse'), { maxBytes: 4 * 1024 ** 3 });
const ctx = buildAnalysisContext(state, createAuthzEngine(state), mergeSettings(undefined));
const { findings, texts } = separateTexts(runChecks(ctx));
const { issues } = analyseIssues(findings, texts, ctx, listNodeWriters(ctx));
const byCheck = new Map<string, typeof issues>();
for (const i of issues) byCheck.set(i.check, [...(byCheck.get(i.check) ?? []), i]);
let total = 0;
for (const [check, list] of byCheck) {
  const t = performance.now();
  const out = withFixes(ctx, list, findings);
  const ms = performance.now() - t;
  total += ms;
  const st = out.reduce((m, i) => ((m[i.fix?.status ?? '-'] = (m[i.fix?.status ?? '-'] ?? 0) + 1), m), {} as Record<string, number>);
  console.log(`${check.padEnd(10)} ${String(list.length).padStart(5)} issues ${ms.toFixed(0).padStart(7)} ms ${JSON.stringify(st)}`);
}
const t = performance.now();
withFixes(ctx, issues, findings);
console.log(`all issues at once ${(performance.now() - t).toFixed(0)} ms (sum per check ${total.toFixed(0)} ms)`);
