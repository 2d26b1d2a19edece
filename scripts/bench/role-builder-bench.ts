// `npm run bench:role-builder`: the role builder's requests on the large synthetic cluster in each RBAC
// shape (stamped and diverse), as the dashboard's server answers them: "Build and review" (the bundle,
// its validation, the diff against today and who can apply it), Approve, Reject, and the history.
// The cluster's analysis is made once first, as the server keeps one per cluster version; each shape
// runs in its own process. Prints p50 and max per step, against the 2 s target (issue #26).
// `npm run bench:role-builder -- --diverse` (or --stamped) measures one shape; `--rounds N` repeats.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { RbacShape } from './generate-cluster';
import { largeClusterFile } from './large-cluster-file';
import { percentile } from './stats';

const TARGET_MS = 2000;
const STEPS = ['build and review', 'approve', 'reject', 'history'] as const;
type Step = (typeof STEPS)[number];

interface ShapeResult {
  shape: RbacShape;
  rbacObjects: number;
  analysisMs: number;
  firstBuildMs: number;
  openMs: number;
  prepareMs: number;
  incremental: string;
  times: Record<Step, number[]>;
}

/** One request per persona, for new identities of an existing namespace (what a platform lead builds). */
function requests() {
  const sa = (name: string) => ({ kind: 'ServiceAccount' as const, namespace: 'ns-1', name });
  return [
    { persona: 'node-local-driver', identity: sa('new-kubelet-plugin'), drivers: ['gpu.example.com'] },
    { persona: 'driver-controller', identity: sa('new-controller'), drivers: ['gpu.example.com'] },
    { persona: 'multi-node-controller', identity: sa('new-status'), drivers: ['compute-domain.nvidia.com'] },
    { persona: 'scheduler', identity: sa('new-allocator'), drivers: [] },
    { persona: 'tenant', identity: sa('new-runner'), drivers: [], namespace: 'ns-1' },
    { persona: 'node-readiness-reporter', identity: sa('new-reporter'), drivers: [] },
    { persona: 'auditor', identity: { kind: 'Group' as const, name: 'new-auditors' }, drivers: [] },
    {
      persona: 'custom',
      identity: { kind: 'User' as const, name: 'new-user' },
      drivers: [],
      namespace: 'ns-1',
      customRules: 'get,list resourceclaims.resource.k8s.io',
    },
  ];
}

async function measureShape(shape: RbacShape, rounds: number): Promise<ShapeResult> {
  const file = await largeClusterFile(shape);
  const store = mkdtempSync(join(tmpdir(), 'dra-rb-bench-'));
  process.env.DRA_POSTURE_SNAPSHOT = file;
  process.env.DRA_POSTURE_STORE = join(store, 'store.sqlite');
  delete process.env.DRA_POSTURE_SOURCE;
  const { getAnalysis } = await import('@/server/services/get-report');
  const service = await import('@/server/role-builder/role-builder-service');
  const { validateBundleWithPath } = await import('@/lib/role-builder/validate-bundle');
  const { prepareInBackground } = await import('@/server/role-builder/validated-reviews');
  try {
    let t = performance.now();
    const analysis = await getAnalysis();
    const analysisMs = performance.now() - t;
    const { state } = analysis;
    // Opening the builder asks for its options, which prepares the first build in the background
    // (fingerprint, lookups) while the user fills the wizard's steps; waited for here.
    t = performance.now();
    await service.builderOptions();
    const openMs = performance.now() - t;
    t = performance.now();
    await prepareInBackground(analysis);
    const prepareMs = performance.now() - t;
    const rbacObjects = state.roles.length + state.clusterRoles.length + state.roleBindings.length + state.clusterRoleBindings.length;
    const times = Object.fromEntries(STEPS.map((s) => [s, [] as number[]])) as Record<Step, number[]>;
    const timed = async <T>(step: Step | undefined, f: () => Promise<T>): Promise<{ value: T; ms: number }> => {
      const t0 = performance.now();
      const value = await f();
      const ms = performance.now() - t0;
      if (step) times[step].push(ms);
      return { value, ms };
    };
    let firstBuildMs = 0;
    let incremental = 0;
    let total = 0;
    for (let round = 0; round < rounds; round++) {
      for (const body of requests()) {
        const built = await timed('build and review', () => service.buildRole(body));
        if (round === 0 && total === 0) firstBuildMs = built.ms;
        total++;
        const r = built.value;
        if (round === 0 && validateBundleWithPath(state, r.bundle, { analysis }).path.incremental) incremental++;
        const decision = { build: body, yamlSha256: r.yamlSha256, sourceFingerprint: r.sourceFingerprint, approver: 'bench', comment: '' };
        await timed('approve', () => service.decideRole({ ...decision, decision: 'approve' }));
        await timed('reject', () => service.decideRole({ ...decision, decision: 'reject' }));
        await timed('history', () => service.listApprovals());
      }
    }
    return { shape, rbacObjects, analysisMs, firstBuildMs, openMs, prepareMs, incremental: `${incremental}/${requests().length}`, times };
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}

function table(results: ShapeResult[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const rows = ['| shape | RBAC objects | step | p50 | max | target ≤ 2 s |', '|---|---:|---|---:|---:|---|'];
  for (const r of results) {
    for (const step of STEPS) {
      const xs = r.times[step];
      const p50 = percentile(xs, 50);
      const max = Math.max(...xs);
      rows.push(
        `| ${r.shape} | ${r.rbacObjects.toLocaleString('en-US')} | ${step} | ${s(p50)} | ${s(max)} | ${max <= TARGET_MS ? 'PASS' : p50 <= TARGET_MS ? 'PASS at p50' : 'FAIL'} |`,
      );
    }
  }
  const notes = results.map(
    (r) =>
      `${r.shape}: analysis of the cluster (once per version, before the builder) ${s(r.analysisMs)}; opening the builder ${s(r.openMs)}, then ${s(r.prepareMs)} preparing in the background (fingerprint, lookups); first build ${s(r.firstBuildMs)}; answered from the current analysis: ${r.incremental} personas`,
  );
  return [...rows, '', ...notes].join('\n');
}

async function main() {
  const args = process.argv.slice(2);
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 2;
  const worker = args.indexOf('--worker');
  if (worker >= 0) {
    // One shape in this process: its figures as the last line of output.
    const result = await measureShape(args[worker + 1] as RbacShape, rounds);
    console.log(JSON.stringify(result));
    process.exit(0);
  }
  const shapes: RbacShape[] = args.includes('--diverse') ? ['diverse'] : args.includes('--stamped') ? ['stamped'] : ['stamped', 'diverse'];
  const results: ShapeResult[] = [];
  for (const shape of shapes) {
    await largeClusterFile(shape);
    const out = execFileSync(
      process.execPath,
      [
        '--conditions=react-server',
        '--max-old-space-size=8192',
        '--import',
        'tsx',
        fileURLToPath(import.meta.url),
        '--worker',
        shape,
        '--rounds',
        String(rounds),
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
    );
    results.push(JSON.parse(out.trim().split('\n').pop()!) as ShapeResult);
  }
  console.log(table(results));
}

void main();
