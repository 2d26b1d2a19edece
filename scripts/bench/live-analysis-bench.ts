// The dashboard on a live cluster as it changes (issue 14), run by live-bench.ts after it seeds the
// control plane: `dra-posture serve --rebuild --kubeconfig` (the real server, on a build of the
// current sources), then
//   - RoleBindings created one at a time: how long until /api/v1/report has the finding they cause;
//   - 100 pods created at once, each on its own new node name: how long until every node is in it;
//   - pod churn (creates and deletes, 50 a second) while /api/v1/report is read back to back: the
//     server's CPU (the whole process tree, from /proc) and the report's latency.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ControlPlane } from '../../e2e/kube/control-plane';
import { freePorts } from '../../e2e/kube/control-plane';
import { percentile } from './stats';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const RBAC = 'rbac.authorization.k8s.io';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ReportShape {
  findings: { subjects: { kind: string; name: string; namespace?: string }[] }[];
  nodes: { name: string }[];
}

const ticks = Number(process.env.CLK_TCK ?? 100);

/** CPU seconds (user + system) of a process and all its descendants, from /proc. */
function treeCpuSeconds(rootPid: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces) in parentheses.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ppid = Number(f[1]);
    cpu.set(pid, (Number(f[11]) + Number(f[12])) / ticks);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid)!.push(pid);
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

export interface LiveAnalysisFigures {
  rows: [string, string][];
  ok: boolean;
}

