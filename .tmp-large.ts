import { performance } from 'node:perf_hooks';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { CHECK_LIST } from '@/lib/analysis/checks/registry';

const state: any = await (loadSnapshot as any)(process.argv[2]);
const st = state.state ?? state;
let t = performance.now();
const engine = createAuthzEngine(st);
console.log('engine', (performance.now() - t).toFixed(0)); t = performance.now();
const ctx = buildAnalysisContext(st, engine, DEFAULT_SETTINGS);
console.log('ctx', (performance.now() - t).toFixed(0));
const only = process.argv[3]?.split(',');
for (const c of CHECK_LIST) {
  if (only && !only.includes(c.id)) continue;
  t = performance.now();
  const n = c.run(ctx).length;
  console.log(c.id, (performance.now() - t).toFixed(0), 'ms', n);
}
