// Live-collection benchmark against a real kube-apiserver (e2e/kube/control-plane.ts):
//   node --conditions=react-server --import tsx scripts/bench/live-bench.ts [--namespaces 200] [--per-namespace 100] [--churn-seconds 300] [--no-dashboard]
// Seeds a fresh control plane with ≥ 20,000 objects (pods, service accounts, role bindings and
// resource claims across 200 namespaces; 8 POSTs in flight), then times one full
// collectLiveCluster in a child process, twice: through the fault proxy (for its request log:
// every LIST paginated) and directly (the timing without the proxy hop). Peak RSS is the child's
// own process.resourceUsage().maxRSS (the kernel's high-water mark for that process), so it covers
// the collection and nothing of the seeding, proxy or control plane; the child's RSS before the
// collection is printed too, so the growth caused by the collection can be read off. Then the
// dashboard on that cluster as it changes (live-analysis-bench.ts).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../../e2e/kube/control-plane';
import { startFaultProxy } from '../../e2e/kube/fault-proxy';
import { postObjects } from './post-objects';
import { liveAnalysisBench } from './live-analysis-bench';

const self = fileURLToPath(import.meta.url);

interface ChildResult {
  durationMs: number;
  listCalls: number;
  restarts: number;
  objects: number;
  warnings: string[];
  rssBeforeBytes: number;
  peakRssBytes: number;
  heapUsedBytes: number;
}