export async function liveAnalysisBench(cp: ControlPlane, namespaces: string[], churnSeconds: number): Promise<LiveAnalysisFigures> {
  const [port] = await freePorts(1);
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [path.join(root, 'bin', 'dra-posture.mjs'), 'serve', '--rebuild', '--kubeconfig', cp.kubeconfigPath, '--port', String(port)],
    {
      cwd: root,
      env: { ...process.env, DRA_POSTURE_SOURCE: '', DRA_POSTURE_SNAPSHOT: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let serverLog = '';
  server.stderr!.on('data', (c: Buffer) => (serverLog = (serverLog + c.toString()).slice(-4000)));
  const report = async (): Promise<{ ms: number; body: ReportShape }> => {
    const t = performance.now();
    const res = await fetch(`${base}/api/v1/report`);
    if (!res.ok) throw new Error(`/api/v1/report: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const body = (await res.json()) as ReportShape;
    return { ms: performance.now() - t, body };
  };
  const create = async (p: string, body: unknown) => {
    const r = await cp.request('admin', p, { method: 'POST', body });
    if (r.status >= 300) throw new Error(`POST ${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  };
  /** Polls the report until `seen` holds; the time from `since`. */
  const until = async (since: number, seen: (r: ReportShape) => boolean, what: string): Promise<number> => {
    for (;;) {
      const { body } = await report();
      if (seen(body)) return performance.now() - since;
      if (performance.now() - since > 30_000) throw new Error(`${what} not in /api/v1/report after 30 s`);
      await sleep(20);
    }
  };

  try {
    // The first analysis (the server may first build the dashboard).
    const t0 = performance.now();
    for (;;) {
      try {
        await report();
        break;
      } catch {
        if (server.exitCode !== null) throw new Error(`serve exited ${server.exitCode}:\n${serverLog}`);
        if (performance.now() - t0 > 600_000) throw new Error(`no report within 10 minutes:\n${serverLog}`);
        await sleep(250);
      }
    }
    const firstMs = performance.now() - t0;

    // A ClusterRole that lets a tenant write claim status: each RoleBinding to it is a DRA006 finding.
    await create(`/apis/${RBAC}/v1/clusterroles`, {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'bench-claim-status' },
      rules: [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update', 'patch'] }],
    });
    await sleep(1500);
    const bindingMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const ns = namespaces[(i * 7) % namespaces.length];
      const name = `probe-${i}`;
      await create(`/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`, {
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: { name },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'bench-claim-status' },
        subjects: [{ kind: 'ServiceAccount', name, namespace: ns }],
      });
      const since = performance.now();
      bindingMs.push(
        await until(
          since,
          (r) => r.findings.some((f) => f.subjects.some((s) => s.kind === 'ServiceAccount' && s.name === name && s.namespace === ns)),
          `RoleBinding ${ns}/${name}`,
        ),
      );
      await sleep(300);
    }

    // 100 pods at once, each on a node name nobody used before: all 100 nodes must show.
    const podsMs: number[] = [];
    for (let round = 0; round < 5; round++) {
      const ns = namespaces[round % namespaces.length];
      const nodes = Array.from({ length: 100 }, (_, j) => `probe-${round}-node-${j}`);
      const queue = nodes.map(
        (node, j) => () =>
          create(`/api/v1/namespaces/${ns}/pods`, {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: `probe-${round}-${j}` },
            spec: { nodeName: node, containers: [{ name: 'main', image: 'registry.example/app:1' }] },
          }),
      );
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let job = queue.shift(); job; job = queue.shift()) await job();
        }),
      );
      const since = performance.now();
      podsMs.push(
        await until(
          since,
          (r) => {
            const names = new Set(r.nodes.map((n) => n.name));
            return nodes.every((n) => names.has(n));
          },
          `100 pods of round ${round}`,
        ),
      );
      await sleep(300);
    }

    // Pod churn at 50 changes a second, the report read back to back meanwhile.
    const live: string[] = [];
    let serial = 0;
    let changes = 0;
    let failures = 0;
    let stop = false;
    const churn = (async () => {
      const interval = 20;
      let next = performance.now();
      const inFlight = new Set<Promise<void>>();
      while (!stop) {
        next += interval;
        const ns = namespaces[serial % namespaces.length];
        const job =
          live.length < 300
            ? (() => {
                const name = `churn-${serial++}`;
                live.push(`${ns}/${name}`);
                return cp
                  .request('admin', `/api/v1/namespaces/${ns}/pods`, {
                    method: 'POST',
                    body: {
                      apiVersion: 'v1',
                      kind: 'Pod',
                      metadata: { name },
                      spec: { nodeName: `node-${serial % 20}`, containers: [{ name: 'main', image: 'registry.example/app:1' }] },
                    },
                  })
                  .then((r) => void (r.status >= 300 && failures++));
              })()
            : (() => {
                const [delNs, delName] = live.shift()!.split('/');
                return cp
                  .request('admin', `/api/v1/namespaces/${delNs}/pods/${delName}`, { method: 'DELETE' })
                  .then((r) => void (r.status >= 300 && failures++));
              })();
        changes++;
        const p = job.catch(() => void failures++).finally(() => inFlight.delete(p));
        inFlight.add(p);
        if (inFlight.size >= 16) await Promise.race(inFlight);
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
      }
      await Promise.all(inFlight);
    })();
    const latencies: number[] = [];
    const cpuStart = treeCpuSeconds(server.pid!);
    const tChurn = performance.now();
    while (performance.now() - tChurn < churnSeconds * 1000) {
      latencies.push((await report()).ms);
      await sleep(50);
    }
    const cpuSeconds = treeCpuSeconds(server.pid!) - cpuStart;
    const wall = (performance.now() - tChurn) / 1000;
    stop = true;
    await churn;
    const cores = cpuSeconds / wall;

    const p99Binding = percentile(bindingMs, 99);
    const p99Pods = percentile(podsMs, 99);
    const p99Report = percentile(latencies, 99);
    const rate = changes / wall;
    const ok = p99Binding <= 1000 && p99Pods <= 1000 && p99Report <= 500 && cores < 1 && rate >= 45 && failures === 0;
    const fmt = (xs: number[]) =>
      `p50 ${percentile(xs, 50).toFixed(0)} ms, p99 ${percentile(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length})`;
    return {
      ok,
      rows: [
        ['dashboard: first report (server start, first analysis)', `${(firstMs / 1000).toFixed(1)} s`],
        ['dashboard: a RoleBinding created → its finding in /api/v1/report', `${fmt(bindingMs)}; target p99 ≤ 1 s: ${p99Binding <= 1000 ? 'PASS' : 'FAIL'}`],
        ['dashboard: 100 pods created → all in /api/v1/report', `${fmt(podsMs)}; target p99 ≤ 1 s: ${p99Pods <= 1000 ? 'PASS' : 'FAIL'}`],
        [
          `dashboard: ${churnSeconds} s of pod churn`,
          `${rate.toFixed(1)} changes/s (${changes} creates and deletes, ${failures} failed); server CPU ${cores.toFixed(2)} cores (target < 1: ${cores < 1 ? 'PASS' : 'FAIL'})`,
        ],
        ['dashboard: /api/v1/report during the churn', `${fmt(latencies)}; target p99 < 500 ms: ${p99Report < 500 ? 'PASS' : 'FAIL'}`],
      ],
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(undefined) : server.once('exit', r)));
  }
}
