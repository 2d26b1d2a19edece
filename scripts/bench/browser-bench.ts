// `npm run bench:browser`: the dashboard on the large synthetic cluster, in each RBAC shape (stamped,
// then diverse; `-- --stamped` or `-- --diverse` for one), in Debian's Chromium (issue #26). Per shape
// it starts `next start` on the snapshot (building first when the dist directory has no build; set
// DRA_POSTURE_DIST_DIR to use another), warms the server's report once (timed separately), then
// measures over one warm-up round and RUNS rounds, each in a fresh browser context at 1440×900:
//   - every page's time to content: navigation start → its heading and first row or card of data;
//   - the tasks of browser-tasks.ts, step by step from the user's action to the answer;
// and prints p50 and max per row against 2 s, with the slowest requests of the slow rows and the load
// average. "Take a snapshot, compare two" runs SNAPSHOT_RUNS times after a round that takes the first
// snapshot (each drift opens two bundles of several hundred MiB). Results go to test-results/browser-bench/.
//   npm run bench:browser -- [--stamped|--diverse] [--runs N] [--snapshot-runs N] [--only text,text] [--build] [--screenshots]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/ui/chromium';
import { BENCH_PAGES, timePage, waitForContent, waitForHydration, type BenchTargets } from './browser-pages';
import { BENCH_TASKS, NotMeasured, type BenchTask, type TaskStep } from './browser-tasks';
import type { RbacShape } from './generate-cluster';
import { largeClusterFile } from './large-cluster-file';
import { ensureBuild, startNextServer, type NextServer } from './next-server';
import { median } from './stats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'test-results', 'browser-bench');
const TARGET_MS = 2000;
const TIMEOUT_MS = 60_000;
const SNAPSHOT_TIMEOUT_MS = 300_000;
const VIEWPORT = { width: 1440, height: 900 };

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const RUNS = Number(flag('--runs') ?? 3);
const SNAPSHOT_RUNS = Number(flag('--snapshot-runs') ?? 1);
const ONLY = flag('--only')
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const SHAPES: RbacShape[] = process.argv.includes('--stamped') ? ['stamped'] : process.argv.includes('--diverse') ? ['diverse'] : ['stamped', 'diverse'];
const selected = (name: string) => !ONLY || ONLY.some((o) => name.includes(o));

/** Names of the generated cluster (scripts/bench/generate-cluster.ts, diverse-rbac.ts): seeded, the same every run. */
function targetsOf(shape: RbacShape, findingId: string): BenchTargets {
  const shared = {
    findingId,
    nodes: ['node-7777', 'node-4242', 'node-1234', 'node-9001', 'node-5150', 'node-3141'],
    roleNamespace: 'ns-1',
    // The question of #26's nodes/status writers: hundreds of subjects on the diverse shape.
    whoCan: { verb: 'update', resource: 'nodes/status' },
  };
  return shape === 'stamped'
    ? // A tenant app's service account (sa-i lives in ns-i).
      { ...shared, graphQuery: 'sa-15101', graphMatch: /ns-15101\/sa-15101/, graphBox: 'sa-15101' }
    : // The role most bound in the diverse RBAC (e2e/ui/graph-large.spec.ts).
      { ...shared, graphQuery: 'gen-cr-20', graphMatch: /(^|\W)gen-cr-20$/, graphBox: 'gen-cr-20' };
}

interface Run {
  ms: number;
  steps?: TaskStep[];
  /** The slowest requests while it ran: "METHOD /path 1234 ms". */
  slow: string[];
}

interface Row {
  kind: 'page' | 'task';
  name: string;
  runs: Run[];
  errors: string[];
  notMeasured?: string;
}

/** Requests the browser finished, with when they started (wall clock) and how long they took. */
function requestLog(context: BrowserContext) {
  const done: { at: number; ms: number; what: string }[] = [];
  context.on('requestfinished', (req) => {
    const t = req.timing();
    if (t.responseEnd < 0) return;
    const u = new URL(req.url());
    done.push({ at: t.startTime, ms: t.responseEnd, what: `${req.method()} ${u.pathname}${u.search.length > 60 ? `${u.search.slice(0, 60)}…` : u.search}` });
  });
  return (from: number, to: number) =>
    done
      .filter((r) => r.at >= from - 5 && r.at <= to && r.ms >= 100)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((r) => `${r.what} ${r.ms.toFixed(0)} ms`);
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0].slice(0, 160);

