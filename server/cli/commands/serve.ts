import 'server-only';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error';
import { CLUSTER_CONFIG_OPTIONS, clusterConfigFlags } from '../cluster-config-flags';
import { CLUSTER_CONFIG_ENV, encodeStatedConfig } from '@/server/services/stated-cluster-config';
import { GATE_HOST_ENV, GATE_PUBLIC_URL_ENV } from '@/server/http/request-gate';
import type { CommandIO } from '../command-io';

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
  ...CLUSTER_CONFIG_OPTIONS,
} as const;

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
  const child = spawn(process.execPath, [nextBin, 'start', '-H', host, '-p', String(port)], { cwd: root, env, stdio: 'inherit' });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise((done) => child.on('exit', (code) => done(code ?? 0)));
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
