// `npm run bench`: generates the large synthetic cluster (seeded) once in each RBAC shape (stamped
// and diverse), then measures each phase in a fresh process and prints the figures with the targets
// they are held to. `npm run bench -- --diverse` measures the diverse shape only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LARGE } from './generate-cluster';
import { largeClusterFile } from './large-cluster-file';
import { cliBench } from './cli-bench';
import { median } from './stats';
import { compileBenchWorker } from './compiled-worker';
import type { Stage } from './analysis-stages';
import { analysisNodeFlags } from '../../bin/analysis-process.mjs';

let file = '';
/** The bench worker compiled as the CLI ships (compiled-worker.ts), made once per bench run. */
let worker = '';

function runPhase(phase: string, path = file, ...rest: string[]): Record<string, number> {
  return runWorker(phase, path, ...rest) as Record<string, number>;
}

/**
 * Phases that measure what `report` and `export` do: the CLI runs those in a process with the
 * analysis flags (bin/analysis-process.mjs), so these run with them too. The JSON.parse baseline,
 * the engine (can-i, who-can) and verify run as plain processes, as those commands do.
 */
const ANALYSIS_PHASES = new Set(['report', 'issues', 'stages', 'export', 'markdown', 'html']);

function runWorker(phase: string, path = file, ...rest: string[]): unknown {
  const flags = ANALYSIS_PHASES.has(phase) ? analysisNodeFlags() : [];
  const out = execFileSync(process.execPath, ['--max-old-space-size=4096', ...flags, worker, phase, path, ...rest], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const check = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
/** The spread of per-pair ratios. */
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;

/** The report beside a fresh baseline, `rounds` times (ratios pair by pair), as for the stamped shape below. */
function reportRounds(path: string, rounds: number) {
  const pairs: { parse: Record<string, number>; report: Record<string, number> }[] = [];
  for (let i = 0; i < rounds; i++) pairs.push({ parse: runPhase('parse', path), report: runPhase('report', path) });
  const ms = (r: Record<string, number>) => r.loadMs + r.analysisMs;
  const ratios = pairs.map((p) => ms(p.report) / p.parse.parseMs);
  const middle = [...pairs].sort((a, b) => ms(a.report) - ms(b.report))[Math.floor(rounds / 2)].report;
  return {
    parseMs: median(pairs.map((p) => p.parse.parseMs)),
    ratio: median(ratios),
    ratios,
    analysisRatio: median(pairs.map((p) => p.report.analysisMs / p.parse.parseMs)),
    report: { ...middle, peakRssBytes: Math.max(...pairs.map((p) => p.report.peakRssBytes)) } as Record<string, number>,
  };
}

/**
 * The auditor's exports (issue #26: they overflowed the stack on a large cluster): `report -o markdown`
 * and `-o html` rendered to a file, and the tar bundle, each in a fresh process (load and analysis
 * included, as the CLI runs them), with its time, size and peak RSS. A failed export is a FAIL row.
 */
function exportPathRows(path: string, options: { tar: boolean }): [string, string, string, string][] {
  const dir = mkdtempSync(join(tmpdir(), 'dra-bench-exports-'));
  const rows: [string, string, string, string][] = [];
  const measure = (label: string, phase: string, out: string, figures: (r: Record<string, number>) => string) => {
    try {
      const r = runPhase(phase, path, join(dir, out));
      rows.push([label, `${figures(r)}; peak RSS ${mb(r.peakRssBytes)}`, 'exit 0', check(true)]);
    } catch (e) {
      rows.push([label, `failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, 'exit 0', check(false)]);
    } finally {
      rmSync(join(dir, out), { force: true });
    }
  };
  try {
    const rendered = (r: Record<string, number>) =>
      `${(r.loadMs + r.analysisMs + r.renderMs).toFixed(0)} ms (load ${r.loadMs.toFixed(0)}, analysis ${r.analysisMs.toFixed(0)}, render and write ${r.renderMs.toFixed(0)}; ${mb(r.bytes)})`;
    measure('`report -o markdown` to a file', 'markdown', 'report.md', rendered);
    measure('`report -o html` to a file', 'html', 'report.html', rendered);
    if (options.tar) {
      measure(
        '`export` (tar bundle)',
        'export',
        'bundle.tar',
        (r) =>
          `${(r.loadMs + r.analysisMs + r.writeMs).toFixed(0)} ms (load ${r.loadMs.toFixed(0)}, analysis ${r.analysisMs.toFixed(0)}, bundle rendered and written ${r.writeMs.toFixed(0)}; ${mb(r.bundleBytes)})`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The slowest stages of one analysis (analysis-stages.ts), as `name ms` lines. */
function slowestStages(path: string, n: number): string[] {
  const stages = runWorker('stages', path) as Stage[];
  const checks = stages.filter((s) => s.name.startsWith('check ')).reduce((sum, s) => sum + s.ms, 0);
  return [
    `checks ${checks.toFixed(0)} ms in all; slowest stages:`,
    ...[...stages]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, n)
      .map((s) => `  ${s.name}${s.findings === undefined ? '' : ` (${s.findings.toLocaleString('en-US')} findings)`} ${s.ms.toFixed(0)} ms`),
  ];
}

const printRows = (rows: [string, string, string, string][]) => {
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2].padEnd(w[2])}  ${r[3]}`);
};

/**
 * The diverse-RBAC shape (issue #23): thousands of distinct roles and bindings on the same cluster.
 * Its report is held to the same targets as the stamped shape's.
 */
async function diverseShape(): Promise<void> {
  const path = await largeClusterFile('diverse');
  // Its ratio is the one near its target: the median of five pairs, where one slow spell moves three.
  const r = reportRounds(path, 5);
  const issues = runWorker('issues', path) as IssueFigures;
  const bytes = statSync(path).size;
  console.log(`\nDiverse RBAC (${path}): the same cluster, its tenant RBAC written by many hands\n`);
  printRows([
    ['snapshot size', mb(bytes), '', ''],
    ['JSON.parse of the file', `${r.parseMs.toFixed(0)} ms fresh process`, '', ''],
    [
      'report: load + analysis',
      `${(r.report.loadMs + r.report.analysisMs).toFixed(0)} ms (load ${r.report.loadMs.toFixed(0)}, analysis ${r.report.analysisMs.toFixed(0)}; ${r.report.findings} findings) = ${r.ratio.toFixed(2)}× parse (pairs ${range(r.ratios)})`,
      '≤ 3× parse',
      check(r.ratio <= 3),
    ],
    ['report: analysis alone', `${r.report.analysisMs.toFixed(0)} ms = ${r.analysisRatio.toFixed(2)}× parse`, '', ''],
    ['report: peak RSS', mb(r.report.peakRssBytes), '≤ 1 GiB', check(r.report.peakRssBytes <= 1024 ** 3)],
    ['issues (findings grouped by cause)', `${issues.issues.toLocaleString('en-US')} for ${issues.findings.toLocaleString('en-US')} findings`, '', ''],
    [
      'report JSON size',
      `${mb(issues.jsonBytes)} = ${((issues.jsonBytes / bytes) * 100).toFixed(0)}% of the snapshot`,
      '≤ 25%',
      check(issues.jsonBytes <= bytes / 4),
    ],
  ]);
  printRows(exportPathRows(path, { tar: true }));
  console.log(`\nDiverse RBAC, one analysis: ${slowestStages(path, 8).join('\n')}`);
}

async function main() {
  if (process.argv.includes('--diverse')) return diverseShape();
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
  const exportVerify = (e: Record<string, number>) => e.loadMs + e.analysisMs + e.writeMs + e.verifyMs;
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
    // Issue 23 settled this at 3× for this engine (issue 14 asked for 2×).
    [
      'report: load + analysis',
      `${loadAnalysis.toFixed(0)} ms (load ${report.loadMs.toFixed(0)}, analysis ${report.analysisMs.toFixed(0)}; ${report.findings} findings) = ${reportRatio.toFixed(2)}× parse (pairs ${range(reportRatios)})`,
      '≤ 3× parse',
      check(reportRatio <= 3),
    ],
    ['report: analysis alone', `${report.analysisMs.toFixed(0)} ms = ${analysisRatio.toFixed(2)}× parse`, '', ''],
    // Issue 14 lowered this from < 2 GiB (the posture issue's target).
    ['report: peak RSS', mb(report.peakRssBytes), '≤ 1 GiB', check(report.peakRssBytes <= 1024 ** 3)],
    [
      'export + verify',
      `${exportVerifyMs.toFixed(0)} ms (load ${exp.loadMs.toFixed(0)}, analysis ${exp.analysisMs.toFixed(0)}, bundle rendered and written ${exp.writeMs.toFixed(0)}, verify ${exp.verifyMs.toFixed(0)}; ${mb(exp.bundleBytes)}) = ${exportRatio.toFixed(2)}× report (rounds ${range(exportRatios)})`,
      '≤ 2× report',
      check(exportRatio <= 2),
    ],
    ['export, verify: peak RSS', mb(exp.peakRssBytes), '', ''],
    ...exportPathRows(file, { tar: false }),
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
  printRows(rows);
  console.log(`\nStamped RBAC, one analysis: ${slowestStages(file, 8).join('\n')}`);
  console.log('\nTen highest-risk issues:');
  issues.top.forEach((t, n) =>
    console.log(
      `${String(n + 1).padStart(2)}. ${t.score.toFixed(1).padStart(6)}  ${t.title} (${t.findings} finding${t.findings === 1 ? '' : 's'})\n            ${t.reasons.join('; ') || '–'}`,
    ),
  );
  await diverseShape();
}

interface IssueFigures {
  issues: number;
  findings: number;
  partition: number;
  jsonBytes: number;
  top: { score: number; check: string; title: string; findings: number; reasons: string[] }[];
}

const compiled = await compileBenchWorker();
worker = compiled.path;
main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(compiled.remove);
