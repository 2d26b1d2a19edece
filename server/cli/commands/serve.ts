import 'server-only';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { CLUSTER_CONFIG_ENV, encodeStatedConfig } from '@/server/services/stated-cluster-config';
import { GATE_HOST_ENV, GATE_PUBLIC_URL_ENV } from '@/server/http/request-gate';
import { AUTH_CONTEXT_ENV, AUTH_KUBECONFIG_ENV, AUTH_MODE_ENV, type AuthMode } from '@/server/auth/auth-config';
import type { CommandIO } from '../command-io';

/** How long an idle keep-alive connection is kept (next start --keepAliveTimeout). */
export const KEEP_ALIVE_MS = 65_000;

const OPTIONS = {
  host: { type: 'string' },
  'public-url': { type: 'string' },
  port: { type: 'string' },
  demo: { type: 'boolean' },
  snapshot: { type: 'string' },
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  rebuild: { type: 'boolean' },
  audit: { type: 'string' },
  auth: { type: 'string' },
  'auth-kubeconfig': { type: 'string' },
  'auth-context': { type: 'string' },
  'unsafe-no-auth': { type: 'boolean' },
  ...CLUSTER_CONFIG_OPTIONS,
} as const;

/** What `serve` preloads into the `next start` process (in bin/, shipped with the package). */
const SERVE_PRELOAD = 'serve-preload.mjs';

/** Where prepack puts the dashboard build in the package (scripts/build/build-dashboard.mjs). */
const PACKAGED_DASHBOARD = 'dist/dashboard';

