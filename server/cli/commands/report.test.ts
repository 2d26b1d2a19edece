import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
import { reportJsonChunks } from '@/lib/report/report-json';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, countAtOrAbove } from '@/lib/report/build-report';
import { SEVERITIES, type Report } from '@/lib/analysis/types';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { smallCluster } from '@/lib/report/__fixtures__/small-cluster';
import { runCli as run } from '../__fixtures__/run-cli';

// `dra-posture report`: output formats and exit codes (0, 3 with --fail-on, 2 on usage errors).

let dir: string;
let snapshot: string;
let empty: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dra-posture-report-'));
  const { source: _source, warnings: _warnings, ...collections } = smallCluster();
  const items = Object.values(collections).flat();
  snapshot = join(dir, 'cluster.json');
  await writeFile(snapshot, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  empty = join(dir, 'empty.json');
  await writeFile(empty, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'quiet' } }] }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('dra-posture report', () => {
  it('-o json writes the report contract', async () => {
    const r = await run('report', '--snapshot', snapshot, '-o', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as Report;
    expect(report.schemaVersion).toBe(2);
    expect(report.source).toMatchObject({ kind: 'snapshot', name: 'cluster.json' });
    expect(report.nodes.map((n) => n.name)).toEqual(['cp-1', 'gpu-1', 'gpu-2']);
    // The same report the library builds from the same snapshot.
    expect(r.out.trim()).toBe([...reportJsonChunks(buildReport(await loadSnapshot(snapshot)))].join('\n'));
    expect(report.findings.map((f) => f.check)).toEqual(expect.arrayContaining(['ZERO001', 'QUOTA003', 'QUOTA004']));
  });

  it('a snapshot with no API server pod: assumptions marked and warned; stated flags applied as cli', async () => {
    const plain = JSON.parse((await run('report', '--snapshot', snapshot, '-o', 'json')).out) as Report;
    expect(plain.clusterConfig).toMatchObject({
      apiServerPod: null,
      authorizers: { chain: ['Node', 'RBAC'], source: 'assumed' },
      nodeRestriction: { enabled: true, source: 'assumed' },
      featureGates: { ConstrainedImpersonation: { enabled: true, source: 'assumed' } },
    });
    expect(plain.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('No kube-apiserver pod is visible: NodeRestriction admission is assumed on')]),
    );
    const stated = await run(
      'report',
      '--snapshot',
      snapshot,
      '-o',
      'json',
      '--authorizers',
      'RBAC',
      '--node-restriction',
      'off',
      '--feature-gates',
      'ConstrainedImpersonation=false',
      '--feature-gates=DRADeviceTaintRules=true',
    );
    expect(stated.code).toBe(0);
    expect((JSON.parse(stated.out) as Report).clusterConfig).toMatchObject({
      authorizers: { modes: ['RBAC'], chain: ['RBAC'], source: 'cli' },
      nodeRestriction: { enabled: false, source: 'cli' },
      featureGates: { ConstrainedImpersonation: { enabled: false, source: 'cli' }, DRADeviceTaintRules: { enabled: true, source: 'cli' } },
    });
  });

  it('markdown by default', async () => {
    const r = await run('report', '--snapshot', snapshot);
    expect(r.code).toBe(0);
    expect(r.out.startsWith('# DRA posture report\n')).toBe(true);
    expect(r.out).toContain('## Node status writers');
  });

  it('--fail-on: 3 when findings at or above the severity exist, else 0', async () => {
    const expected = buildReport(await loadSnapshot(snapshot));
    // ZERO001 (high) and QUOTA004 (info) fire on this cluster.
    expect((await run('report', '--snapshot', snapshot, '--fail-on', 'high', '-o', 'json')).code).toBe(3);
    expect((await run('report', '--snapshot', snapshot, '--fail-on', 'info')).code).toBe(3);
    for (const sev of SEVERITIES) {
      const r = await run('report', '--snapshot', snapshot, '--fail-on', sev.toUpperCase(), '-o', 'json');
      const n = countAtOrAbove(expected, sev);
      expect(r.code, sev).toBe(n > 0 ? 3 : 0);
      expect(r.err, sev).toBe(n > 0 ? `dra-posture report: ${n} finding(s) at or above ${sev}\n` : '');
    }
    const quiet = await run('report', '--snapshot', empty, '--fail-on', 'info', '-o', 'json');
    expect(quiet.code).toBe(0);
    expect((JSON.parse(quiet.out) as Report).findings).toEqual([]);
  });

  it.each([
    [['--snapshot', 'X', '--fail-on', 'severe'], '--fail-on expects one of critical, high, medium, low, info'],
    [['--snapshot', 'X', '-o', 'yaml'], '-o must be one of markdown, json, html, sarif, junit'],
    [[], 'no cluster given'],
    [['--snapshot', 'X', '--bogus'], 'bogus'],
    [['--snapshot', 'X', 'extra'], 'unexpected arguments: extra'],
    [['--snapshot', 'X', '--authorizers', 'Webhook'], '--authorizers'],
    [['--snapshot', 'X', '--node-restriction', 'yes'], '--node-restriction expects on or off'],
    [['--snapshot', 'X', '--feature-gates', 'A=maybe'], '--feature-gates: invalid value of A: maybe'],
  ])('usage error %j → exit 2', async (args, message) => {
    const argv = args.map((a) => (a === 'X' ? snapshot : a));
    const r = await run('report', ...argv);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toContain(message);
  });

  it('-o html prints the printable report: no scripts, every finding', async () => {
    const r = await run('report', '--demo', '-o', 'html');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^<!doctype html>/i);
    expect(r.out).not.toMatch(/<script/i);
    const json = JSON.parse((await run('report', '--demo', '-o', 'json')).out) as Report;
    for (const f of json.findings.slice(0, 20)) expect(r.out).toContain(f.id);
  });

  it('an unreadable snapshot exits 2', async () => {
    const r = await run('report', '--snapshot', join(dir, 'missing.json'));
    expect(r.code).toBe(2);
  });
});

