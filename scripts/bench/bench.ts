// `npm run bench`: generates the large synthetic cluster (seeded) once, then measures each phase in a
// fresh process and prints the figures with the targets they are held to.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LARGE } from './generate-cluster';
import { largeClusterFile } from './large-cluster-file';
import { cliBench } from './cli-bench';
import { median } from './stats';

const here = dirname(fileURLToPath(import.meta.url));
let file = '';

function runPhase(phase: string, path = file, ...rest: string[]): Record<string, number> {
  return runWorker(phase, path, ...rest) as Record<string, number>;
}

function runWorker(phase: string, path = file, ...rest: string[]): unknown {
  const out = execFileSync(
    process.execPath,
    ['--conditions=react-server', '--max-old-space-size=4096', '--import', 'tsx', join(here, 'bench-worker.ts'), phase, path, ...rest],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(out.trim().split('\n').pop()!);
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const check = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

async function main() {
  file = await largeClusterFile();
  const bytes = statSync(file).size;
  // The machine is shared and noisy: the baseline and the load run in alternating fresh processes, so a
  // slow spell hits both, and the median of five pairs counts (ratios are taken pair by pair).
  const RUNS = 5;
  const parses: Record<string, number>[] = [];
  const engines: Record<string, number>[] = [];
  for (let i = 0; i < RUNS; i++) {
    parses.push(runPhase('parse'));
    engines.push(runPhase('engine'));
  }
  // Baseline: the first JSON.parse of a fresh process, as the load phases are measured (one load
  // per fresh process); the warm figure (the same process parsing again) is printed beside it.
  const parse = { parseMs: median(parses.map((p) => p.parseMs)), warmParseMs: median(parses.map((p) => p.warmParseMs)) };
  const loadRatios = engines.map((e, i) => (e.loadMs + e.indexMs) / parses[i].parseMs);
  const engine: Record<string, number> = {
    loadMs: median(engines.map((e) => e.loadMs)),
    indexMs: median(engines.map((e) => e.indexMs)),
    canIPerSecond: median(engines.map((e) => e.canIPerSecond)),
    whoCanP50Ms: median(engines.map((e) => e.whoCanP50Ms)),
    whoCanP99Ms: median(engines.map((e) => e.whoCanP99Ms)),
    peakRssBytes: Math.max(...engines.map((e) => e.peakRssBytes)),
  };
  const loadIndex = median(engines.map((e) => e.loadMs + e.indexMs));
  const loadRatio = median(loadRatios);
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;
  // The report too runs beside a fresh baseline each time, and `export` then `verify` (each in its own
  // process, as the two CLI commands run) beside that report: three rounds, ratios taken per round.
  const dir = mkdtempSync(join(tmpdir(), 'dra-bench-export-'));
  const rounds: { parse: Record<string, number>; report: Record<string, number>; exp: Record<string, number> }[] = [];
  try {
    const bundle = join(dir, 'large.tar');
    for (let i = 0; i < 3; i++) {
      const parse = runPhase('parse');
      const report = runPhase('report');
      const exp = runPhase('export', file, bundle);
      const verified = runPhase('verify', bundle);
      rounds.push({ parse, report, exp: { ...exp, verifyMs: verified.verifyMs, peakRssBytes: Math.max(exp.peakRssBytes, verified.peakRssBytes) } });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const reportMs = (r: Record<string, number>) => r.loadMs + r.analysisMs;
  const exportVerify = (e: Record<string, number>) => e.loadMs + e.analysisMs + e.bundleMs + e.writeMs + e.verifyMs;
  const reportRatios = rounds.map((r) => reportMs(r.report) / r.parse.parseMs);
  const reportRatio = median(reportRatios);
  const exportRatios = rounds.map((r) => exportVerify(r.exp) / reportMs(r.report));
  const exportRatio = median(exportRatios);
  const middle = (xs: Record<string, number>[], by: (x: Record<string, number>) => number) => [...xs].sort((a, b) => by(a) - by(b))[1];
  const report: Record<string, number> = {
    ...middle(
      rounds.map((r) => r.report),
      reportMs,
    ),
    peakRssBytes: Math.max(...rounds.map((r) => r.report.peakRssBytes)),
  };
  const loadAnalysis = reportMs(report);
  const analysisRatio = median(rounds.map((r) => r.report.analysisMs / r.parse.parseMs));
  const exp: Record<string, number> = {
    ...middle(
      rounds.map((r) => r.exp),
      exportVerify,
    ),
    peakRssBytes: Math.max(...rounds.map((r) => r.exp.peakRssBytes)),
  };
  const exportVerifyMs = exportVerify(exp);
  const rows: [string, string, string, string][] = [
    ['snapshot size', mb(bytes), '', ''],
    ['JSON.parse of the file', `${parse.parseMs.toFixed(0)} ms fresh process (${parse.warmParseMs.toFixed(0)} ms when parsed again)`, '', ''],
    [
      'load + index',
      `${loadIndex.toFixed(0)} ms (load ${engine.loadMs.toFixed(0)}, index ${engine.indexMs.toFixed(0)}) = ${loadRatio.toFixed(2)}× parse (pairs ${range(loadRatios)}; ${(loadIndex / parse.warmParseMs).toFixed(2)}× warm)`,
      '≤ 2× parse',
      check(loadRatio <= 2),
    ],
    ['batch can-i', `${Math.round(engine.canIPerSecond).toLocaleString('en-US')} answers/s`, '≥ 200,000/s', check(engine.canIPerSecond >= 200_000)],
    ['who-can p50 / p99', `${engine.whoCanP50Ms.toFixed(2)} ms / ${engine.whoCanP99Ms.toFixed(2)} ms`, 'p99 < 20 ms', check(engine.whoCanP99Ms < 20)],
    ['peak RSS (load, index, questions)', mb(engine.peakRssBytes), '< 1.5 GiB', check(engine.peakRssBytes < 1.5 * 1024 ** 3)],
    [
      'report: load + analysis',
      `${loadAnalysis.toFixed(0)} ms (load ${report.loadMs.toFixed(0)}, analysis ${report.analysisMs.toFixed(0)}; ${report.findings} findings) = ${reportRatio.toFixed(2)}× parse (pairs ${range(reportRatios)})`,
      '≤ 2× parse',
      check(reportRatio <= 2),
    ],
    // What is left for the load when the analysis alone takes this much of the 2× budget.
    [
      'report: analysis alone',
      `${report.analysisMs.toFixed(0)} ms = ${analysisRatio.toFixed(2)}× parse, which leaves the load ${Math.max(0, 2 - analysisRatio).toFixed(2)}× parse for 2×`,
      '',
      '',
    ],
    // Issue 14 lowered this from < 2 GiB (the posture issue's target).
    ['report: peak RSS', mb(report.peakRssBytes), '≤ 1 GiB', check(report.peakRssBytes <= 1024 ** 3)],
    [
      'export + verify',
      `${exportVerifyMs.toFixed(0)} ms (load ${exp.loadMs.toFixed(0)}, analysis ${exp.analysisMs.toFixed(0)}, bundle ${exp.bundleMs.toFixed(0)}, write ${exp.writeMs.toFixed(0)}, verify ${exp.verifyMs.toFixed(0)}; ${mb(exp.bundleBytes)}) = ${exportRatio.toFixed(2)}× report (rounds ${range(exportRatios)})`,
      '≤ 2× report',
      check(exportRatio <= 2),
    ],
    ['export, verify: peak RSS', mb(exp.peakRssBytes), '', ''],
  ];
  console.log(
    `\nLarge synthetic cluster: ${Object.entries(LARGE)
      .map(([k, v]) => `${v.toLocaleString('en-US')} ${k}`)
      .join(', ')}\n`,
  );
  const issues = runWorker('issues') as IssueFigures;
  rows.push(
    [
      'issues (findings grouped by cause)',
      `${issues.issues.toLocaleString('en-US')} for ${issues.findings.toLocaleString('en-US')} findings`,
      '≤ 1,000',
      check(issues.issues <= 1000),
    ],
    ['every finding in exactly one issue', issues.partition ? 'yes' : 'no', 'yes', check(issues.partition === 1)],
    [
      'report JSON size',
      `${mb(issues.jsonBytes)} = ${((issues.jsonBytes / bytes) * 100).toFixed(0)}% of the snapshot`,
      '≤ 25%',
      check(issues.jsonBytes <= bytes / 4),
    ],
  );
  // The CLI as a user runs it, against a real kube-apiserver (issue 15).
  rows.push(...(await cliBench()));
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2].padEnd(w[2])}  ${r[3]}`);
  console.log('\nTen highest-risk issues:');
  issues.top.forEach((t, n) =>
    console.log(
      `${String(n + 1).padStart(2)}. ${t.score.toFixed(1).padStart(6)}  ${t.title} (${t.findings} finding${t.findings === 1 ? '' : 's'})\n            ${t.reasons.join('; ') || '–'}`,
    ),
  );
}

interface IssueFigures {
  issues: number;
  findings: number;
  partition: number;
  jsonBytes: number;
  top: { score: number; check: string; title: string; findings: number; reasons: string[] }[];
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
