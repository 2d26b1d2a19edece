// `npm run bench:drift` (issue #26): the auditor's drift on the large bench cluster, in each RBAC
// shape: two bundles exported (the cluster, and a copy with drift-changes.ts's known change), then
// `diff` of the two, each a fresh CLI process as a user runs it, with its time and peak RSS.
// `-- --stamped` or `-- --diverse` measures one shape.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli } from '../build/build-cli.mjs';
import { writeChangedCluster } from './drift-changes';
import { largeClusterFile } from './large-cluster-file';
import type { RbacShape } from './generate-cluster';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', '..', 'bin', 'dra-posture.mjs');
const preload = join(here, 'print-peak-rss.mjs');
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Drift targets: a diff of two large bundles in ≤ 5 s and ≤ 1.5 GiB. */
const DIFF_MS = 5_000;
const DIFF_RSS = 1.5 * 1024 ** 3;

interface Run {
  ms: number;
  /** User + system CPU time of the process. */
  cpuMs: number;
  peakRss: number;
  stdout: string;
  status: number | null;
}

function run(args: string[], okStatus: readonly number[] = [0]): Run {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', preload, bin, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.status === null || !okStatus.includes(r.status)) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(0, 500)}`);
  const figure = (name: string) => Number(new RegExp(`${name} (\\d+)`).exec(r.stderr)?.[1] ?? NaN);
  return { ms, cpuMs: figure('cpu-ms'), peakRss: figure('peak-rss-bytes'), stdout: r.stdout, status: r.status };
}

/** The changed copy of a large cluster file, made once next to it. */
async function changedCopy(file: string): Promise<string> {
  const out = join(dirname(file), basename(file).replace(/\.json$/, '-drift-v1.json'));
  if (!existsSync(out)) {
    await writeChangedCluster(file, `${out}.tmp`);
    renameSync(`${out}.tmp`, out);
  }
  return out;
}

async function shape(rbac: RbacShape): Promise<void> {
  const a = await largeClusterFile(rbac);
  const b = await changedCopy(a);
  const dir = mkdtempSync(join(tmpdir(), 'dra-drift-bench-'));
  try {
    const tars = [join(dir, 'a.tar'), join(dir, 'b.tar')];
    const exports = [run(['export', '--snapshot', a, '--out', tars[0]]), run(['export', '--snapshot', b, '--out', tars[1]])];
    // Exit 1: the bundles differ (as diff(1)).
    const diff = run(['diff', tars[0], tars[1]], [1]);
    const again = run(['diff', tars[0], tars[1]], [1]);
    const best = diff.ms <= again.ms ? diff : again;
    const sections = diff.stdout.split('\n').filter((l) => /^\S.*\(\d+( identities)?\):$/.test(l));
    console.log(`\n${rbac} (${basename(a)}; bundles ${mb(statSync(tars[0]).size)} and ${mb(statSync(tars[1]).size)})`);
    for (const [i, e] of exports.entries()) console.log(`  export ${i === 0 ? 'A' : 'B (changed)'}: ${s(e.ms)} (CPU ${s(e.cpuMs)}), peak RSS ${mb(e.peakRss)}`);
    const peak = Math.max(diff.peakRss, again.peakRss);
    console.log(
      `  diff A B: ${s(best.ms)} (best of 2: ${s(diff.ms)}, ${s(again.ms)}; CPU ${s(diff.cpuMs)}, ${s(again.cpuMs)}), peak RSS ${mb(peak)}; target ≤ ${s(DIFF_MS)}, ≤ ${mb(DIFF_RSS)}: ${best.ms <= DIFF_MS && peak <= DIFF_RSS ? 'PASS' : 'FAIL'}`,
    );
    console.log(`  ${sections.join('; ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shapes: RbacShape[] = args.includes('--stamped') ? ['stamped'] : args.includes('--diverse') ? ['diverse'] : ['stamped', 'diverse'];
  await buildCli();
  console.log(`drift at scale: export ×2 + diff, fresh processes (load average ${loadavg()[0].toFixed(1)})`);
  for (const r of shapes) await shape(r);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
