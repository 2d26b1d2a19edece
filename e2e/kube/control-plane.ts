// Test harness: a real kube-apiserver (with embedded etcd 3.6) and, optionally,
// a kube-controller-manager running selected controllers, all on 127.0.0.1.
// The binary is built from e2e/kas (Go, k8s.io/kubernetes) by e2e/kas/build.sh,
// or taken from $KAS_BIN. Uses only node:* built-ins.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { kubeRequest, type KubeRequestOptions, type KubeResponse } from './http';

/** Static-token identities written to the token file (name -> user/groups). */
export const IDENTITIES = {
  /** cluster-admin via group system:masters (bypasses authorization). */
  admin: { user: 'admin', groups: ['system:masters'] },
  /** Cluster-wide read-only identity; tests bind RBAC to user or group. */
  viewer: { user: 'viewer', groups: ['dra-posture:viewers'] },
  /** Meant to be limited to one namespace by RBAC the tests create. */
  'ns-viewer': { user: 'ns-viewer', groups: ['dra-posture:ns-viewers'] },
  /** Used by the controller manager (bootstrap RBAC binds this user). */
  kcm: { user: 'system:kube-controller-manager', groups: [] as string[] },
  'node-a': { user: 'system:node:node-a', groups: ['system:nodes'] },
  'node-b': { user: 'system:node:node-b', groups: ['system:nodes'] },
  /** Dashboard users under `serve --auth kubernetes` (serve-auth tests bind deploy/15-user-roles.yaml). */
  approver: { user: 'alice-approver', groups: ['platform-leads'] },
  auditor: { user: 'bob-auditor', groups: ['auditors'] },
  /** Authenticated, with no grant at all. */
  nobody: { user: 'carol-nobody', groups: [] as string[] },
  /** The dashboard's own identity for token and access reviews (deploy/10-rbac.yaml's reviewer role). */
  dashboard: { user: 'dra-posture-dashboard', groups: [] as string[] },
} as const;

export type IdentityName = keyof typeof IDENTITIES;

/** kube-controller-manager controllers started when `controllers` is true (v1.36 canonical names). */
export const DEFAULT_KCM_CONTROLLERS = [
  'clusterrole-aggregation-controller',
  'serviceaccount-controller',
  'namespace-controller',
  'garbage-collector-controller',
  'resourcequota-controller',
  'root-ca-certificate-publisher-controller',
];

/** Feature gates always passed to the apiserver (both are beta/default-on in 1.36; explicit for intent). */
export const FEATURE_GATES = 'ConstrainedImpersonation=true,DRAResourceClaimGranularStatusAuthorization=true';

export const SA_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface ControlPlaneOptions {
  /** Passed as --runtime-config, e.g. 'resource.k8s.io/v1beta2=true'. */
  runtimeConfig?: string;
  /** Extra kube-apiserver flags (`--name=value`). A flag named here REPLACES the
   *  harness default of the same name (e.g. `--authorization-mode=RBAC`,
   *  `--feature-gates=...`); list flags are not merged. */
  extraApiserverArgs?: string[];
  /** Start kube-controller-manager (default true). Without it the ServiceAccount admission plugin is disabled. */
  controllers?: boolean;
  /** Where kas.log / kcm.log go (default: the temp dir, deleted by stop()). */
  logDir?: string;
  /** Override the controller list (default DEFAULT_KCM_CONTROLLERS). */
  kcmControllers?: string[];
  /** Extra kube-controller-manager flags; like extraApiserverArgs, they replace defaults of the same name. */
  extraControllerManagerArgs?: string[];
  /** Keep the temp dir after stop() (also env KAS_KEEP_DIR=1). */
  keepDir?: boolean;
  /** /readyz deadline in ms (default 90 000). */
  readyTimeoutMs?: number;
}

export interface ControlPlane {
  /** https://127.0.0.1:<port> */
  url: string;
  /** Admin kubeconfig (token auth, insecure-skip-tls-verify). */
  kubeconfigPath: string;
  /** Temp dir holding keys, token file, kubeconfigs, etcd data, pki. */
  dir: string;
  /** Bearer token per identity name (keys of IDENTITIES). */
  tokens: Record<string, string>;
  /** gitVersion from /version, e.g. v1.36.3. */
  version: string;
  /** Kubeconfig path per identity name (<dir>/<name>.kubeconfig). */
  kubeconfigs: Record<string, string>;
  /** Process ids (for diagnostics, e.g. RSS). */
  pids: { apiserver: number; controllerManager?: number };
  /** Startup durations in ms. */
  timings: { apiserverReadyMs: number; controllersReadyMs?: number };
  /** Raw request as one of the identities (see http.ts). */
  request<T = any>(as: string, path: string, opts?: KubeRequestOptions): Promise<KubeResponse<T>>;
  /** SIGTERM both processes, wait, remove the temp dir. Idempotent. */
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '..', '..');

