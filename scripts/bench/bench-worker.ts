// One benchmark phase in its own process, so that peak RSS and timings are not mixed between phases.
import { createWriteStream, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { AuthzRequest, ResourceAttributes } from '@/lib/authz/types';
import { serviceAccountUser } from '@/lib/authz/user-info';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { buildReport } from '@/lib/report/build-report';
import { reportJsonChunks } from '@/lib/report/report-json';
import { renderReportMarkdownChunks } from '@/lib/report/render-markdown';
import { renderReportHtmlChunks } from '@/lib/report/render-html';
import { runVerify } from '@/server/cli/commands/verify';
import type { CommandIO } from '@/server/cli/command-io';
import { makeBundle, writeBundleFile } from '@/server/compliance/write-bundle';
import { LARGE, nodeName, ns, saName } from './generate-cluster';
import { createRandom } from './prng';
import { percentile } from './stats';
import { analysisStages } from './analysis-stages';
import { tuneHeapForOneShotAnalysis } from '@/server/cli/one-shot-heap';

const [phase, path] = process.argv.slice(2);
const MAX_BYTES = 4 * 1024 * 1024 * 1024;

function randomAttrs(rnd: ReturnType<typeof createRandom>): ResourceAttributes {
  const k = rnd.int(8);
  const namespace = ns(rnd.int(LARGE.namespaces));
  const verb = rnd.pick(['get', 'list', 'create', 'update', 'patch', 'delete']);
  switch (k) {
    case 0:
      return { verb, group: '', resource: 'pods', subresource: '', namespace, name: `pod-${rnd.int(LARGE.pods)}` };
    case 1:
      return { verb: 'get', group: '', resource: 'secrets', subresource: '', namespace, name: `secret-${rnd.int(300)}` };
    case 2:
      return { verb, group: 'resource.k8s.io', resource: 'resourceclaims', subresource: '', namespace, name: '' };
    case 3:
      return {
        verb: rnd.pick(['update', 'patch']),
        group: 'resource.k8s.io',
        resource: 'resourceclaims',
        subresource: 'status',
        namespace,
        name: `claim-${rnd.int(LARGE.resourceClaims)}`,
      };
    case 4:
      return {
        verb: rnd.pick(['associated-node:update', 'arbitrary-node:patch']),
        group: 'resource.k8s.io',
        resource: 'resourceclaims',
        subresource: 'driver',
        namespace,
        name: rnd.pick(['gpu.nvidia.com', 'gpu.example.com']),
      };
    case 5:
      return { verb: rnd.pick(['update', 'patch']), group: '', resource: 'nodes', subresource: 'status', namespace: '', name: nodeName(rnd.int(LARGE.nodes)) };
    case 6:
      return { verb, group: 'resource.k8s.io', resource: 'resourceslices', subresource: '', namespace: '', name: '' };
    default:
      return { verb, group: 'apps', resource: 'deployments', subresource: '', namespace, name: `d-${rnd.int(100)}` };
  }
}

function randomRequest(rnd: ReturnType<typeof createRandom>): AuthzRequest {
  const k = rnd.int(10);
  const resource = randomAttrs(rnd);
  if (k < 6) {
    const i = rnd.int(LARGE.serviceAccounts);
    return { user: serviceAccountUser(ns(i % LARGE.namespaces), saName(i)), resource };
  }
  if (k < 8) return { user: { name: `user-${rnd.int(5000)}`, groups: [`group-${rnd.int(500)}`, 'system:authenticated'] }, resource };
  if (k < 9) return { user: { name: `system:node:${nodeName(rnd.int(LARGE.nodes))}`, groups: ['system:nodes', 'system:authenticated'] }, resource };
  return { user: { name: `user-${rnd.int(5000)}`, groups: ['system:authenticated'] }, resource };
}

async function main() {
  // Each phase runs as the CLI does (server/cli/run.ts); the baseline parse stays a plain process.
  if (phase !== 'parse') tuneHeapForOneShotAnalysis();
  if (phase === 'parse') {
    const text = readFileSync(path, 'utf8');
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const doc = JSON.parse(text);
      times.push(performance.now() - t0);
      if (!doc.items) throw new Error('unexpected file');
    }
    // The first parse is what a one-shot CLI or a fresh server pays (cold heap), as the load phase
    // does; later parses in the same process run on a grown heap and are faster.
    const firstParseMs = times[0];
    const warm = times.slice(1).sort((a, b) => a - b);
    console.log(JSON.stringify({ parseMs: firstParseMs, warmParseMs: warm[0] }));
    return;
  }
  if (phase === 'engine') {
    const t0 = performance.now();
    const state = await loadSnapshot(path, { maxBytes: MAX_BYTES });
    const t1 = performance.now();
    const engine = createAuthzEngine(state);
    const t2 = performance.now();

    const rnd = createRandom(7);
    const requests = Array.from({ length: 200_000 }, () => randomRequest(rnd));
    for (let i = 0; i < 20_000; i++) engine.authorize(requests[i]); // warm up the JIT
    const t3 = performance.now();
    let allowed = 0;
    for (const r of requests) if (engine.authorize(r).allowed) allowed++;
    const canISeconds = (performance.now() - t3) / 1000;

    const who: number[] = [];
    let subjects = 0;
    for (let i = 0; i < 1000; i++) {
      const q = { resource: randomAttrs(rnd) };
      const s = performance.now();
      subjects += engine.whoCan(q).length;
      who.push(performance.now() - s);
    }
    console.log(
      JSON.stringify({
        loadMs: t1 - t0,
        indexMs: t2 - t1,
        canIPerSecond: requests.length / canISeconds,
        canIAllowedShare: allowed / requests.length,
        whoCanP50Ms: percentile(who, 50),
        whoCanP99Ms: percentile(who, 99),
        whoCanMeanSubjects: subjects / 1000,
        objects: { pods: state.pods.length, roleBindings: state.roleBindings.length, resourceClaims: state.resourceClaims.length },
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
      }),
    );
    return;
  }
  if (phase === 'report') {
    const t0 = performance.now();
    const state = await loadSnapshot(path, { maxBytes: MAX_BYTES });
    const t1 = performance.now();
    const report = buildReport(state);
    const t2 = performance.now();
    console.log(
      JSON.stringify({
        loadMs: t1 - t0,
        analysisMs: t2 - t1,
        findings: report.findings.length,
        nodes: report.nodes.length,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
      }),
    );
    return;
  }
  if (phase === 'stages') {
    // Each stage of the analysis once (analysis-stages.ts): where a regression went.
    const state = await loadSnapshot(path, { maxBytes: MAX_BYTES });
    console.log(JSON.stringify(analysisStages(state)));
    return;
  }
  if (phase === 'issues') {
    // Issue 13's figures: how many issues, whether they partition the findings, the JSON's size, the top ten.
    const state = await loadSnapshot(path, { maxBytes: MAX_BYTES });
    const report = buildReport(state);
    const owner = new Map<string, number>();
    for (const i of report.issues) for (const id of i.findingIds) owner.set(id, (owner.get(id) ?? 0) + 1);
    const partition = report.findings.every((f) => owner.get(f.id) === 1) && owner.size === report.findings.length;
    let jsonBytes = 0;
    for (const chunk of reportJsonChunks(report)) jsonBytes += Buffer.byteLength(chunk) + 1;
    console.log(
      JSON.stringify({
        issues: report.issues.length,
        findings: report.findings.length,
        partition: partition ? 1 : 0,
        jsonBytes,
        top: report.issues
          .slice(0, 10)
          .map((i) => ({ score: i.risk.score, check: i.check, title: i.title, findings: i.findingIds.length, reasons: i.risk.reasons })),
      }),
    );
    return;
  }
  if (phase === 'export') {
    // `dra-posture export`, stage by stage, writing the bundle where the 'verify' phase will read it.
    const out = process.argv[4];
    const t0 = performance.now();
    const state = await loadSnapshot(path, { maxBytes: MAX_BYTES });
    const t1 = performance.now();
    const report = buildReport(state);
    const t2 = performance.now();
    // The entries are rendered as they are written (one in memory at a time): one figure for both.
    const { size } = await writeBundleFile(await makeBundle(state, { report }), out);
    const t3 = performance.now();
    console.log(
      JSON.stringify({
        loadMs: t1 - t0,
        analysisMs: t2 - t1,
        writeMs: t3 - t2,
        bundleBytes: size,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
      }),
    );
    return;
  }
  if (phase === 'markdown' || phase === 'html') {
    // `report -o markdown|html > FILE` as the CLI runs it: the report rendered piece by piece to a file.
    const out = process.argv[4];
    const t0 = performance.now();
    const state = await loadSnapshot(path, { maxBytes: MAX_BYTES });
    const t1 = performance.now();
    const report = buildReport(state);
    const t2 = performance.now();
    const chunks =
      phase === 'markdown'
        ? renderReportMarkdownChunks(report)
        : renderReportHtmlChunks(report, { generatedAt: new Date().toISOString(), toolVersion: 'bench' });
    const file = createWriteStream(out);
    let bytes = 0;
    for (const chunk of chunks) {
      bytes += Buffer.byteLength(chunk);
      if (!file.write(chunk)) await once(file, 'drain');
    }
    await new Promise<void>((resolve, reject) => file.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const t3 = performance.now();
    console.log(JSON.stringify({ loadMs: t1 - t0, analysisMs: t2 - t1, renderMs: t3 - t2, bytes, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
    return;
  }
  if (phase === 'verify') {
    // `dra-posture verify FILE` as the CLI runs it: its own process, the real command.
    const lines: string[] = [];
    const io: CommandIO = { out: (line) => void lines.push(line), err: (line) => void lines.push(line) };
    const t0 = performance.now();
    const code = await runVerify([path], io);
    const t1 = performance.now();
    if (code !== 0) throw new Error(`the bundle does not verify: ${lines.join('; ')}`);
    console.log(JSON.stringify({ verifyMs: t1 - t0, peakRssBytes: process.resourceUsage().maxRSS * 1024 }));
    return;
  }
  throw new Error(`unknown phase ${phase}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
