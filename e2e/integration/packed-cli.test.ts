import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts } from '../kube/control-plane';

// `npm pack` (its prepack compiles the CLI and builds the dashboard), then install the tarball into an empty folder as a user
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
    // The snapshot store needs better-sqlite3's native part; build that one as an install would.
    execFileSync(npm, ['rebuild', 'better-sqlite3'], { cwd: app, stdio: ['ignore', 'ignore', 'inherit'] });
  }, 600_000);
  // Removing the installed package (thousands of files) outlasts the default 10 s on a busy disk.
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

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

  it('serve --demo runs the packaged dashboard (pages, API and the snapshot store) with no sources to build from', async () => {
    expect(existsSync(join(app, 'node_modules', 'dra-posture', 'app'))).toBe(false);
    const [port] = await freePorts(1);
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(join(app, 'node_modules', '.bin', 'dra-posture'), ['serve', '--demo', '--port', String(port)], {
      cwd: app,
      env: { ...process.env, XDG_DATA_HOME: join(dir, 'data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    try {
      const report = await waitForJson(`${base}/api/v1/report`, () => output);
      expect((report as { source: { kind: string } }).source.kind).toBe('demo');
      expect(output).not.toContain('building the dashboard');
      const page = await fetch(`${base}/findings`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Findings');
      const taken = await fetch(`${base}/api/v1/snapshots`, { method: 'POST', headers: { Origin: base } });
      // 202: the take is answered at once and its bundle stored in the background, then listed as stored.
      expect(taken.status, await taken.clone().text()).toBe(202);
      let history: { snapshots: unknown[]; takes?: { status: string; error?: string }[] } = { snapshots: [] };
      for (const deadline = Date.now() + 30_000; history.snapshots.length === 0 && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 200));
        history = (await (await fetch(`${base}/api/v1/snapshots`)).json()) as typeof history;
        expect(history.takes?.filter((t) => t.status === 'failed') ?? []).toEqual([]);
      }
      expect(history.snapshots).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 120_000);
});

async function waitForJson(url: string, log: () => string): Promise<unknown> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return await res.json();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within 60 s; serve said:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