// ---------------------------------------------------------------------------
// Child-process bookkeeping: nothing may outlive the test run.

const live = new Set<ChildProcess>();
let hooksInstalled = false;

function killAllNow(): void {
  for (const c of live) {
    try {
      c.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
  live.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killAllNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = () => {
      killAllNow();
      // If nobody else handles the signal, restore the default (terminate).
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
      }
    };
    process.on(sig, handler);
  }
}

function track(child: ChildProcess): void {
  installExitHooks();
  live.add(child);
  child.once('exit', () => live.delete(child));
}

// ---------------------------------------------------------------------------
// Helpers

let binaryPromise: Promise<string> | undefined;

/** Path of the kas binary: $KAS_BIN, else `bash e2e/kas/build.sh` (cached; a cold build takes 10-20 min). */
export function resolveKasBinary(): Promise<string> {
  binaryPromise ??= (async () => {
    const fromEnv = process.env.KAS_BIN;
    if (fromEnv) {
      fs.accessSync(fromEnv, fs.constants.X_OK);
      return fromEnv;
    }
    const script = path.join(repoRoot, 'e2e', 'kas', 'build.sh');
    return await new Promise<string>((resolve, reject) => {
      const child = spawn('bash', [script], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', reject);
      child.on('exit', (code) => {
        const last = out.trim().split('\n').pop()?.trim() ?? '';
        if (code === 0 && last && fs.existsSync(last)) resolve(last);
        else reject(new Error(`e2e/kas/build.sh failed (exit ${code}); stdout: ${out.slice(-2000)}`));
      });
    });
  })();
  binaryPromise.catch(() => (binaryPromise = undefined));
  return binaryPromise;
}

/** Reserve n distinct free loopback ports (bind :0 on 127.0.0.1, then release). */
export async function freePorts(n: number): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const srv = net.createServer();
      servers.push(srv);
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function kubeconfig(server: string, user: string, token: string): string {
  const q = JSON.stringify; // JSON strings are valid YAML scalars
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: dra-posture-test',
    '  cluster:',
    `    server: ${q(server)}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    `- name: ${q(user)}`,
    '  user:',
    `    token: ${q(token)}`,
    'contexts:',
    `- name: ${q(user)}`,
    '  context:',
    '    cluster: dra-posture-test',
    `    user: ${q(user)}`,
    `current-context: ${q(user)}`,
    '',
  ].join('\n');
}

const flagName = (arg: string) => /^--?([^=]+)/.exec(arg)?.[1];

/** defaults + extras, where an extra flag replaces every default flag with the same name. */
function mergeFlags(defaults: string[], extras: string[] = []): string[] {
  const overridden = new Set(extras.map(flagName).filter(Boolean));
  return [...defaults.filter((a) => !overridden.has(flagName(a))), ...extras];
}

function csvField(s: string): string {
  return /[",\s]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return await new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

async function terminate(child: ChildProcess | undefined, graceMs = 20_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if (!(await waitForExit(child, graceMs))) {
    child.kill('SIGKILL');
    await waitForExit(child, 5_000);
  }
}

function exited(child: ChildProcess): string | undefined {
  if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
  if (child.signalCode !== null) return `killed by ${child.signalCode}`;
  return undefined;
}

// ---------------------------------------------------------------------------

/**
 * Start kube-apiserver (+ embedded etcd) and, unless `controllers: false`,
 * kube-controller-manager. Resolves once /readyz is 200 and (with
 * controllers) ClusterRole aggregation and the `default` ServiceAccount work.
 */
export async function startControlPlane(opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const withControllers = opts.controllers ?? true;
  const bin = await resolveKasBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dra-posture-kas-'));
  const logDir = opts.logDir ? path.resolve(opts.logDir) : dir;
  fs.mkdirSync(logDir, { recursive: true });
  const kasLog = path.join(logDir, 'kas.log');
  const kcmLog = path.join(logDir, 'kcm.log');
  const keepDir = opts.keepDir ?? process.env.KAS_KEEP_DIR === '1';

  let apiserver: ChildProcess | undefined;
  let kcm: ChildProcess | undefined;
  const fds: number[] = [];
  let stopped = false;

  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await terminate(kcm);
    await terminate(apiserver);
    for (const fd of fds.splice(0)) {
      try {
        fs.closeSync(fd);
      } catch {
        /* ignore */
      }
    }
    if (!keepDir) fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    const [port, etcdPort, etcdPeerPort] = await freePorts(3);
    const url = `https://127.0.0.1:${port}`;

    // Service-account signing key pair.
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const saKey = path.join(dir, 'sa.key');
    const saPub = path.join(dir, 'sa.pub');
    fs.writeFileSync(saKey, privateKey, { mode: 0o600 });
    fs.writeFileSync(saPub, publicKey);

    // Static tokens: token,user,uid[,"group1,group2"].
    const tokens: Record<string, string> = {};
    const lines: string[] = [];
    for (const [name, id] of Object.entries(IDENTITIES)) {
      const token = crypto.randomBytes(24).toString('hex');
      tokens[name] = token;
      const fields = [token, csvField(id.user), csvField(`uid-${name}`)];
      if (id.groups.length) fields.push(`"${id.groups.join(',')}"`);
      lines.push(fields.join(','));
    }
    const tokenFile = path.join(dir, 'tokens.csv');
    fs.writeFileSync(tokenFile, lines.join('\n') + '\n', { mode: 0o600 });

    const kubeconfigs: Record<string, string> = {};
    for (const [name, id] of Object.entries(IDENTITIES)) {
      const p = path.join(dir, `${name}.kubeconfig`);
      fs.writeFileSync(p, kubeconfig(url, id.user, tokens[name]), { mode: 0o600 });
      kubeconfigs[name] = p;
    }

    const pki = path.join(dir, 'pki');
    fs.mkdirSync(pki);
    const args = mergeFlags(
      [
        `--etcd-servers=http://127.0.0.1:${etcdPort}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        // The `kubernetes` Service gets no Endpoints: endpoint validation rejects
        // loopback addresses, and the default reconciler would log an error every 10 s.
        '--endpoint-reconciler-type=none',
        `--secure-port=${port}`,
        `--cert-dir=${pki}`,
        `--token-auth-file=${tokenFile}`,
        `--service-account-issuer=${SA_ISSUER}`,
        `--api-audiences=${SA_ISSUER}`,
        `--service-account-key-file=${saPub}`,
        `--service-account-signing-key-file=${saKey}`,
        '--service-account-extend-token-expiration=false',
        '--service-cluster-ip-range=10.0.0.0/24',
        '--authorization-mode=Node,RBAC',
        '--allow-privileged=true',
        '--enable-admission-plugins=NodeRestriction',
        // Without the serviceaccount controller no `default` SA would exist and
        // every pod create would fail in ServiceAccount admission.
        ...(withControllers ? [] : ['--disable-admission-plugins=ServiceAccount']),
        `--feature-gates=${FEATURE_GATES}`,
        '--profiling=false',
        '--v=1',
        ...(opts.runtimeConfig ? [`--runtime-config=${opts.runtimeConfig}`] : []),
      ],
      opts.extraApiserverArgs,
    );

    const t0 = Date.now();
    const kasFd = fs.openSync(kasLog, 'a');
    fds.push(kasFd);
    fs.writeSync(kasFd, `# ${bin} ${args.join(' ')}\n`);
    apiserver = spawn(bin, args, {
      cwd: dir,
      stdio: ['ignore', kasFd, kasFd],
      env: {
        ...process.env,
        KAS_ETCD_DIR: path.join(dir, 'etcd'),
        KAS_ETCD_PORT: String(etcdPort),
        KAS_ETCD_PEER_PORT: String(etcdPeerPort),
        KAS_EXIT_WITH_PARENT: '1',
      },
    });
    track(apiserver);
    const apiserverProc = apiserver;
    const spawnError = new Promise<never>((_, reject) => apiserverProc.once('error', reject));
    spawnError.catch(() => undefined);

    // Wait for /readyz.
    const deadline = t0 + (opts.readyTimeoutMs ?? 90_000);
    let lastStatus = '';
    for (;;) {
      const gone = exited(apiserverProc);
      if (gone) throw new Error(`kube-apiserver ${gone} before /readyz`);
      try {
        const r = await Promise.race([kubeRequest(url, '', '/readyz', { timeoutMs: 5_000 }), spawnError]);
        if (r.status === 200) break;
        lastStatus = `HTTP ${r.status}: ${String(r.body).slice(0, 500)}`;
      } catch (e) {
        lastStatus = (e as Error).message;
      }
      if (Date.now() > deadline) {
        const hint =
          /resource\.k8s\.io\/v1=false/.test(args.join(' ')) && /--authorization-mode=[^ ]*Node/.test(args.join(' '))
            ? ' [hint: with resource.k8s.io/v1 disabled the Node authorizer\'s informers never sync; add extraApiserverArgs: ["--authorization-mode=RBAC"]]'
            : '';
        throw new Error(`kube-apiserver not ready after ${Date.now() - t0} ms (${lastStatus})${hint}`);
      }
      await sleep(250);
    }
    const apiserverReadyMs = Date.now() - t0;

    const request = <T = any>(as: string, p: string, o?: KubeRequestOptions) => {
      const token = tokens[as];
      if (token === undefined) throw new Error(`unknown identity ${as}`);
      return kubeRequest<T>(url, token, p, o);
    };
    const v = await request('admin', '/version');
    const version: string = v.body?.gitVersion ?? '';

    let controllersReadyMs: number | undefined;
    if (withControllers) {
      const t1 = Date.now();
      const kcmArgs = [
        'controller-manager',
        ...mergeFlags(
          [
            `--kubeconfig=${kubeconfigs.kcm}`,
            `--controllers=${(opts.kcmControllers ?? DEFAULT_KCM_CONTROLLERS).join(',')}`,
            '--leader-elect=false',
            '--use-service-account-credentials=true',
            `--service-account-private-key-file=${saKey}`,
            `--root-ca-file=${path.join(pki, 'apiserver.crt')}`,
            '--bind-address=127.0.0.1',
            '--secure-port=0',
            '--concurrent-gc-syncs=5',
            '--v=1',
          ],
          opts.extraControllerManagerArgs,
        ),
      ];
      const kcmFd = fs.openSync(kcmLog, 'a');
      fds.push(kcmFd);
      fs.writeSync(kcmFd, `# ${bin} ${kcmArgs.join(' ')}\n`);
      kcm = spawn(bin, kcmArgs, {
        cwd: dir,
        stdio: ['ignore', kcmFd, kcmFd],
        env: { ...process.env, KAS_EXIT_WITH_PARENT: '1' },
      });
      track(kcm);
      await waitForControllers(request, kcm, t1 + 60_000);
      controllersReadyMs = Date.now() - t1;
    }

    return {
      url,
      kubeconfigPath: kubeconfigs.admin,
      dir,
      tokens,
      version,
      kubeconfigs,
      pids: { apiserver: apiserverProc.pid ?? -1, controllerManager: kcm?.pid },
      timings: { apiserverReadyMs, controllersReadyMs },
      request,
      stop,
    };
  } catch (err) {
    const msg = (err as Error).message;
    let detail = `\n--- last 40 lines of ${kasLog} ---\n${tail(kasLog)}`;
    if (kcm) detail += `\n--- last 40 lines of ${kcmLog} ---\n${tail(kcmLog)}`;
    await stop().catch(() => undefined);
    throw new Error(`startControlPlane failed: ${msg}${detail}`, { cause: err });
  }
}

type Requester = ControlPlane['request'];

/** Controller smoke checks: ClusterRole aggregation into `view`, and the `default` ServiceAccount. */
async function waitForControllers(request: Requester, kcm: ChildProcess, deadline: number): Promise<void> {
  const probe = 'dra-posture-harness-aggregation-probe';
  const probeRule = { apiGroups: ['dra-posture.test'], resources: ['aggregationprobes'], verbs: ['get'] };
  const hasProbe = (role: any) => (role?.rules ?? []).some((r: any) => (r.apiGroups ?? []).includes('dra-posture.test'));

  const check = (what: string) => {
    const gone = exited(kcm);
    if (gone) throw new Error(`kube-controller-manager ${gone} (${what})`);
    if (Date.now() > deadline) throw new Error(`controllers not working within 60 s: ${what}`);
  };

  const created = await request('admin', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: probe, labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [probeRule],
    },
  });
  if (created.status !== 201) throw new Error(`creating probe ClusterRole: HTTP ${created.status} ${JSON.stringify(created.body)}`);

  for (;;) {
    check('probe ClusterRole not aggregated into view');
    const view = await request('admin', '/apis/rbac.authorization.k8s.io/v1/clusterroles/view');
    if (hasProbe(view.body)) break;
    await sleep(200);
  }
  await request('admin', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${probe}`, { method: 'DELETE' });
  // Leave `view` exactly as bootstrap + aggregation define it.
  for (;;) {
    check('probe rule not removed from view');
    const view = await request('admin', '/apis/rbac.authorization.k8s.io/v1/clusterroles/view');
    if (!hasProbe(view.body)) break;
    await sleep(200);
  }
  for (;;) {
    check('ServiceAccount default/default not created');
    const sa = await request('admin', '/api/v1/namespaces/default/serviceaccounts/default');
    if (sa.status === 200) break;
    await sleep(200);
  }
}
