// `npm run bench:load`: many clients on /api/v1/report of a 50,000-object snapshot (issue #25: before
// the report was serialized once per analysis, 1,000 clients for 20 s gave 1,992 timeouts and RSS
// 225 MB → 1.69 GB). Starts `next start` on the snapshot (building first when there is no build),
// warms the report once (timed separately), then runs CLIENTS keep-alive clients, each sending its
// next GET as soon as the previous answer is read, for SECONDS; a request without a full answer in
// 10 s is a timeout. Clients send `Accept-Encoding: gzip, br` as browsers do. Prints requests/s,
// p50/p99 latency, timeouts and errors, and the server's peak RSS (the highest sum of VmRSS over the
// server's process tree, sampled every 100 ms, and the kernel's VmHWM of each process).
//   node --import tsx scripts/bench/report-load-bench.ts [--clients 1000] [--seconds 20] [--profile DIR]
// --profile writes the server's CPU profile (node --cpu-prof) into DIR when it stops.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePorts } from '../../e2e/kube/control-plane';
import { generateCluster, LARGE, type ClusterSize } from './generate-cluster';
import { percentile } from './stats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TIMEOUT_MS = 10_000;
/** `serve`'s --keepAliveTimeout (server/cli/commands/serve.ts says why). */
const KEEP_ALIVE_MS = 65_000;
/** The large bench cluster at one eighth of its size: 50,000-odd objects (counted and printed). */
const SIZE: ClusterSize = {
  namespaces: LARGE.namespaces / 8,
  nodes: LARGE.nodes / 8,
  serviceAccounts: LARGE.serviceAccounts / 8,
  pods: LARGE.pods / 8,
  resourceClaims: LARGE.resourceClaims / 8,
};
const GENERATOR_VERSION = 1;

async function snapshotFile(): Promise<string> {
  const cacheDir = join(process.env.DRA_POSTURE_CACHE ?? join(homedir(), '.cache', 'dra-posture'), 'bench');
  const file = join(cacheDir, `load-eighth-v${GENERATOR_VERSION}-seed42.json`);
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(file)) {
    console.log(`generating ${file} ...`);
    await generateCluster(`${file}.tmp`, SIZE, 42);
    renameSync(`${file}.tmp`, file);
  }
  return file;
}

function countObjects(file: string): number {
  const list = JSON.parse(readFileSync(file, 'utf8')) as { items: unknown[] };
  return list.items.length;
}

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not come up');
}

/** The pids of a process and its descendants (Linux /proc). */
function processTree(pid: number): number[] {
  const out = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const c of children ? children.split(/\s+/) : []) out.push(...processTree(Number(c)));
    }
  } catch {
    // the process ended
  }
  return out;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * The kernel's count of handshakes dropped because a listen queue was full (machine-wide,
 * TcpExt ListenOverflows): a client whose connection "succeeded" may still wait for its retries.
 */
function listenOverflows(): number {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
    for (let i = 0; i + 1 < lines.length; i += 2) {
      const names = lines[i].split(/\s+/);
      const at = names.indexOf('ListenOverflows');
      if (at > 0) return Number(lines[i + 1].split(/\s+/)[at]);
    }
  } catch {
    // not Linux
  }
  return NaN;
}

function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return NaN;
  }
}

interface LoadResult {
  latencies: number[];
  /** Answers completed in each second of the run. */
  perSecond: number[];
  timeouts: number;
  /** Start times (ms since the load began) of the requests that timed out. */
  timeoutStarts: number[];
  /** Timed-out requests whose TCP handshake never completed (a full listen queue can also drop the last ACK after it did). */
  timeoutsNotConnected: number;
  errors: number;
  statuses: Map<number, number>;
  bytes: number;
  /** This process's own event-loop delay (ms): the clients and their 10 s timers run in it. */
  clientLoopDelay: { p99: number; max: number };
}

/** CLIENTS loops of GET url until `seconds` have passed; each loop has its own keep-alive socket. */
async function load(url: string, clients: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
  const result: LoadResult = {
    latencies: [],
    perSecond: [],
    timeouts: 0,
    timeoutStarts: [],
    timeoutsNotConnected: 0,
    errors: 0,
    statuses: new Map(),
    bytes: 0,
    clientLoopDelay: { p99: 0, max: 0 },
  };
  // A busy client delays its own reads and timers: a "timeout" could then be the client's. Measured
  // so that the figures say whether it was.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const start = performance.now();
  const end = start + seconds * 1000;
  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      let settled = false;
      let connected = false;
      const done = (outcome: 'ok' | 'timeout' | 'error', reason?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (outcome === 'ok') {
          const now = performance.now();
          result.latencies.push(now - t0);
          const second = Math.floor((now - start) / 1000);
          result.perSecond[second] = (result.perSecond[second] ?? 0) + 1;
        } else if (outcome === 'timeout') {
          result.timeouts++;
          result.timeoutStarts.push(t0 - start);
          if (!connected) result.timeoutsNotConnected++;
        } else {
          result.errors++;
          if (reason && result.errors <= 3) console.error(`  error: ${reason}`);
        }
        resolve();
      };
      const req = http.get(url, { agent, headers: { 'accept-encoding': 'gzip, br' } }, (res) => {
        result.statuses.set(res.statusCode ?? 0, (result.statuses.get(res.statusCode ?? 0) ?? 0) + 1);
        res.on('data', (chunk: Buffer) => (result.bytes += chunk.length));
        res.on('end', () => done(res.statusCode === 200 ? 'ok' : 'error', `HTTP ${res.statusCode}`));
        res.on('error', (e) => done('error', e.message));
      });
      const timer = setTimeout(() => {
        req.destroy();
        done('timeout');
      }, TIMEOUT_MS);
      req.on('error', (e) => done('error', e.message));
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
    });
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) await once();
    }),
  );
  agent.destroy();
  loopDelay.disable();
  result.clientLoopDelay = { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 };
  return result;
}

