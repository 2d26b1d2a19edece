// `next start` on a snapshot file for the browser bench: a production build (built first when the
// dist directory has none), its own store, its output kept in a log file for reading afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts } from '../../e2e/kube/control-plane';

export interface NextServer {
  url: string;
  /** Resident memory of the server process now, in MiB (Linux); undefined once it has exited. */
  rssMiB(): number | undefined;
  /** Whether the process is still running (a drift of two large bundles can exhaust its heap). */
  alive(): boolean;
  stop(): Promise<void>;
}

const nextBin = (root: string) => join(root, 'node_modules', 'next', 'dist', 'bin', 'next');

/** The build's directory: DRA_POSTURE_DIST_DIR, as next.config.js reads it, or Next's default. */
export const distDirOf = (root: string) => join(root, process.env.DRA_POSTURE_DIST_DIR || '.next');

/**
 * Builds the dashboard unless its dist directory holds a finished build (or `force`). next build
 * points next-env.d.ts at its dist directory's types; the file is put back as it was.
 */
export function ensureBuild(root: string, force: boolean): void {
  if (!force && existsSync(join(distDirOf(root), 'BUILD_ID'))) return;
  console.log(`next build into ${distDirOf(root)} ...`);
  const nextEnv = join(root, 'next-env.d.ts');
  const before = existsSync(nextEnv) ? readFileSync(nextEnv, 'utf8') : undefined;
  const r = spawnSync(process.execPath, [nextBin(root), 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (before !== undefined) writeFileSync(nextEnv, before);
  if (r.status !== 0) throw new Error(`next build failed (exit ${r.status})`);
}

async function waitForHealth(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('next start did not answer /api/healthz within 5 minutes');
}

/** Starts `next start` serving `snapshot` with the store at `store`; its stdout and stderr go to `log`. */
export async function startNextServer(root: string, snapshot: string, store: string, log: string): Promise<NextServer> {
  const [port] = await freePorts(1);
  const url = `http://127.0.0.1:${port}`;
  const out = createWriteStream(log);
  // 6 GiB of heap: drift between two stored bundles of this cluster peaked at 4.0 GiB (README), and the
  // bench should measure it rather than die of the default limit.
  const server = spawn(process.execPath, ['--max-old-space-size=6144', nextBin(root), 'start', '-H', '127.0.0.1', '-p', String(port)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      DRA_POSTURE_SNAPSHOT: snapshot,
      DRA_POSTURE_SOURCE: '',
      DRA_POSTURE_KUBECONFIG: '',
      DRA_POSTURE_STORE: store,
      // The bench snapshots are ~240 MB, above the default limit for a snapshot file.
      DRA_POSTURE_MAX_SNAPSHOT_BYTES: String(1024 ** 3),
    },
  });
  server.stdout!.pipe(out);
  server.stderr!.pipe(out);
  await waitForHealth(url, server);
  return {
    url,
    rssMiB() {
      try {
        return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1]) / 1024;
      } catch {
        return undefined;
      }
    },
    alive: () => server.exitCode === null && server.signalCode === null,
    async stop() {
      if (server.exitCode !== null || server.signalCode !== null) return;
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    },
  };
}