async function child(kubeconfig: string): Promise<void> {
  const { collectLiveCluster } = await import('../../server/kube/collect-cluster');
  const rssBeforeBytes = process.memoryUsage().rss;
  const r = await collectLiveCluster({ kubeconfig });
  let objects = 0;
  for (const [k, v] of Object.entries(r.state)) if (k !== 'warnings' && Array.isArray(v)) objects += v.length;
  const out: ChildResult = {
    durationMs: r.stats.durationMs,
    listCalls: r.stats.listCalls,
    restarts: r.stats.restarts,
    objects,
    warnings: r.state.warnings,
    rssBeforeBytes,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBytes: process.memoryUsage().heapUsed,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function main(): Promise<void> {
  const namespaces = flag('namespaces', 200);
  const perNamespace = flag('per-namespace', 100);
  const t0 = performance.now();
  const cp = await startControlPlane({ controllers: false });
  console.log(`control plane ${cp.version} ready in ${Math.round(performance.now() - t0)} ms`);
  const proxy = await startFaultProxy(cp.url);
  try {
    // Seeding: admin token, keep-alive connections, 8 requests in flight.
    const run = (jobs: [string, unknown][]) => postObjects(cp, jobs);
    const nsNames = Array.from({ length: namespaces }, (_, i) => `bench-${String(i).padStart(3, '0')}`);
    await run([
      [
        '/apis/resource.k8s.io/v1/deviceclasses',
        {
          apiVersion: 'resource.k8s.io/v1',
          kind: 'DeviceClass',
          metadata: { name: 'gpu.example.com' },
          spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
        },
      ],
      ...nsNames.map((name): [string, unknown] => ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }]),
    ]);
    // Per namespace: 30% service accounts, 20% role bindings, 10% claims, 40% pods.
    const nSa = Math.round(perNamespace * 0.3);
    const nRb = Math.round(perNamespace * 0.2);
    const nClaim = Math.round(perNamespace * 0.1);
    const nPod = perNamespace - nSa - nRb - nClaim;
    const jobs: [string, unknown][] = [];
    for (const ns of nsNames) {
      for (let i = 0; i < nSa; i++)
        jobs.push([`/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `sa-${i}` } }]);
      for (let i = 0; i < nRb; i++) {
        jobs.push([
          `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
          {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: `rb-${i}` },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: i % 2 ? 'view' : 'edit' },
            subjects: [{ kind: 'ServiceAccount', name: `sa-${i % nSa}`, namespace: ns }],
          },
        ]);
      }
      for (let i = 0; i < nClaim; i++) {
        jobs.push([
          `/apis/resource.k8s.io/v1/namespaces/${ns}/resourceclaims`,
          {
            apiVersion: 'resource.k8s.io/v1',
            kind: 'ResourceClaim',
            metadata: { name: `claim-${i}` },
            spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } },
          },
        ]);
      }
      for (let i = 0; i < nPod; i++) {
        jobs.push([
          `/api/v1/namespaces/${ns}/pods`,
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: `pod-${i}`, labels: { app: `app-${i % 5}` } },
            spec: {
              serviceAccountName: `sa-${i % nSa}`,
              nodeName: `node-${i % 20}`,
              containers: [{ name: 'main', image: 'registry.example/app:1', env: [{ name: 'MODE', value: 'bench' }] }],
              ...(i < nClaim ? { resourceClaims: [{ name: 'gpu', resourceClaimName: `claim-${i}` }] } : {}),
            },
          },
        ]);
      }
    }
    const tSeed = performance.now();
    await run(jobs);
    const seedMs = performance.now() - tSeed;
    const total = jobs.length + namespaces + 1;
    console.log(
      `seeded ${total.toLocaleString('en-US')} objects (${nsNames.length} namespaces × ${perNamespace}: ${nPod} pods, ${nSa} service accounts, ${nRb} role bindings, ${nClaim} claims) in ${(seedMs / 1000).toFixed(1)} s = ${Math.round(jobs.length / (seedMs / 1000))} POST/s`,
    );

    // Asynchronous: the proxy runs in this process and must keep answering meanwhile.
    const measure = async (kubeconfig: string): Promise<ChildResult> => {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--conditions=react-server', '--import', 'tsx', self, '--child', kubeconfig], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      if (stderr.trim()) process.stderr.write(stderr);
      return JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult;
    };
    const mark = proxy.log.length;
    const viaProxy = await measure(proxy.kubeconfig('admin', cp.tokens.admin));
    const log = proxy.log.slice(mark);
    const directRun = await measure(cp.kubeconfigPath);

    const discovery = /^\/(version|api|apis|apis\/[^/]+|apis\/[^/]+\/[^/]+|api\/v1)$/;
    const lists = log.filter((e) => e.method === 'GET' && !discovery.test(e.pathname));
    const paginated = lists.filter((e) => {
      const limit = Number(e.query.get('limit'));
      return limit > 0 && limit <= 500;
    });
    const nonGet = log.filter((e) => e.method !== 'GET');
    const secrets = log.filter((e) => /\/(secrets|configmaps)(\/|\?|$)/.test(e.path));

    const rows: [string, string][] = [
      ['objects seeded', `${total.toLocaleString('en-US')} (+ bootstrap RBAC)`],
      ['objects collected', viaProxy.objects.toLocaleString('en-US')],
      ['collection time, direct', `${directRun.durationMs} ms`],
      ['collection time, through the proxy', `${viaProxy.durationMs} ms`],
      [
        'list calls',
        `${viaProxy.listCalls} (restarts ${viaProxy.restarts}); proxy saw ${lists.length} LISTs, ${paginated.length} with limit ≤ 500, ${lists.length - paginated.length} unpaginated`,
      ],
      ['other requests', `${log.length - lists.length} discovery GETs, ${nonGet.length} non-GET, ${secrets.length} to secrets/configmaps`],
      [
        'collector peak RSS (child maxRSS), direct',
        `${mib(directRun.peakRssBytes)} (RSS before the collection ${mib(directRun.rssBeforeBytes)}, growth ${mib(directRun.peakRssBytes - directRun.rssBeforeBytes)}; heap after ${mib(directRun.heapUsedBytes)})`,
      ],
      ['collector peak RSS (child maxRSS), via proxy', `${mib(viaProxy.peakRssBytes)} (before ${mib(viaProxy.rssBeforeBytes)})`],
      ['kube-apiserver + etcd RSS after', mib(rssOf(cp.pids.apiserver))],
      ['warnings', viaProxy.warnings.length ? viaProxy.warnings.join('; ') : 'none'],
    ];
    let dashboardOk = true;
    if (!process.argv.includes('--no-dashboard')) {
      const dashboard = await liveAnalysisBench(cp, nsNames, flag('churn-seconds', 300));
      rows.push(...dashboard.rows);
      dashboardOk = dashboard.ok;
    }
    const w = Math.max(...rows.map((r) => r[0].length));
    console.log('');
    for (const [k, v] of rows) console.log(`${k.padEnd(w)}  ${v}`);
    if (lists.length !== paginated.length || nonGet.length || secrets.length || viaProxy.objects < total || !dashboardOk) process.exitCode = 1;
  } finally {
    await proxy.close();
    await cp.stop();
  }
}

if (process.argv[2] === '--child') {
  child(process.argv[3]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
