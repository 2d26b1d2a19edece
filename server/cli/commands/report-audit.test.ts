import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { auditEvent, jsonLines } from '@/lib/audit/__fixtures__/events';
import type { Report } from '@/lib/analysis/types';
import { runCli as run } from '../__fixtures__/run-cli';

// `report --audit PATH` on the demo cluster with a folder of logs (plain JSON lines with a bad line,
// a gzip-rotated part, an EventList), and `audit-policy`.

const PLUGIN = 'system:serviceaccount:gpu-operator:dra-driver-nvidia-gpu-service-account-kubeletplugin';
const PLUGIN_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:gpu-operator', 'system:authenticated'];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dra-posture-audit-cli-'));
  const plain =
    jsonLines([
      auditEvent({
        verb: 'update',
        user: PLUGIN,
        groups: PLUGIN_GROUPS,
        node: 'gpu-h100-01',
        namespace: 'tenant-a',
        name: 'c1',
        subresource: 'driver',
        decision: 'forbid',
        reason: 'no RBAC policy matched',
        time: '2026-11-20T10:00:00Z',
      }),
    ]) +
    '{"kind":"Event","verb":\n' +
    jsonLines([
      auditEvent({ verb: 'get', user: PLUGIN, groups: PLUGIN_GROUPS, node: 'gpu-h100-01', namespace: 'tenant-a', name: 'c1', time: '2026-11-20T10:05:00Z' }),
    ]);
  await writeFile(join(dir, 'audit.log'), plain);
  await writeFile(
    join(dir, 'audit-2026-11-19.log.gz'),
    gzipSync(jsonLines([auditEvent({ verb: 'update', user: 'mallory', resource: 'deviceclasses', name: 'gpu.nvidia.com', time: '2026-11-19T09:00:00Z' })])),
  );
  await writeFile(
    join(dir, 'list.json'),
    JSON.stringify(
      {
        kind: 'EventList',
        apiVersion: 'audit.k8s.io/v1',
        items: [auditEvent({ verb: 'list', user: 'alice', namespace: 'tenant-a', time: '2026-11-21T00:00:00Z' })],
      },
      null,
      2,
    ),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('report --audit', () => {
  it('adds AUDIT findings and the activity section; a malformed line is reported, not fatal', async () => {
    const { code, out, err } = await run('report', '--demo', '--audit', dir, '-o', 'json');
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out) as Report;
    const a = report.activity!;
    expect(a.events).toBe(4);
    expect(a.window).toEqual({ first: '2026-11-19T09:00:00.000Z', last: '2026-11-21T00:00:00.000Z' });
    expect(a.malformed.count).toBe(1);
    expect(a.malformed.samples[0]).toMatchObject({ file: join(dir, 'audit.log'), line: 2 });
    expect(a.files.map((f) => [f.path.slice(dir.length + 1), f.compressed, f.events])).toEqual([
      ['audit-2026-11-19.log.gz', true, 1],
      ['audit.log', false, 2],
      ['list.json', false, 1],
    ]);
    const checks = report.findings.filter((f) => f.check.startsWith('AUDIT')).map((f) => f.check);
    expect(checks.sort()).toEqual(['AUDIT003', 'AUDIT004']);
    // Every finding, the audit ones included, belongs to an issue of the report.
    const issueIds = new Set(report.issues.map((i) => i.id));
    for (const f of report.findings) expect(issueIds.has(f.issueId)).toBe(true);
    expect(report.issues.some((i) => i.check === 'AUDIT004')).toBe(true);
    expect(report.summary.high + report.summary.medium).toBeGreaterThanOrEqual(2);
    // The plugin's grants: read of claims used, driver writes it holds but never made successfully.
    const plugin = a.unusedGrants.find((g) => g.identity === PLUGIN)!;
    expect(plugin.used).toBeGreaterThan(0);
    expect(plugin.unused.some((u) => u.draRelevant)).toBe(true);
  });

  it('prints the activity in Markdown and fails cleanly on a missing path', async () => {
    const md = await run('report', '--demo', '--audit', dir);
    expect(md.out).toContain('## Activity (audit log)');
    expect(md.out).toMatch(/audit\.log line 2/);
    const missing = await run('report', '--demo', '--audit', join(dir, 'nope'));
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/audit log not found/);
  });
});