class Session {
  context!: BrowserContext;
  page!: Page;
  slowBetween!: (from: number, to: number) => string[];
  private inFlight = 0;
  constructor(private browser: Browser) {}
  async open() {
    this.context = await this.browser.newContext({ viewport: VIEWPORT });
    this.slowBetween = requestLog(this.context);
    this.inFlight = 0;
    this.context.on('request', () => this.inFlight++);
    this.context.on('requestfinished', () => this.inFlight--);
    this.context.on('requestfailed', () => this.inFlight--);
    this.page = await this.context.newPage();
  }
  /** Until no request has been in flight for 500 ms (at most `timeout`). */
  async settle(timeout: number) {
    const end = Date.now() + timeout;
    let quietSince = Date.now();
    while (Date.now() < end) {
      if (this.inFlight > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= 500) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async close() {
    await this.context.close().catch(() => undefined);
  }
}

async function measureShape(shape: RbacShape, browser: Browser): Promise<Row[]> {
  const file = await largeClusterFile(shape);
  const store = mkdtempSync(join(tmpdir(), 'dra-browser-bench-'));
  const log = join(outDir, `${shape}-server.log`);
  const load0 = loadavg();
  console.log(`\n== ${shape} RBAC: ${file}\nload average at start: ${load0.map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min); server log ${log}`);
  let t = performance.now();
  const server: NextServer = await startNextServer(root, file, join(store, 'store.sqlite'), log);
  console.log(`next start listening after ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const rows = new Map<string, Row>();
  const row = (kind: Row['kind'], name: string) => rows.get(name) ?? rows.set(name, { kind, name, runs: [], errors: [] }).get(name)!;
  try {
    t = performance.now();
    const res = await fetch(`${server.url}/api/v1/report`);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (!res.ok) throw new Error(`/api/v1/report answered ${res.status}`);
    console.log(
      `server warm-up: first /api/v1/report ${(performance.now() - t).toFixed(0)} ms (load + analysis + ${(bytes / 1024 / 1024).toFixed(0)} MiB of JSON); server RSS ${server.rssMiB()?.toFixed(0)} MiB`,
    );
    const findings = (await (await fetch(`${server.url}/api/v1/findings`)).json()) as { findings: { id: string }[] };
    const targets = targetsOf(shape, findings.findings[0].id);
    const session = new Session(browser);

    /** Runs one measurement; a failure is recorded on its row and the browser context made afresh. */
    const measure = async (r: Row, round: number, f: () => Promise<{ ms: number; steps?: TaskStep[]; from?: number }>) => {
      const started = Date.now();
      try {
        const { ms, steps, from } = await f();
        if (round > 0) r.runs.push({ ms, steps, slow: session.slowBetween(from ?? started, Date.now()) });
      } catch (e) {
        if (e instanceof NotMeasured) r.notMeasured = e.message;
        else {
          r.errors.push(`${round === 0 ? 'warm-up: ' : ''}${firstLine(e)} (after ${((Date.now() - started) / 1000).toFixed(0)} s)`);
          await session.page.screenshot({ path: join(outDir, `${shape}-${r.name.replace(/\W+/g, '-')}-failed.png`) }).catch(() => undefined);
          await session.close();
          await session.open();
        }
      }
      if (!server.alive()) throw new Error(`the server exited during "${r.name}" (see ${log})`);
    };
    const runTask = async (task: BenchTask, round: number, timeout: number) => {
      const r = row('task', task.name);
      if (r.notMeasured) return;
      await measure(r, round, async () => {
        const start = BENCH_PAGES.find((p) => p.name === task.startsOn)!;
        await session.page.goto(`${server.url}${start.path(targets)}`, { waitUntil: 'commit', timeout: TIMEOUT_MS });
        await waitForContent(session.page, start, TIMEOUT_MS);
        await waitForHydration(session.page, TIMEOUT_MS);
        // The slow requests listed for a task are those of its steps, not of loading its first page.
        const from = Date.now();
        const steps = await task.run(session.page, { targets, round, timeout, settle: () => session.settle(timeout) });
        return { ms: steps.reduce((s, x) => s + x.ms, 0), steps, from };
      });
    };

    const snapshotTask = BENCH_TASKS.find((x) => x.startsOn === 'snapshots')!;
    for (let round = 0; round <= RUNS; round++) {
      await session.open();
      for (const bp of BENCH_PAGES.filter((p) => selected(p.name))) {
        await measure(row('page', bp.name), round, async () => ({ ms: await timePage(session.page, server.url, bp, targets, TIMEOUT_MS) }));
        if (round === RUNS && process.argv.includes('--screenshots'))
          await session.page.screenshot({ path: join(outDir, `${shape}-${bp.name.replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
      }
      for (const task of BENCH_TASKS.filter((x) => x !== snapshotTask && selected(x.name))) await runTask(task, round, TIMEOUT_MS);
      await session.close();
      console.log(`round ${round === 0 ? 'warm-up' : `${round}/${RUNS}`} done; server RSS ${server.rssMiB()?.toFixed(0)} MiB; load ${loadavg()[0].toFixed(1)}`);
    }
    if (selected(snapshotTask.name)) {
      for (let round = 0; round <= SNAPSHOT_RUNS; round++) {
        await session.open();
        await runTask(snapshotTask, round, SNAPSHOT_TIMEOUT_MS);
        await session.close();
        console.log(`snapshot round ${round === 0 ? 'warm-up' : `${round}/${SNAPSHOT_RUNS}`} done; server RSS ${server.rssMiB()?.toFixed(0)} MiB`);
      }
    }
  } catch (e) {
    console.error(`${shape}: stopped early: ${firstLine(e)}`);
  } finally {
    await server.stop();
    rmSync(store, { recursive: true, force: true });
  }
  const load1 = loadavg();
  console.log(`load average at end: ${load1.map((l) => l.toFixed(1)).join(' / ')}`);
  const result = [...rows.values()];
  writeFileSync(join(outDir, `${shape}.json`), JSON.stringify({ shape, file, loadStart: load0, loadEnd: load1, rows: result }, null, 2));
  return result;
}

const fmt = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms).toLocaleString('en-US')} ms`);

/** p50 and max of one row, and its mark against the target. */
function summary(r: Row): { p50?: number; max?: number; mark: string } {
  if (r.notMeasured) return { mark: `not measured: ${r.notMeasured}` };
  if (r.runs.length === 0) return { mark: `FAILED: ${r.errors[0] ?? 'no run'}` };
  const ms = r.runs.map((x) => x.ms);
  const p50 = median(ms);
  const failed = r.errors.length ? ` (${r.errors.length} failed: ${r.errors[0]})` : '';
  return { p50, max: Math.max(...ms), mark: `${p50 <= TARGET_MS ? 'PASS' : 'OVER 2 s'}${failed}` };
}

function printTable(shape: RbacShape, rows: Row[]): string {
  const lines = [`| ${shape} | p50 | max | runs | ≤ 2 s at p50 |`, '|---|---:|---:|---:|---|'];
  for (const r of rows) {
    const s = summary(r);
    lines.push(
      `| ${r.kind === 'page' ? `page: ${r.name}` : r.name} | ${s.p50 === undefined ? '' : fmt(s.p50)} | ${s.max === undefined ? '' : fmt(s.max)} | ${r.runs.length} | ${s.mark} |`,
    );
    const labels = r.runs[0]?.steps?.map((x) => x.label) ?? [];
    if (labels.length > 1) lines.push(`| ↳ ${labels.map((l, i) => `${l} ${fmt(median(r.runs.map((x) => x.steps?.[i]?.ms ?? 0)))}`).join(' · ')} | | | | |`);
  }
  const table = lines.join('\n');
  console.log(`\n${table}`);
  const slow = rows.filter((r) => (summary(r).p50 ?? 0) > TARGET_MS);
  if (slow.length) {
    console.log('\nSlowest requests of the rows over 2 s (median run):');
    for (const r of slow) {
      const sorted = [...r.runs].sort((a, b) => a.ms - b.ms);
      console.log(`  ${r.name}: ${sorted[Math.floor(sorted.length / 2)].slow.join('; ') || 'none over 100 ms (time spent in the browser)'}`);
    }
  }
  return table;
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  ensureBuild(root, process.argv.includes('--build'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const tables: string[] = [];
  try {
    for (const shape of SHAPES) tables.push(printTable(shape, await measureShape(shape, browser)));
  } finally {
    await browser.close();
  }
  writeFileSync(join(outDir, 'tables.md'), `${tables.join('\n\n')}\n`);
  console.log(`\nTables written to ${join(outDir, 'tables.md')}`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
