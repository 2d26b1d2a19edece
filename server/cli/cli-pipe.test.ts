import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The CLI as a process whose stdout is a pipe (as in `report -o json | jq`): writes to a full pipe
// wait for the reader, and exiting before they flushed cut the output at the pipe's 64 KiB.

const root = join(import.meta.dirname, '..', '..');
const CLI = ['--conditions=react-server', '--import', 'tsx', join(root, 'server/cli/main.ts')];

/**
 * Runs the CLI into a real pipe (made by sh, as a user's `| jq` is; Node's own child pipes are sockets
 * with larger buffers) whose reader starts a second late, in a plain environment (no test-runner variables).
 */
function runWithLateReader(args: string[]): Promise<{ stdout: string }> {
  const quoted = [process.execPath, ...CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = Object.fromEntries([
    ['PATH', process.env.PATH ?? ''],
    ['HOME', process.env.HOME ?? ''],
  ]) as NodeJS.ProcessEnv;
  return promisify(execFile)('sh', ['-c', `${quoted} | (sleep 1; cat)`], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
}

describe('the CLI writing into a pipe', () => {
  it('report -o json arrives whole (well over the 64 KiB pipe buffer) and parses', async () => {
    const { stdout } = await runWithLateReader(['report', '--demo', '-o', 'json']);
    expect(stdout.length).toBeGreaterThan(96 * 1024);
    const report = JSON.parse(stdout);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.issues.length).toBeGreaterThan(0);
  }, 60_000);

  it('keeps the exit code after flushing (can-i answering no exits 1)', async () => {
    const child = promisify(execFile)(process.execPath, [...CLI, 'can-i', 'delete', 'nodes', '--as', 'nobody', '--demo'], { cwd: root });
    await expect(child).rejects.toMatchObject({ code: 1, stdout: 'no\n' });
  }, 60_000);
});