describe('audit-policy', () => {
  it('prints a Policy with tenant namespaces at RequestResponse', async () => {
    const { code, out } = await run('audit-policy', '--tenant-namespace', 'tenant-a');
    expect(code).toBe(0);
    const policy = parse(out) as { kind: string; rules: { level: string; namespaces?: string[] }[] };
    expect(policy.kind).toBe('Policy');
    expect(policy.rules[0]).toMatchObject({ level: 'RequestResponse', namespaces: ['tenant-a'] });
    expect((await run('audit-policy', '--tenant-namespace', 'Bad_NS')).code).toBe(2);
  });
});

describe('audit-policy --check', () => {
  it('passes its own policy and names what a narrower one misses', async () => {
    // Not in the audit folder the report tests read.
    const pdir = await mkdtemp(join(dir, '..', 'dra-posture-policy-'));
    const own = join(pdir, 'own-policy.yaml');
    await writeFile(own, (await run('audit-policy')).out);
    expect((await run('audit-policy', '--check', own)).code).toBe(0);
    const narrow = join(pdir, 'narrow.yaml');
    await writeFile(
      narrow,
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  verbs: [create]\n  resources: [{group: resource.k8s.io, resources: [resourceclaims]}]\n',
    );
    const r = await run('audit-policy', '--check', narrow);
    expect(r.code).toBe(1);
    expect(r.out).toContain('update resource.k8s.io/resourceclaims/status');
    const bad = join(pdir, 'bad.yaml');
    await writeFile(bad, 'kind: Policy\nrules:\n- level: Loud\n');
    const b = await run('audit-policy', '--check', bad);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/rules\.0\.level/);
    await rm(pdir, { recursive: true, force: true });
  });
});

describe('build-role --from-audit', () => {
  const log = join(import.meta.dirname, '..', '..', '..', 'e2e', 'fixtures', 'audit', 'integration-audit.log');

  it('builds the observed role of the plugin from the log captured on the real API server', async () => {
    const r = await run(
      'build-role',
      '--from-audit',
      log,
      '--service-account',
      'dra-example-driver/dra-example-driver-service-account',
      '--demo',
      '-o',
      'json',
    );
    expect(r.code).toBe(0);
    const review = JSON.parse(r.out) as { yaml: string; validation: { intended: { ok: boolean }[] } };
    expect(review.yaml).toContain('associated-node:update');
    expect(review.yaml).toContain('gpu.example.com');
    expect(review.yaml).toContain('kind: Role\n');
    expect(review.validation.intended.every((o) => o.ok)).toBe(true);
    expect(r.err).toContain('successful requests of system:serviceaccount:dra-example-driver:dra-example-driver-service-account');
  });

  it('refuses an identity the log never saw, and mixing with --rule', async () => {
    const none = await run('build-role', '--from-audit', log, '--user', 'nobody');
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no successful request of nobody/);
    expect((await run('build-role', '--from-audit', log, '--user', 'admin', '--rule', 'get pods')).code).toBe(2);
  });
});

describe('export --audit', () => {
  it('puts the activity and the AUDIT findings into a bundle that verifies', async () => {
    const out = join(dir, '..', `dra-posture-audit-bundle-${process.pid}.tar`);
    try {
      const e = await run('export', '--demo', '--audit', join(dir, 'audit.log'), '--out', out);
      expect(e.code).toBe(0);
      expect((await run('verify', out)).code).toBe(0);
      const { openBundle } = await import('@/server/sources/bundle-source');
      const { report } = openBundle(new Uint8Array(await readFile(out)), out);
      expect(report.activity?.events).toBe(2);
      expect(report.findings.some((f) => f.check === 'AUDIT004')).toBe(true);
    } finally {
      await rm(out, { force: true });
    }
  });
});
