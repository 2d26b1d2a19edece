import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReport } from '@/lib/report/build-report';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { runChecks } from '@/lib/analysis/checks/registry';
import { listClaimStatusWriters } from '@/lib/analysis/node-writers/claim-status-writers';
import { listNodeStatusWriters } from '@/lib/analysis/node-writers/node-status-writers';
import { mergeSettings } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
const path = process.argv[2];
const t = () => performance.now();
let a = t();
const state = await loadSnapshot(path, { maxBytes: 4 * 1024 ** 3 });
const lap = (n: string) => {
  const b = t();
  console.log(n.padEnd(20), Math.round(b - a));
  a = b;
};
lap('load');
if (process.argv[3] === 'checks') {
} else if (process.argv[3] === 'report') {
  const r = buildReport(state);
  lap('buildReport');
  const s = JSON.stringify(r);
  lap('stringify');
  console.log('json MB', (s.length / 1e6).toFixed(1), 'allNodes', r.allNodes.statusWriters.length, r.allNodes.claimStatusWriters.length);
} else {
  const engine = createAuthzEngine(state);
  lap('engine');
  const ctx = buildAnalysisContext(state, engine, mergeSettings({}));
  lap('context');
  const findings = runChecks(ctx);
  lap('checks');
  const sw = listNodeStatusWriters(ctx);
  lap('nodeStatusWriters');
  const cw = listClaimStatusWriters(ctx);
  lap('claimWriters');
  let own = 0;
  for (const [, l] of sw.byNode) own += l.length;
  let cown = 0;
  for (const [, l] of cw.byNode) cown += l.length;
  console.log({ findings: findings.length, allNodes: sw.allNodes.length, own, claimAll: cw.allNodes.length, cown });
}
console.log('rss MiB', Math.round(process.resourceUsage().maxRSS / 1024));
if (process.argv[3] === 'checks') {
  const { CHECK_LIST } = await import('@/lib/analysis/checks/registry');
  const engine = createAuthzEngine(state);
  const ctx = buildAnalysisContext(state, engine, mergeSettings({}));
  const only = process.argv[4];
  for (const c of CHECK_LIST.filter((x) => !only || only.split(',').includes(x.id))) {
    const t0 = t();
    const n = (c as any).run(ctx).length;
    console.log(c.id.padEnd(10), Math.round(t() - t0), 'ms', n);
  }
}