/** Serves the production build of the dashboard, building it first when there is none. */
export async function runServe(argv: string[], io: CommandIO): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 0) throw new UsageError(`unexpected arguments: ${positionals.join(' ')}`);
  const sources = [values.demo, values.snapshot !== undefined, values.kubeconfig !== undefined || values.context !== undefined].filter(Boolean).length;
  if (sources > 1) throw new UsageError('choose one source: --demo, --snapshot PATH, or --kubeconfig/--context');
  const port = Number(values.port ?? '3000');
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new UsageError(`--port expects 1-65535, got "${values.port}"`);
  const host = values.host ?? '127.0.0.1';
  const publicUrl = values['public-url'] === undefined ? undefined : parsePublicUrl(values['public-url']);
  const auth = authChoice(values.auth, host, values['unsafe-no-auth'] === true);
  if ((values['auth-kubeconfig'] !== undefined || values['auth-context'] !== undefined) && auth !== 'kubernetes') {
    throw new UsageError('--auth-kubeconfig and --auth-context go with --auth kubernetes');
  }
  const root = process.env.DRA_POSTURE_ROOT ?? process.cwd();
  // Installed, next is wherever npm hoisted it, so resolve it as the package would.
  const nextBin = createRequire(join(root, 'package.json')).resolve('next/dist/bin/next');
  // A checkout builds into .next; an installed package has no sources and ships its build.
  const installed = !existsSync(join(root, 'app'));

  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  delete env.DRA_POSTURE_SNAPSHOT;
  // The request gate (proxy.ts) answers only to loopback names, IP literals, --host and --public-url.
  env[GATE_HOST_ENV] = host;
  delete env[GATE_PUBLIC_URL_ENV];
  if (publicUrl) env[GATE_PUBLIC_URL_ENV] = publicUrl;
  if (values.snapshot !== undefined) {
    const path = resolve(values.snapshot);
    if (!existsSync(path)) throw new UsageError(`--snapshot ${values.snapshot}: no such file or folder`);
    env.DRA_POSTURE_SNAPSHOT = path;
  }
  if (values.kubeconfig !== undefined) env.DRA_POSTURE_KUBECONFIG = resolve(values.kubeconfig);
  if (values.context !== undefined) env.DRA_POSTURE_CONTEXT = values.context;
  if (values.demo) env.DRA_POSTURE_SOURCE = 'demo';
  delete env.DRA_POSTURE_AUDIT;
  if (values.audit !== undefined) {
    const path = resolve(values.audit);
    if (!existsSync(path)) throw new UsageError(`--audit ${values.audit}: no such file or folder`);
    env.DRA_POSTURE_AUDIT = path;
  }

  delete env[AUTH_MODE_ENV];
  delete env[AUTH_KUBECONFIG_ENV];
  delete env[AUTH_CONTEXT_ENV];
  if (auth === 'kubernetes') {
    env[AUTH_MODE_ENV] = 'kubernetes';
    if (values['auth-kubeconfig'] !== undefined) env[AUTH_KUBECONFIG_ENV] = resolve(values['auth-kubeconfig']);
    if (values['auth-context'] !== undefined) env[AUTH_CONTEXT_ENV] = values['auth-context'];
  } else if (!isLoopback(host)) {
    io.err(`warning: --unsafe-no-auth: everyone who reaches ${host} sees the whole RBAC map and can switch sources and approve roles`);
  }

  delete env[CLUSTER_CONFIG_ENV];
  const { overrides } = clusterConfigFlags(values);
  if (overrides) env[CLUSTER_CONFIG_ENV] = encodeStatedConfig(overrides);

  delete env.DRA_POSTURE_DIST_DIR;
  if (installed) {
    if (values.rebuild) throw new UsageError('--rebuild: an installed package has no sources to build from');
    if (!existsSync(join(root, PACKAGED_DASHBOARD, 'BUILD_ID'))) {
      io.err(`dra-posture serve: the package has no dashboard build (${join(root, PACKAGED_DASHBOARD)} is missing); reinstall it`);
      return 1;
    }
    env.DRA_POSTURE_DIST_DIR = PACKAGED_DASHBOARD;
  } else if (values.rebuild || !existsSync(join(root, '.next', 'BUILD_ID'))) {
    io.err('building the dashboard (first run only; takes a minute or two) ...');
    const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (build.status !== 0) {
      io.err('dra-posture serve: the dashboard build failed (see the output above)');
      return 1;
    }
  }
  io.err(`dashboard: http://${host.includes(':') ? `[${host}]` : host}:${port}/`);
  // bin/serve-preload.mjs: a deeper accept queue than next start's 511 (bin/listen-backlog.mjs), and
  // request handlers started one per event-loop turn so that waiting connections are accepted while
  // the server is busy (bin/request-pacing.mjs). And keep-alive connections kept 65 s instead of
  // Node's 5 s: the idle time starts when the server has written an answer, and a client still
  // reading a large report on a loaded machine then sent its next request into a connection being
  // closed (ECONNRESET under 1,000 clients).
  const serverPreload = join(root, 'bin', SERVE_PRELOAD);
  const preload = existsSync(serverPreload) ? ['--import', pathToFileURL(serverPreload).href] : [];
  const child = spawn(process.execPath, [...preload, nextBin, 'start', '-H', host, '-p', String(port), '--keepAliveTimeout', String(KEEP_ALIVE_MS)], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((done) => child.on('exit', (code) => done(code ?? 0)));
}

/** --auth: kubernetes, or none, which only loopback gets without --unsafe-no-auth. */
function authChoice(value: string | undefined, host: string, unsafe: boolean): AuthMode {
  if (value !== undefined && value !== 'none' && value !== 'kubernetes') throw new UsageError(`--auth expects none or kubernetes, got "${value}"`);
  const mode: AuthMode = value === 'kubernetes' ? 'kubernetes' : 'none';
  if (mode === 'none' && !isLoopback(host) && !unsafe) {
    throw new UsageError(
      `--host ${host} serves the dashboard beyond this machine: add --auth kubernetes (viewers sign in with a Kubernetes token), or --unsafe-no-auth to serve it to everyone who can reach it`,
    );
  }
  return mode;
}

/** Whether a bind address only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** --public-url: the http(s) URL browsers use to reach the dashboard (a reverse proxy, an ingress). */
function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--public-url expects a URL such as https://dra-posture.example.com, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--public-url expects an http or https URL, got "${value}"`);
  return url.origin;
}
