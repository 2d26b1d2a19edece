import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm pack` (its prepack compiles the CLI), then install the tarball into an empty folder as a user
// would (from the local npm cache where it can), and run the installed bins there.
const root = process.cwd();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir = '';
let app = '';

describe('the packed package', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dra-pack-'));
    execFileSync(npm, ['pack', '--pack-destination', dir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    app = join(dir, 'app');
    mkdirSync(app);
    // --ignore-scripts: better-sqlite3's prebuilt download is not needed by these commands.
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', join(dir, tgz)], {
      cwd: app,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }, 300_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const run = (bin: string, ...args: string[]) => spawnSync(join(app, 'node_modules', '.bin', bin), args, { cwd: app, encoding: 'utf8' });

  it('help, --version and the kubectl plugin name work from an empty folder', () => {
    const help = run('dra-posture', 'help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage:');
    expect(run('kubectl-dra_posture', '--version').stdout).toMatch(/^dra-posture \d+\.\d+\.\d+/);
  });

  it('report --demo and who-can --demo answer from the installed package', () => {
    const report = run('dra-posture', 'report', '--demo', '-o', 'json');
    expect(report.status).toBe(0);
    expect((JSON.parse(report.stdout) as { findings: unknown[] }).findings.length).toBeGreaterThan(0);
    const who = run('dra-posture', 'who-can', 'create', 'resourceslices', '--demo');
    expect(who.status).toBe(0);
    expect(who.stdout).toContain('system:masters');
  });
});
