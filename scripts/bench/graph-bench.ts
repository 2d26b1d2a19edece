// The identity graph's requests on the large synthetic cluster, as the dashboard's server answers
// them (server/services/graph.ts, in-process): the default view (the top risks' paths), the
// collapsed overview, search, focus on identities, roles and resources (the largest focuses
// included), and "Expand all groups" (answered with its box count, not drawn). The analysis and the
// graph model are made once first, as the server keeps one per cluster version. Prints p50 and max
// per request and the boxes each view draws, against the 2 s target (issue #26).
//   node --conditions=react-server --max-old-space-size=6000 --import tsx scripts/bench/graph-bench.ts [--stamped|--diverse]
import { performance } from 'node:perf_hooks';
import type { GraphResponse } from '@/lib/api/dto';
import type { RbacShape } from './generate-cluster';
import { largeClusterFile } from './large-cluster-file';
import { percentile } from './stats';

const TARGET_MS = 2000;

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

function row(name: string, ms: number[], note = ''): string {
  const p50 = percentile(ms, 50);
  const max = Math.max(...ms);
  return `  ${name.padEnd(44)} p50 ${p50.toFixed(0).padStart(6)} ms   max ${max.toFixed(0).padStart(6)} ms  ${p50 <= TARGET_MS ? 'ok' : 'SLOW'}  ${note}`;
}

const boxes = (v: GraphResponse) => (v.confirm ? `asks first: ${v.confirm.boxes} boxes` : `${v.nodes.length} boxes, ${v.edges.length} edges`);

async function measure(shape: RbacShape): Promise<void> {
  process.env.DRA_POSTURE_SNAPSHOT = await largeClusterFile(shape);
  process.env.DRA_POSTURE_MAX_SNAPSHOT_BYTES = String(1024 ** 3);
  delete process.env.DRA_POSTURE_SOURCE;
  const { getIdentityGraph } = await import('@/server/services/get-report');
  const { getGraphView, searchIdentityGraph } = await import('@/server/services/graph');
  const warm = await time(() => getIdentityGraph());
  const model = warm.value;
  console.log(
    `${shape}: ${model.nodes.length} graph nodes, ${model.edges.length} edges (analysis and model ${(warm.ms / 1000).toFixed(1)} s, once per cluster version)`,
  );

  const repeat = async (n: number, fn: (i: number) => Promise<GraphResponse | unknown>) => {
    const ms: number[] = [];
    let last: unknown;
    for (let i = 0; i < n; i++) {
      const r = await time(() => fn(i));
      ms.push(r.ms);
      last = r.value;
    }
    return { ms, last };
  };

  const top = await repeat(5, () => getGraphView({}));
  console.log(row('default view (top risks’ paths)', top.ms, boxes(top.last as GraphResponse)));
  const overview = await repeat(5, () => getGraphView({ view: 'overview' }));
  console.log(row('collapsed overview', overview.ms, boxes(overview.last as GraphResponse)));
  const all = await repeat(3, () => getGraphView({ all: '1' }));
  console.log(row('expand all groups (count, not drawn)', all.ms, boxes(all.last as GraphResponse)));

  // Search: what a reader types (prefixes of real names of each kind), then focus on the first hit.
  const byKind = new Map<string, string[]>();
  for (const n of model.nodes) (byKind.get(n.kind) ?? byKind.set(n.kind, []).get(n.kind)!).push(n.id);
  const queries: string[] = [];
  for (const ids of byKind.values()) for (let i = 0; i < 3; i++) queries.push(ids[Math.floor(((i + 1) * ids.length) / 4)].split(':').at(-1)!.slice(0, 9));
  const search = await repeat(queries.length, (i) => searchIdentityGraph({ q: queries[i] }));
  console.log(row(`search (${queries.length} queries)`, search.ms));
  const picks: string[] = [];
  for (const q of queries) picks.push(...(await searchIdentityGraph({ q })).hits.slice(0, 1).map((h) => h.id));
  const focus = await repeat(picks.length, (i) => getGraphView({ focus: picks[i] }));
  console.log(row(`focus on the first hit (${picks.length} nodes)`, focus.ms));

  // The largest focuses: the roles and bindings with the most edges, and the DRA resources.
  const degree = new Map<string, number>();
  for (const e of model.edges) for (const id of [e.source, e.target]) degree.set(id, (degree.get(id) ?? 0) + 1);
  const widest = [...degree]
    .filter(([id]) => !id.startsWith('Resource:'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([id]) => id);
  const resources = model.nodes.filter((n) => n.tier === 3).map((n) => n.id);
  const big = [...widest, ...resources];
  const bigFocus = await repeat(big.length, (i) => getGraphView({ focus: big[i] }));
  const drawn = await Promise.all(big.map((id) => getGraphView({ focus: id })));
  const most = Math.max(...drawn.map((v) => v.nodes.length));
  console.log(row(`focus on the ${big.length} widest nodes`, bigFocus.ms, `at most ${most} boxes drawn`));
  const show = await repeat(3, () => getGraphView({ focus: widest[0], show: ['0:30', '1:30', '2:30'] }));
  console.log(row('focus, 30 boxes per column (“show more”)', show.ms, boxes(show.last as GraphResponse)));
  const json = JSON.stringify(drawn[0]).length;
  console.log(`  response of the widest focus: ${(json / 1024).toFixed(0)} KiB of JSON`);
}

const shapes: RbacShape[] = process.argv.includes('--stamped') ? ['stamped'] : process.argv.includes('--diverse') ? ['diverse'] : ['stamped', 'diverse'];
if (shapes.length === 1) await measure(shapes[0]);
else {
  // One process per shape: the server's caches hold one analysis each.
  const { execFileSync } = await import('node:child_process');
  for (const s of shapes)
    execFileSync(process.execPath, ['--conditions=react-server', '--max-old-space-size=6000', '--import', 'tsx', import.meta.filename, `--${s}`], {
      stdio: 'inherit',
    });
}
