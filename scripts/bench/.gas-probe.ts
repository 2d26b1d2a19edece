import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildGraphView, searchGraph } from '@/lib/graph/view';
import { attackPathNodeIds } from '@/lib/graph/attack-path-nodes';
import { topRisks } from '@/lib/view/overview';
const d = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const model = d.model;
console.log('nodes', model.nodes.length, 'edges', model.edges.length, 'risky edges', model.edges.filter((e: any) => e.risky).length, 'risky nodes', model.nodes.filter((n: any) => n.risky).length);
const byKind: Record<string, number> = {};
for (const n of model.nodes) byKind[n.kind] = (byKind[n.kind] ?? 0) + 1;
console.log(byKind);
let t = performance.now();
const v = buildGraphView(model);
console.log('default', (performance.now() - t).toFixed(0), 'ms', v.nodes.length, 'boxes', v.edges.length, 'edges', v.edges.filter((e) => e.risky).length, 'risky');
const top = topRisks(d.issues, 5);
for (const r of top) {
  const p = d.attackPaths.find((a: any) => a.issueId === r.issue.id);
  console.log(r.issue.check, r.issue.risk.score, r.issue.title.slice(0, 90), '| path:', p ? attackPathNodeIds(p) : 'none', r.alike.length);
}
for (const kind of ['Group', 'User', 'ServiceAccount']) {
  const n = model.nodes.find((x: any) => x.kind === kind && x.risky);
  if (!n) continue;
  t = performance.now();
  const f = buildGraphView(model, { focus: n.id });
  console.log('focus', n.id, (performance.now() - t).toFixed(0), 'ms', f.nodes.length, 'boxes', f.subgraphNodes, 'sub', 'byTier', [0,1,2,3].map((k) => f.nodes.filter((x) => x.tier === k).length));
}
t = performance.now();
const hits = searchGraph(model, 'group-1');
console.log('search', (performance.now() - t).toFixed(0), 'ms', hits.length);
