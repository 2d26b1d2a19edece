import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildGraphView } from '@/lib/graph/view';
const d = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const model = d.model;
buildGraphView(model, { focus: model.nodes[0].id });
const cands = model.nodes.filter((n: any) => n.tier === 3 || n.kind === 'ClusterRole' || n.kind === 'Group' || n.kind === 'ClusterRoleBinding');
const rows: any[] = [];
for (const n of cands) {
  const t = performance.now();
  const f = buildGraphView(model, { focus: n.id });
  rows.push([n.id, Math.round(performance.now() - t), f.nodes.length, f.subgraphNodes, [0,1,2,3].map((k) => f.nodes.filter((x) => x.tier === k).length).join('/')]);
}
rows.sort((a, b) => b[2] - a[2]);
for (const r of rows.slice(0, 25)) console.log(r.join('  '));
const t = performance.now();
const all = buildGraphView(model, { expandAll: true });
console.log('expandAll', Math.round(performance.now() - t), 'ms', all.nodes.length);
