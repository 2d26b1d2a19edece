import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analysisNodeFlags, childAnalysisFlags, wantsAnalysisProcess } from '../../bin/analysis-process.mjs';
import { ROOT } from '../../scripts/build/build-cli.mjs';

// bin/analysis-process.mjs: `report` and `export` start themselves again with the analysis flags.
const dir = mkdtempSync(join(tmpdir(), 'dra-analysis-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const moduleUrl = pathToFileURL(join(ROOT, 'bin', 'analysis-process.mjs')).href;

/**
 * Node arguments of a parent process that runs `body` (a script's text) through runInAnalysisProcess
 * with `args`. Both are files: the child gets the parent's node options, and `-e CODE` is one.
 */
function parentOf(body: string, args: string[]) {
  const id = Math.random().toString(36).slice(2);
  const script = join(dir, `child-${id}.mjs`);
  writeFileSync(script, body);
  const parent = join(dir, `parent-${id}.mjs`);
  writeFileSync(
    parent,
    `import { runInAnalysisProcess } from ${JSON.stringify(moduleUrl)};
process.exitCode = await runInAnalysisProcess(${JSON.stringify(script)}, ${JSON.stringify(args)});`,
  );
  return [parent];
}

describe('analysis process', () => {
  it('is wanted by report and export only, and only where the flags are not set yet', () => {
    expect(wantsAnalysisProcess(['report', '--demo'], [], '')).toBe(true);
    expect(wantsAnalysisProcess(['export', '--out', 'x.tar'], ['--conditions=react-server'], '')).toBe(true);
    // Already tuned: the child itself, or a user who sized the young generation (kept as they set it).
    expect(wantsAnalysisProcess(['report'], analysisNodeFlags(), '')).toBe(false);
    expect(wantsAnalysisProcess(['report'], ['--max-semi-space-size=128'], '')).toBe(false);
    expect(wantsAnalysisProcess(['export'], [], '--max-old-space-size=8192 --max_semi_space_size=32')).toBe(false);
    expect(wantsAnalysisProcess(['report'], ['--v8-pool-size=2', '--max-old-space-size=8192'], '--max-old-space-size=8192')).toBe(true);
    for (const command of ['who-can', 'can-i', 'serve', 'help', 'simulate', 'build-role'])
      expect(wantsAnalysisProcess([command, 'report'], [], '')).toBe(false);
    expect(wantsAnalysisProcess([], [], '')).toBe(false);
  });

  it('keeps no more V8 helper threads than the cores beside the main thread, at least one and never more than Node starts', () => {
    const pool = (cores: number) => analysisNodeFlags(cores).find((f) => f.startsWith('--v8-pool-size='));
    expect([1, 2, 3, 5, 16].map(pool)).toEqual(['--v8-pool-size=1', '--v8-pool-size=1', '--v8-pool-size=2', '--v8-pool-size=4', '--v8-pool-size=4']);
  });

  it("keeps a flag the user gave Node instead of the child's own", () => {
    const all = analysisNodeFlags(2);
    expect(childAnalysisFlags([], '', 2)).toEqual(all);
    expect(childAnalysisFlags(['--v8-pool-size=3', '--conditions=react-server'], '', 2)).toEqual(all.filter((f) => !f.startsWith('--v8-pool-size=')));
    // V8 reads `_` and `-` alike; an initial heap size bounds the initial old generation too.
    const noInitial = all.filter((f) => !f.startsWith('--initial-old-space-size='));
    expect(childAnalysisFlags([], '--max-old-space-size=8192 --initial_old_space_size=200', 2)).toEqual(noInitial);
    expect(childAnalysisFlags(['--initial-heap-size=300'], '', 2)).toEqual(noInitial);
    expect(childAnalysisFlags(['--initial-old-space-sizes=3'], '', 2)).toEqual(all);
  });

  it('runs no full collection in the child while its heap grows to ~650 MiB, where the same process without the old-generation flag runs one', () => {
    // Objects kept for good, as a loaded cluster and the analysis' indexes are.
    const grow = `const { PerformanceObserver, constants } = await import('node:perf_hooks');
let majors = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; }).observe({ entryTypes: ['gc'] });
await new Promise((r) => setTimeout(r, 10));
majors = 0;
const keep = [];
for (let i = 0; i < 6_000_000; i++) keep.push({ i, name: 'object-' + i });
await new Promise((r) => setTimeout(r, 10));
console.log(JSON.stringify({ majors, kept: keep.length }));`;
    const tuned = spawnSync(process.execPath, parentOf(grow, []), { encoding: 'utf8' });
    const script = join(dir, 'grow.mjs');
    writeFileSync(script, grow);
    const without = analysisNodeFlags().filter((f) => !f.startsWith('--initial-old-space-size='));
    const control = spawnSync(process.execPath, [...without, script], { encoding: 'utf8' });
    expect(JSON.parse(tuned.stdout)).toEqual({ majors: 0, kept: 6_000_000 });
    // The control: this V8 does collect before then (else the test shows nothing).
    expect(JSON.parse(control.stdout).majors).toBeGreaterThanOrEqual(1);
  });

  it('runs the script with the flags and the same arguments, and exits with its code', () => {
    const r = spawnSync(
      process.execPath,
      parentOf(`console.log(JSON.stringify({ execArgv: process.execArgv, args: process.argv.slice(2) })); process.exit(7);`, ['report', '-o', 'json']),
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(7);
    const seen = JSON.parse(r.stdout) as { execArgv: string[]; args: string[] };
    expect(seen.args).toEqual(['report', '-o', 'json']);
    for (const flag of analysisNodeFlags()) expect(seen.execArgv).toContain(flag);
  });

  it('gives the child a bigger young generation than the parent starts with', () => {
    const size = `const v8 = await import('node:v8'); console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
    const child = spawnSync(process.execPath, parentOf(size, []), { encoding: 'utf8' });
    const plain = spawnSync(process.execPath, ['--input-type=module', '-e', size], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(Number(child.stdout)).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    expect(Number(plain.stdout)).toBeLessThan(Number(child.stdout));
  });

  it('resolves with nothing when the child cannot start, so that the caller runs the command itself', () => {
    const script = join(dir, 'never-run.mjs');
    writeFileSync(script, `console.log('ran');`);
    const parent = join(dir, 'no-node.mjs');
    writeFileSync(
      parent,
      `import { runInAnalysisProcess } from ${JSON.stringify(moduleUrl)};
process.execPath = ${JSON.stringify(join(dir, 'no-such-node'))};
console.log(JSON.stringify({ code: (await runInAnalysisProcess(${JSON.stringify(script)}, [])) ?? null }));`,
    );
    const r = spawnSync(process.execPath, [parent], { encoding: 'utf8' });
    expect([r.status, r.stdout.trim(), r.stderr]).toEqual([0, '{"code":null}', '']);
  });

  it('ends by the signal that ended the child', () => {
    const r = spawnSync(process.execPath, parentOf(`process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000);`, []), { encoding: 'utf8' });
    expect(r.signal).toBe('SIGTERM');
  });

  it('passes a SIGTERM it receives to the child, which decides how to end', async () => {
    const parent = spawn(
      process.execPath,
      parentOf(`process.on('SIGTERM', () => { console.log('child stopping'); process.exit(5); }); console.log('ready'); setTimeout(() => {}, 10000);`, []),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    await new Promise<void>((resolve) =>
      parent.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      }),
    );
    parent.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => parent.once('exit', (c) => resolve(c)));
    expect(out).toContain('child stopping');
    expect(code).toBe(5);
  });
});
