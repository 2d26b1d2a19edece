import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReportWithContext } from '@/lib/report/build-report';
import { annotateFindings, buildIdentityGraph } from '@/lib/graph/build-graph';

const [file, out] = process.argv.slice(2);
const t0 = performance.now();
const state = await loadSnapshot(file, { maxBytes: 4 * 1024 ** 3 });
const { report, context } = buildReportWithContext(state);
console.log('report', ((performance.now() - t0) / 1000).toFixed(1), 's');
const t1 = performance.now();
const model = annotateFindings(buildIdentityGraph(context.engine.rbac), report.findings);
console.log('graph', (performance.now() - t1).toFixed(0), 'ms', model.nodes.length, 'nodes', model.edges.length, 'edges');
writeFileSync(out, JSON.stringify({ model, issues: report.issues.slice(0, 600), attackPaths: report.attackPaths, findings: report.findings.length }));
