// Temporary: dumps outputs the issue-12 refactor must keep byte-identical (not committed).
import { writeFileSync } from 'node:fs';
import { loadDemo } from '@/server/sources/demo-source';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReportWithContext } from '@/lib/report/build-report';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { annotateFindings, buildIdentityGraph } from '@/lib/graph/build-graph';
import { nodeWriterEntries } from '@/lib/compliance/node-writer-entries';
import { findingsCsvChunks } from '@/lib/compliance/findings-csv';
import { buildNodeMatrix } from '@/lib/view/node-matrix';
import { overviewFacts } from '@/lib/view/overview';
import { bindingSubjects, draPermissions, permissionScope } from '@/lib/compliance/dra-permissions';

const [which, out] = process.argv.slice(2);
const state = which === 'demo' ? await loadDemo() : await loadSnapshot(which);
const { report, context } = buildReportWithContext(state);
const res: Record<string, unknown> = {};
const nodes = report.nodes.map((n) => n.name);
const pick = nodes.length > 60 ? nodes.filter((_, i) => i % Math.ceil(nodes.length / 40) === 0) : nodes;
res.blast = pick.map((n) => computeBlastRadius(context, n, report));
res.graph = annotateFindings(buildIdentityGraph(context.engine.rbac), report.findings);
res.entries = [...nodeWriterEntries(report).values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
res.csv = [...findingsCsvChunks(report.findings)].join('');
res.matrix = buildNodeMatrix(report);
res.overview = overviewFacts(report);
const subjects = bindingSubjects(state);
res.perms = [...draPermissions(state, subjects, permissionScope([state])).values()].map((v) => ({ subject: v.subject, p: [...v.permissions] }));
writeFileSync(out, JSON.stringify(res, null, 1));
console.log('ok', out);
