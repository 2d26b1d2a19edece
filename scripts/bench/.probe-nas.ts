import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReportWithContext } from '@/lib/report/build-report';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
const path = process.argv[2];
const state = await loadSnapshot(path, { maxBytes: 4 * 1024 ** 3 });
const b = buildReportWithContext(state);
const r = b.report;
console.log('allocated', b.context.claimWriters.allocatedClaims.length, 'config NR', r.clusterConfig?.nodeRestriction);
for (const node of ['node-0', 'node-1', 'node-5', 'node-8', 'node-9999', 'node-1234']) {
  let t = performance.now(); const br = computeBlastRadius(b.context, node, r); const c = performance.now() - t;
  t = performance.now(); const s = JSON.stringify(br).length; const j = performance.now() - t;
  t = performance.now(); const w = writersOfNode(r, node); const wt = performance.now() - t;
  console.log('blast', node, 'compute', c.toFixed(0), 'json', j.toFixed(0), (s / 1e6).toFixed(1) + 'MB', 'ids', br.identities.length, br.identities.map(i => `${i.subject.name}:${i.statusNodes.length}/${i.claims.length}`).join(' '), 'writers', wt.toFixed(0), w.statusWriters.length, w.claimStatusWriters.length, (JSON.stringify(w).length/1e6).toFixed(1)+'MB');
}