describe('dra-posture report --demo (demo/EXPECTED.md §3-§5)', () => {
  let report: Report;
  beforeAll(async () => {
    const r = await run('report', '--demo', '-o', 'json');
    expect(r.code).toBe(0);
    report = JSON.parse(r.out) as Report;
  });

  const writersIn = (r: Report, node: string) =>
    writersOfNode(r, node).statusWriters.map((w) => `${w.mode} ${w.scope} ${w.subject.namespace ? `${w.subject.namespace}/` : ''}${w.subject.name}`);

  it('says the configuration it applied: the API server pod’s flags (no NodeRestriction), gates by v1.36.3', () => {
    expect(report.clusterConfig).toEqual({
      apiServerPod: 'kube-system/kube-apiserver-cp-01',
      authorizers: { modes: ['Node', 'RBAC'], chain: ['Node', 'RBAC'], source: 'api-server' },
      nodeRestriction: { enabled: false, source: 'api-server' },
      featureGates: {
        ConstrainedImpersonation: { enabled: true, source: 'version-default' },
        DRAAdminAccess: { enabled: true, source: 'version-default' },
        DRADeviceTaintRules: { enabled: false, source: 'version-default' },
        DRADeviceTaints: { enabled: true, source: 'version-default' },
        DRAResourceClaimGranularStatusAuthorization: { enabled: true, source: 'version-default' },
      },
    });
  });

  it('without NodeRestriction: every kubelet, and the constrained reporter through the node it impersonates, writes every node', () => {
    const all = report.allNodes.statusWriters.map((w) => `${w.mode} ${w.scope} ${w.subject.namespace ? `${w.subject.namespace}/` : ''}${w.subject.name}`);
    expect(all).toEqual(
      expect.arrayContaining(['node-authorizer all-nodes system:nodes', 'constrained-impersonation all-nodes kube-system/gpu-driver-reporter']),
    );
    expect(writersIn(report, 'cp-01')).not.toContain('node-authorizer own-node system:node:cp-01');
  });

  it('with --node-restriction on: constrained reporter only where its pods run; named writer only on its node', async () => {
    const r = await run('report', '--demo', '--node-restriction', 'on', '-o', 'json');
    const restricted = JSON.parse(r.out) as Report;
    expect(restricted.clusterConfig?.nodeRestriction).toEqual({ enabled: true, source: 'cli' });
    const withReporter = restricted.nodes.filter((n) => n.statusWriters.some((w) => w.subject.name === 'gpu-driver-reporter')).map((n) => n.name);
    expect(withReporter).toEqual(['gpu-a100-01', 'gpu-h100-01', 'gpu-h100-02']);
    expect(writersIn(restricted, 'gpu-dev-01')).toContain('rbac named nrr-system/dev-node-probe');
    expect(writersIn(restricted, 'cp-01').some((w) => w.includes('dev-node-probe'))).toBe(false);
    expect(writersIn(restricted, 'cp-01')).toEqual(
      expect.arrayContaining([
        'node-authorizer own-node system:node:cp-01',
        'rbac all-nodes kube-system/intel-reporter',
        'impersonation all-nodes support-engineers',
      ]),
    );
  });

  it('claim status writers: the example driver by associated-node on gpu-dev-01 only', () => {
    const assoc = report.nodes.flatMap((n) =>
      writersOfNode(report, n.name)
        .claimStatusWriters.filter((w) => w.mode === 'associated-node')
        .map((w) => `${n.name} ${w.driver} ${w.subject.name}`),
    );
    expect(assoc).toEqual(['gpu-dev-01 gpu.example.com dra-example-driver-service-account']);
  });

  it('quotas: the disagreeing tenant-a count and the nearly full tenant-b Intel quota', () => {
    const row = (ns: string, resource: string) => report.quotas.find((q) => q.namespace === ns && q.resource === resource);
    expect(row('tenant-a', 'count/resourceclaims.resource.k8s.io')).toMatchObject({ hard: '8', used: '5', computedUsed: '6' });
    expect(row('tenant-b', 'gpu.intel.com.deviceclass.resource.k8s.io/devices')).toMatchObject({ hard: '36', used: '34', computedUsed: '34' });
    expect(report.findings.filter((f) => f.check === 'QUOTA003').map((f) => f.objects[0].name)).toEqual(['tenant-b-dra']);
  });

  it('device classes and zeroing', () => {
    expect(report.deviceClasses.filter((d) => d.zeroing === 'configured').map((d) => d.name)).toEqual(['gpu.intel.com', 'h100-isolated.nvidia.com']);
    expect(report.findings.filter((f) => f.check === 'ZERO001').map((f) => f.objects[0].name)).toEqual(['gpu.nvidia.com']);
    expect(report.findings.filter((f) => f.check === 'ZERO002').map((f) => f.objects[0].name)).toEqual([
      'gpu.example.com',
      'gpu.nvidia.com',
      'mig.nvidia.com',
      'tenant-b-shared',
      'vfio.gpu.nvidia.com',
    ]);
  });
});
