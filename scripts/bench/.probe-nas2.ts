import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReportWithContext } from '@/lib/report/build-report';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
const state = await loadSnapshot(process.argv[2], { maxBytes: 4 * 1024 ** 3 });
const b = buildReportWithContext(state);
computeBlastRadius(b.context, 'node-3', b.report);
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.start');
const t = performance.now();
for (const n of ['node-8', 'node-18', 'node-0']) computeBlastRadius(b.context, n, b.report);
console.log('3 nodes', performance.now() - t);
const { profile } = await s.post('Profiler.stop');
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
const dt = profile.timeDeltas; const samples = profile.samples;
for (let i = 0; i < samples.length; i++) { const n: any = byId.get(samples[i]); const k = `${n.callFrame.functionName} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + dt[i] / 1000); }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0)}ms ${k}`).join('\n'));
