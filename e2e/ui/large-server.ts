// Playwright web server for the large-cluster browser tests: the bench's large synthetic cluster
// (10,000 nodes, 20,000 namespaces, 200,000 pods, the diverse RBAC shape: ~900 identities that write
// node status), generated once into test-results/large-cluster/ (seeded: same bytes every time), and
// `next start` serving it as a snapshot. The analysis is warmed before the server counts as ready,
// so tests time pages, not the first load. Prints its startup time and the server's RSS. Stops
// `next start` on SIGTERM/SIGINT and exits with it.
//   node --import tsx e2e/ui/large-server.ts PORT
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { largeClusterFile } from '../../scripts/bench/large-cluster-file';
import { LARGE_READY_PATH } from './servers';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: large-server.ts PORT');
  process.exit(2);
}
const log = (msg: string) => console.error(`[large-server] ${msg}`);
const t0 = performance.now();
const secs = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const file = await largeClusterFile('diverse', path.join(repoRoot, 'test-results', 'large-cluster'));
log(`snapshot ${path.relative(repoRoot, file)} ready after ${secs()}`);

const next = spawn(
  process.execPath,
  ['--max-old-space-size=4096', path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)],
  {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DRA_POSTURE_SNAPSHOT: file, DRA_POSTURE_SOURCE: '', DRA_POSTURE_KUBECONFIG: '', DRA_POSTURE_MAX_SNAPSHOT_BYTES: String(1024 ** 3) },
  },
);
const stop = (code: number) => {
  if (next.exitCode === null) next.kill('SIGTERM');
  process.exit(code);
};
next.on('exit', (code) => process.exit(code ?? 1));
process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));

/** Resident memory of the server process, in MiB (Linux). */
const rssMiB = () => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${next.pid}/status`, 'utf8'))?.[1]);
    return `${(kb / 1024).toFixed(0)} MiB`;
  } catch {
    return 'unknown';
  }
};

const url = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${url}/api/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  await new Promise((r) => setTimeout(r, 250));
}
log(`next start listening after ${secs()}`);
// The same URL Playwright waits for: loads the snapshot and runs the analysis once.
const res = await fetch(`${url}${LARGE_READY_PATH}`);
log(`warm (${res.status}) after ${secs()}; server RSS ${rssMiB()}`);
