// `npm run bench`: generates the large synthetic cluster (seeded) once, then measures each phase in a
// fresh process and prints the figures with the targets they are held to.
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LARGE } from './generate-cluster';
import { largeClusterFile } from './large-cluster-file';

const here = dirname(fileURLToPath(import.meta.url));
let file = '';

function runPhase(phase: string): Record<string, number> {
  const out = execFileSync(process.execPath, ['--conditions=react-server', '--max-old-space-size=4096', '--import', 'tsx', join(here, 'bench-worker.ts'), phase, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const check = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

async function main() {
  file = await largeClusterFile();
  const bytes = statSync(file).size;
  // The machine is shared and noisy: each phase runs in three fresh processes and the median counts.
  const RUNS = 3;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const parses = Array.from({ length: RUNS }, () => runPhase('parse'));
  const engines = Array.from({ length: RUNS }, () => runPhase('engine'));
  // Baseline: the first JSON.parse of a fresh process, as the load phases are measured (one load
  // per fresh process); the warm figure (the same process parsing again) is printed beside it.
  const parse = { parseMs: median(parses.map((p) => p.parseMs)), warmParseMs: median(parses.map((p) => p.warmParseMs)) };
  const byLoad = [...engines].sort((a, b) => a.loadMs + a.indexMs - (b.loadMs + b.indexMs));
  const engine: Record<string, number> = {
    ...byLoad[Math.floor(RUNS / 2)],
    canIPerSecond: median(engines.map((e) => e.canIPerSecond)),
    whoCanP50Ms: median(engines.map((e) => e.whoCanP50Ms)),
    whoCanP99Ms: median(engines.map((e) => e.whoCanP99Ms)),
    peakRssBytes: Math.max(...engines.map((e) => e.peakRssBytes)),
  };
  const loadIndex = engine.loadMs + engine.indexMs;
  const report = runPhase('report');
  const loadAnalysis = report.loadMs + report.analysisMs;
  const exp = runPhase('export');
  const exportMs = exp.loadMs + exp.analysisMs + exp.bundleMs + exp.writeMs;
  const exportVerifyMs = exportMs + exp.verifyMs;
  const rows: [string, string, string, string][] = [
    ['snapshot size', mb(bytes), '', ''],
    ['JSON.parse of the file', `${parse.parseMs.toFixed(0)} ms fresh process (${parse.warmParseMs.toFixed(0)} ms when parsed again)`, '', ''],
    ['load + index', `${loadIndex.toFixed(0)} ms (load ${engine.loadMs.toFixed(0)}, index ${engine.indexMs.toFixed(0)}) = ${(loadIndex / parse.parseMs).toFixed(2)}× parse (${(loadIndex / parse.warmParseMs).toFixed(2)}× warm)`, '≤ 2× parse', check(loadIndex <= 2 * parse.parseMs)],
    ['batch can-i', `${Math.round(engine.canIPerSecond).toLocaleString('en-US')} answers/s`, '≥ 200,000/s', check(engine.canIPerSecond >= 200_000)],
    ['who-can p50 / p99', `${engine.whoCanP50Ms.toFixed(2)} ms / ${engine.whoCanP99Ms.toFixed(2)} ms`, 'p99 < 20 ms', check(engine.whoCanP99Ms < 20)],
    ['peak RSS (load, index, questions)', mb(engine.peakRssBytes), '< 1.5 GiB', check(engine.peakRssBytes < 1.5 * 1024 ** 3)],
    ['report: load + analysis', `${loadAnalysis.toFixed(0)} ms (analysis ${report.analysisMs.toFixed(0)}; ${report.findings} findings) = ${(loadAnalysis / parse.parseMs).toFixed(2)}× parse (${(loadAnalysis / parse.warmParseMs).toFixed(2)}× warm)`, '≤ 2× parse', check(loadAnalysis <= 2 * parse.parseMs)],
    ['report: peak RSS', mb(report.peakRssBytes), '< 2 GiB', check(report.peakRssBytes < 2 * 1024 ** 3)],
    [
      'export + verify',
      `${exportVerifyMs.toFixed(0)} ms (load ${exp.loadMs.toFixed(0)}, analysis ${exp.analysisMs.toFixed(0)}, bundle ${exp.bundleMs.toFixed(0)}, write ${exp.writeMs.toFixed(0)}, verify ${exp.verifyMs.toFixed(0)}; ${mb(exp.bundleBytes)}) = ${(exportVerifyMs / loadAnalysis).toFixed(2)}× report`,
      '≤ 2× report',
      check(exportVerifyMs <= 2 * loadAnalysis),
    ],
    ['export + verify: peak RSS', mb(exp.peakRssBytes), '', ''],
  ];
  console.log(`\nLarge synthetic cluster: ${Object.entries(LARGE).map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`).join(', ')}\n`);
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2].padEnd(w[2])}  ${r[3]}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
