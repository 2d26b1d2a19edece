import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReportWithContext } from '@/lib/report/build-report';
import { reviewRole } from '@/lib/role-builder/review-role';
import { GOLDEN_INPUTS } from '@/lib/role-builder/golden-inputs';
import { largeClusterFile } from './large-cluster-file';
const shape = (process.argv[2] ?? 'stamped') as 'stamped' | 'diverse';
const state = await loadSnapshot(await largeClusterFile(shape));
const base = buildReportWithContext(state);
const s = new Session(); s.connect();
await s.post('Profiler.enable'); await s.post('Profiler.start');
for (let i = 0; i < 3; i++) for (const [persona, g] of Object.entries(GOLDEN_INPUTS)) {
  const input = { ...g, identity: g.identity.kind === 'ServiceAccount' ? { ...g.identity, namespace: 'ns-1', name: `new-${persona}` } : g.identity, ...(g.namespace ? { namespace: 'ns-1' } : {}) };
  reviewRole(state, input, { analysis: base });
}
const { profile } = await s.post('Profiler.stop');
// self time by function
const self = new Map<string, number>();
const total = profile.endTime - profile.startTime;
const dt = profile.timeDeltas!; const ids = profile.samples!;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map<number, number>();
for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
// inclusive time: walk parents
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map<string, number>();
for (const [id, c] of counts) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!; const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
    if (!seen.has(k)) { incl.set(k, (incl.get(k) ?? 0) + c); seen.add(k); }
  }
  const n = byId.get(id)!; const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + c);
}
const n = ids.length;
console.log('total ms', (total / 1000).toFixed(0));
console.log('--- inclusive');
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((100 * v / n).toFixed(1).padStart(5), k);
console.log('--- self');
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log((100 * v / n).toFixed(1).padStart(5), k);
