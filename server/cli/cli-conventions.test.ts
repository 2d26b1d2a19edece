import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from './__fixtures__/run-cli';
import { COMMAND_HELP } from './command-help';
import { COMMAND_NAMES } from './command-names';

const COMMANDS = [...COMMAND_NAMES];

describe('CLI conventions', () => {
  it.each(COMMANDS)('%s --help prints usage and examples, exit 0', async (command) => {
    const r = await runCli(command, '--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`dra-posture ${command}`);
    expect(r.out).toContain('Examples:');
    expect(r.err).toBe('');
  });

  it('has help for exactly the commands there are', () => {
    expect(Object.keys(COMMAND_HELP).sort()).toEqual([...COMMANDS].sort());
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
    expect((await runCli('--version')).out.trim()).toBe(`dra-posture ${version}`);
  });

  it('completion bash is a script bash accepts; completion fish is a usage error', async () => {
    const r = await runCli('completion', 'bash');
    expect(r.code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'dra-completion-'));
    writeFileSync(join(dir, 'c.sh'), r.out);
    // Loading it defines the function and registers it for both names.
    const out = execFileSync('bash', ['-c', `source ${join(dir, 'c.sh')} && complete -p dra-posture kubectl-dra_posture`], { encoding: 'utf8' });
    expect(out).toContain('-F _dra_posture dra-posture');
    expect(out).toContain('kubectl-dra_posture');
    expect((await runCli('completion', 'fish')).code).toBe(2);
  });
});

describe('who-can --batch', () => {
  const questions = ['create resourceslices', 'update resourceclaims -n tenant-a --subresource status', 'get nodes', 'get pods -A', 'get /healthz'];

  it('answers each question as the single command does, in one load (json and yaml alike)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dra-batch-'));
    const file = join(dir, 'q.txt');
    writeFileSync(file, `# questions\n${questions.join('\n')}\n\n`);
    const batch = await runCli('who-can', '--batch', file, '--demo', '-o', 'json');
    expect(batch.code).toBe(0);
    const answers = JSON.parse(batch.out) as unknown[];
    expect(answers).toHaveLength(questions.length);
    for (const [i, q] of questions.entries()) {
      const single = await runCli('who-can', ...q.split(' '), '--demo', '-o', 'json');
      expect(answers[i], q).toEqual(JSON.parse(single.out));
    }
    const yaml = await runCli('who-can', '--batch', file, '--demo', '-o', 'yaml');
    expect(parse(yaml.out)).toEqual(answers);
  });

  it('reads SubjectAccessReview-style attributes as JSON too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dra-batch-'));
    const file = join(dir, 'q.json');
    writeFileSync(file, JSON.stringify([{ resourceAttributes: { verb: 'create', group: 'resource.k8s.io', resource: 'resourceslices' } }]));
    const fromJson = JSON.parse((await runCli('who-can', '--batch', file, '--demo', '-o', 'json')).out) as unknown[];
    const single = JSON.parse((await runCli('who-can', 'create', 'resourceslices', '--demo', '-o', 'json')).out) as unknown;
    expect(fromJson).toEqual([single]);
  });

  it('names the line of a bad question, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dra-batch-'));
    const file = join(dir, 'q.txt');
    writeFileSync(file, 'get pods\nget pods --bogus\n');
    const r = await runCli('who-can', '--batch', file, '--demo');
    expect(r.code).toBe(2);
    expect(r.err).toContain('q.txt: line 2');
    const bad = join(dir, 'q.json');
    writeFileSync(bad, '[{"resourceAttributes":{"verb":3}}]');
    const j = await runCli('who-can', '--batch', bad, '--demo');
    expect(j.code).toBe(2);
    expect(j.err).toContain('question 0: resourceAttributes.verb');
  });

  it('-o wide lists each binding, role and rule', async () => {
    const r = await runCli('who-can', 'create', 'resourceslices', '--demo', '-o', 'wide');
    expect(r.out.split('\n')[0]).toMatch(/^KIND\s+NAMESPACE\s+NAME\s+BINDING\s+ROLE\s+RULE\s+VIA$/);
    expect(r.out).toMatch(/ClusterRoleBinding\/cluster-admin\s+ClusterRole\/cluster-admin\s+#\d+/);
  });
});
