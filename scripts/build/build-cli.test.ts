import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '@/server/cli/__fixtures__/run-cli';
import { findDemo } from '@/server/sources/demo-source';
import { demoDigest, demoFiles, PARSED_DEMO_FILE, parsedDemoPath, readParsedDemo } from '@/server/sources/parsed-demo';
import { buildCli, CLI_OUT, ROOT } from './build-cli.mjs';

// The compiled CLI (what bin/dra-posture.mjs runs) answers as the TypeScript sources do.
describe('compiled CLI', () => {
  beforeAll(async () => {
    await buildCli();
  }, 120_000);

  const bin = join(ROOT, 'bin', 'dra-posture.mjs');

  it('runs help with no TypeScript loader and loads no command for it', () => {
    const run = readFileSync(join(CLI_OUT, 'run.mjs'), 'utf8');
    const chunks = readdirSync(CLI_OUT).filter((f) => f.endsWith('.mjs'));
    expect(chunks.some((f) => f.startsWith('who-can-'))).toBe(true);
    // Commands are loaded lazily: only import() names them.
    for (const f of chunks.filter((c) => /^(who-can|can-i|report|serve)-/.test(c))) expect(run).not.toMatch(new RegExp(`from "\\./${f}"`));
    for (const f of chunks) expect(readFileSync(join(CLI_OUT, f), 'utf8')).not.toMatch(/(import|from)\s*["'](tsx|server-only)["']/);
    const r = spawnSync(process.execPath, [bin, 'help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Usage:');
  });

  it('parses the demo once: dist/cli/demo-cluster.json is current, and editing any demo file rebuilds it', async () => {
    const location = findDemo(ROOT)!;
    expect(parsedDemoPath(location)).toBe(join(CLI_OUT, PARSED_DEMO_FILE));
    const parsed = await readParsedDemo(location);
    expect(parsed?.digest).toBe(await demoDigest(location));
    // bin/dra-posture.mjs rebuilds when a listed source is newer than the build: every demo file and
    // the folders (a manifest added or removed changes the folder's time).
    const sources = JSON.parse(readFileSync(join(CLI_OUT, 'sources.json'), 'utf8')) as string[];
    for (const f of await demoFiles(location)) expect(sources).toContain(relative(ROOT, f.path));
    expect(sources).toEqual(expect.arrayContaining(['demo', 'demo/manifests']));
  });

  it('gives the same answers as the sources (who-can, report, can-i exit codes)', async () => {
    const whoCan = execFileSync(process.execPath, [bin, 'who-can', 'create', 'resourceslices', '--demo', '-o', 'json'], { encoding: 'utf8' });
    expect(JSON.parse(whoCan)).toEqual(JSON.parse((await runCli('who-can', 'create', 'resourceslices', '--demo', '-o', 'json')).out));
    const report = JSON.parse(execFileSync(process.execPath, [bin, 'report', '--demo', '-o', 'json'], { encoding: 'utf8' })) as { findings: unknown[] };
    expect(report.findings.length).toBeGreaterThan(0);
    const no = spawnSync(process.execPath, [bin, 'can-i', 'delete', 'nodes', '--as', 'nobody', '--demo'], { encoding: 'utf8' });
    expect([no.status, no.stdout.trim()]).toEqual([1, 'no']);
    // -o yaml loads the YAML writer on demand: the compiled chunk must find it (it crashed with "stringify is not a function").
    const yaml = spawnSync(process.execPath, [bin, 'who-can', 'create', 'resourceslices', '--demo', '-o', 'yaml'], { encoding: 'utf8' });
    expect([yaml.status, yaml.stderr]).toEqual([0, '']);
    expect(parse(yaml.stdout)).toEqual(JSON.parse((await runCli('who-can', 'create', 'resourceslices', '--demo', '-o', 'json')).out));
    const bad = spawnSync(process.execPath, [bin, 'can-i', '--bogus'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });
});