async function main() {
  const { values } = parseArgs({ options: { clients: { type: 'string' }, seconds: { type: 'string' }, profile: { type: 'string' } } });
  const clients = Number(values.clients ?? 1000);
  const seconds = Number(values.seconds ?? 20);
  const file = await snapshotFile();
  console.log(`snapshot: ${file} (${countObjects(file).toLocaleString('en')} objects)`);
  // next.config.js builds into and serves from $DRA_POSTURE_DIST_DIR when it is set (next start inherits it).
  if (!existsSync(join(root, process.env.DRA_POSTURE_DIST_DIR || '.next', 'BUILD_ID'))) {
    console.log('no production build: next build ...');
    const r = spawnSync(process.execPath, [join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('next build failed');
  }
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}`;
  const profile = values.profile ? ['--cpu-prof', '--cpu-prof-dir', values.profile] : [];
  // As `dra-posture serve` starts it: with bin/serve-preload.mjs (a deeper accept queue, request
  // handlers started one per event-loop turn) and its keep-alive timeout.
  const preload = ['--import', pathToFileURL(join(root, 'bin', 'serve-preload.mjs')).href];
  const server = spawn(
    process.execPath,
    [
      ...profile,
      ...preload,
      join(root, 'node_modules', 'next', 'dist', 'bin', 'next'),
      'start',
      '-H',
      '127.0.0.1',
      '-p',
      String(port),
      '--keepAliveTimeout',
      String(KEEP_ALIVE_MS),
    ],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', DRA_POSTURE_SNAPSHOT: file, DRA_POSTURE_SOURCE: '' },
    },
  );
  let peakRssKb = 0;
  const loads: number[] = [];
  const sampler = setInterval(() => {
    const rss = processTree(server.pid!).reduce((sum, pid) => sum + statusKb(pid, 'VmRSS'), 0);
    peakRssKb = Math.max(peakRssKb, rss);
  }, 100);
  // The machine's 1-minute load average during the run: client and server share its cores.
  const loadSampler = setInterval(() => loads.push(loadAverage()), 1000);
  try {
    await waitForHealth(url, server);
    const w0 = performance.now();
    const res = await fetch(`${url}/api/v1/report`);
    const reportBytes = (await res.arrayBuffer()).byteLength;
    console.log(
      `warm-up: first /api/v1/report ${(performance.now() - w0).toFixed(0)} ms (load + analysis + serialization; ${(reportBytes / 1e6).toFixed(1)} MB of JSON)`,
    );
    const rssBeforeKb = processTree(server.pid!).reduce((sum, pid) => sum + statusKb(pid, 'VmRSS'), 0);
    peakRssKb = rssBeforeKb;

    loads.length = 0;
    const overflowsBefore = listenOverflows();
    const r = await load(`${url}/api/v1/report`, clients, seconds);
    const overflows = listenOverflows() - overflowsBefore;
    const n = r.latencies.length;
    const hwm = processTree(server.pid!).map((pid) => `${pid}: ${(statusKb(pid, 'VmHWM') / 1024).toFixed(0)} MiB`);
    console.log(`\n${clients} clients × ${seconds} s on /api/v1/report (Accept-Encoding: gzip, br; timeout ${TIMEOUT_MS / 1000} s):`);
    console.log(`  requests answered 200: ${n.toLocaleString('en')} (${(n / seconds).toFixed(0)} req/s, ${(r.bytes / 1e6).toFixed(0)} MB on the wire)`);
    if (n > 0)
      console.log(
        `  latency p50 ${percentile(r.latencies, 50).toFixed(0)} ms, p99 ${percentile(r.latencies, 99).toFixed(0)} ms, max ${r.latencies.reduce((a, b) => Math.max(a, b), 0).toFixed(0)} ms`,
      );
    console.log(`  timeouts ${r.timeouts}, errors ${r.errors}, statuses ${JSON.stringify(Object.fromEntries(r.statuses))}`);
    console.log(`  answers per second: ${Array.from(r.perSecond, (c) => c ?? 0).join(' ')}`);
    console.log(`  the clients' own event-loop delay: p99 ${r.clientLoopDelay.p99.toFixed(0)} ms, max ${r.clientLoopDelay.max.toFixed(0)} ms`);
    if (r.timeouts > 0)
      console.log(
        `  timed-out requests started at ${percentile(r.timeoutStarts, 0).toFixed(0)}–${percentile(r.timeoutStarts, 100).toFixed(0)} ms into the run (median ${percentile(r.timeoutStarts, 50).toFixed(0)} ms); ${r.timeoutsNotConnected} of them never completed a TCP handshake`,
      );
    console.log(
      `  server RSS: ${(rssBeforeKb / 1024).toFixed(0)} MiB after warm-up, peak ${(peakRssKb / 1024).toFixed(0)} MiB under load (VmHWM ${hwm.join(', ')})`,
    );
    if (!Number.isNaN(overflows)) console.log(`  listen-queue overflows (kernel, whole machine) during the run: ${overflows}`);
    if (loads.length > 0) console.log(`  load average (1 min) during the run: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
    if (r.timeouts > 0 || r.errors > 0) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    clearInterval(loadSampler);
    server.kill('SIGTERM');
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
