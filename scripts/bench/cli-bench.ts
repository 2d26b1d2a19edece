// CLI figures (issue 15), whole processes as a user runs them, against a real kube-apiserver seeded
// with ≥ 2,000 RBAC objects (and pods and claims the question does not need):
//   node --conditions=react-server --import tsx scripts/bench/cli-bench.ts [--hold]
// Also run at the end of `npm run bench`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startControlPlane } from '../../e2e/kube/control-plane';
import { buildCli } from '../build/build-cli.mjs';
import { postObjects } from './post-objects';
import { median } from './stats';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = join(root, 'bin', 'dra-posture.mjs');
const RBAC = 'rbac.authorization.k8s.io';

function timeProcess(args: string[], node: string[] = []): { ms: number; stdout: string; status: number | null } {
  const t = performance.now();
  const r = spawnSync(process.execPath, [...node, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { ms, stdout: r.stdout, status: r.status };
}

function medianOf5(args: string[], node: string[] = []): number {
  return median(Array.from({ length: 5 }, () => timeProcess(args, node).ms));
}

/** `--hold`: seed the cluster, print its kubeconfig and wait for Ctrl-C (to time or profile by hand). */
export async function cliBench(hold = false): Promise<[string, string, string, string][]> {
  await buildCli();
  const cp = await startControlPlane({ controllers: false });
  const dir = mkdtempSync(join(tmpdir(), 'dra-cli-bench-'));
  try {
    // 50 namespaces × (20 Roles + 20 RoleBindings + 20 pods + 4 claims), 100 ClusterRoles + 100 bindings.
    const namespaces = Array.from({ length: 50 }, (_, i) => `team-${String(i).padStart(2, '0')}`);
    await postObjects(cp, [
      ['/apis/resource.k8s.io/v1/deviceclasses', { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu.example.com' }, spec: {} }],
      ...namespaces.map((name): [string, unknown] => ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }]),
    ]);
    const jobs: [string, unknown][] = [];
    for (let i = 0; i < 100; i++) {
      jobs.push([
        `/apis/${RBAC}/v1/clusterroles`,
        {
          apiVersion: `${RBAC}/v1`,
          kind: 'ClusterRole',
          metadata: { name: `bench-cr-${i}` },
          rules: [
            {
              apiGroups: ['resource.k8s.io'],
              resources: i % 3 ? ['resourceclaims', 'resourceclaims/status'] : ['resourceslices'],
              verbs: i % 2 ? ['get', 'update'] : ['*'],
            },
          ],
        },
      ]);
      jobs.push([
        `/apis/${RBAC}/v1/clusterrolebindings`,
        {
          apiVersion: `${RBAC}/v1`,
          kind: 'ClusterRoleBinding',
          metadata: { name: `bench-crb-${i}` },
          roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: `bench-cr-${i}` },
          subjects: [{ kind: 'User', name: `user-${i}` }],
        },
      ]);
    }
    for (const ns of namespaces) {
      for (let i = 0; i < 20; i++) {
        jobs.push([
          `/apis/${RBAC}/v1/namespaces/${ns}/roles`,
          {
            apiVersion: `${RBAC}/v1`,
            kind: 'Role',
            metadata: { name: `role-${i}` },
            rules: [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: i % 2 ? ['update', 'patch'] : ['get'] }],
          },
        ]);
        jobs.push([
          `/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`,
          {
            apiVersion: `${RBAC}/v1`,
            kind: 'RoleBinding',
            metadata: { name: `rb-${i}` },
            roleRef: { apiGroup: RBAC, kind: i % 4 ? 'Role' : 'ClusterRole', name: i % 4 ? `role-${i}` : 'edit' },
            subjects: [{ kind: 'ServiceAccount', name: `sa-${i}`, namespace: ns }],
          },
        ]);
        jobs.push([
          `/api/v1/namespaces/${ns}/pods`,
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: `pod-${i}` },
            spec: { nodeName: `node-${i % 10}`, containers: [{ name: 'main', image: 'registry.example/app:1' }] },
          },
        ]);
      }
      for (let i = 0; i < 4; i++)
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
    await postObjects(cp, jobs);
    const rbacSeeded = jobs.filter(([p]) => p.includes(RBAC)).length;
    const kc = cp.kubeconfigPath;
    if (hold) {
      console.log(`kubeconfig: ${kc}`);
      await new Promise((r) => process.once('SIGINT', r));
      return [];
    }

    const question = ['who-can', 'update', 'resourceclaims', '--subresource', 'status', '-n', 'team-07', '--kubeconfig', kc];
    const first = timeProcess([bin, ...question]);
    const subjects = first.stdout.trim().split('\n').length - 1;
    const whoCan = medianOf5([bin, ...question]);
    const whoCanAll = medianOf5([bin, 'who-can', 'update', 'resourceclaims', '--subresource', 'status', '-A', '--kubeconfig', kc]);
    const help = medianOf5([bin, 'help']);
    // The bundled demo, parsed once by the build (dist/cli/demo-cluster.json; #26): as fast as a live question.
    const demo = medianOf5([bin, 'who-can', 'update', 'nodes/status', '--demo']);
    const helpTsx = medianOf5([join(root, 'server', 'cli', 'main.ts'), 'help'], ['--conditions=react-server', '--import', 'tsx']);

    // 1,000 questions, one process, one read of the cluster.
    const verbs = ['get', 'list', 'create', 'update', 'patch', 'delete'];
    const types = [
      'resourceclaims',
      'resourceclaims --subresource status',
      'resourceslices',
      'deviceclasses',
      'pods',
      'nodes --subresource status',
      'roles',
      'secrets',
    ];
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `${verbs[i % verbs.length]} ${types[i % types.length]}${i % 3 ? ` -n ${namespaces[i % namespaces.length]}` : ''}`,
    );
    const batchFile = join(dir, 'questions.txt');
    writeFileSync(batchFile, `${lines.join('\n')}\n`);
    const batch = median(Array.from({ length: 3 }, () => timeProcess([bin, 'who-can', '--batch', batchFile, '-o', 'json', '--kubeconfig', kc]).ms));
    const batchAnswers = (JSON.parse(timeProcess([bin, 'who-can', '--batch', batchFile, '-o', 'json', '--kubeconfig', kc]).stdout) as unknown[]).length;

    const check = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
    return [
      [
        'CLI: live cluster',
        `kube-apiserver ${cp.version}, ${rbacSeeded.toLocaleString('en-US')} RBAC objects seeded (+ bootstrap), 1,000 pods, 200 claims`,
        '',
        '',
      ],
      ['CLI: who-can, one question, whole process', `${(whoCan / 1000).toFixed(3)} s median of 5 (${subjects} subjects)`, '≤ 0.15 s', check(whoCan <= 150)],
      ['CLI: who-can -A, whole process', `${(whoCanAll / 1000).toFixed(3)} s median of 5`, '', ''],
      ['CLI: who-can --demo, whole process', `${(demo / 1000).toFixed(3)} s median of 5 (parsed at build time)`, '≤ 0.4 s', check(demo <= 400)],
      ['CLI: help, whole process', `${help.toFixed(0)} ms median of 5 (through tsx, as before: ${helpTsx.toFixed(0)} ms)`, '≤ 80 ms', check(help <= 80)],
      [
        'CLI: who-can --batch, 1,000 questions, one process',
        `${(batch / 1000).toFixed(2)} s median of 3 (${batchAnswers} answers; ${((batch / 1000 / 1000) * 1000).toFixed(2)} ms a question)`,
        '',
        check(batchAnswers === 1000),
      ],
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cp.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cliBench(process.argv.includes('--hold')).then(
    (rows) => {
      const w = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i].length)));
      for (const r of rows) console.log(`${r[0].padEnd(w[0])}  ${r[1].padEnd(w[1])}  ${r[2].padEnd(w[2])}  ${r[3]}`);
    },
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
