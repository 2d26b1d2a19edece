import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
import { describe, expect, it } from 'vitest';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReport, countAtOrAbove } from './build-report';
import { renderReportMarkdown } from './render-markdown';
import { reportJsonChunks } from './report-json';
import { smallCluster } from './__fixtures__/small-cluster';

// DESIGN §5: the report contract, deterministic.

/** Deterministic Fisher-Yates with a small LCG, so a failure reproduces. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function shuffleState(state: ClusterState, seed: number): ClusterState {
  const out = { ...state } as ClusterState;
  for (const [key, value] of Object.entries(state)) {
    if (Array.isArray(value)) (out as unknown as Record<string, unknown>)[key] = shuffled(value, seed + key.length);
  }
  return out;
}

describe('buildReport', () => {
  const report = buildReport(smallCluster());

  it('fills the contract: schema, source, summary matching the findings, sorted nodes', () => {
    expect(report.schemaVersion).toBe(2);
    expect(report.source).toEqual({ kind: 'snapshot', name: 'small-cluster', collectedAt: '2026-08-01T00:00:00Z', kubernetesVersion: 'v1.36.1' });
    const counted = { critical: 0, high: 0, medium: 0, low: 0, info: 0 };
    for (const f of report.findings) counted[f.severity]++;
    expect(report.summary).toEqual(counted);
    expect(report.nodes.map((n) => n.name)).toEqual(['cp-1', 'gpu-1', 'gpu-2']);
    expect(report.warnings).toContain('Secrets are never read');
  });

  it('node writers per node: reporter on its own node only, broad reporter everywhere', () => {
    const writers = (n: string) => writersOfNode(report, n).statusWriters.map((w) => `${w.mode} ${w.scope} ${w.subject.name}`);
    expect(writers('gpu-1')).toEqual([
      'node-authorizer own-node system:node:gpu-1',
      'constrained-impersonation own-node reporter',
      'rbac all-nodes system:masters',
      'rbac all-nodes intel-reporter',
    ]);
    expect(writers('cp-1')).toEqual(['node-authorizer own-node system:node:cp-1', 'rbac all-nodes system:masters', 'rbac all-nodes intel-reporter']);
    const claims = writersOfNode(report, 'gpu-1').claimStatusWriters.map((w) => `${w.driver} ${w.mode} ${w.subject.kind}/${w.subject.name}`);
    expect(claims).toEqual([
      'gpu.example.com associated-node ServiceAccount/plugin',
      'gpu.example.com arbitrary-node Group/gpu-ops',
      'gpu.example.com arbitrary-node Group/system:masters',
    ]);
  });

  it('writers of every node are listed once, not on each node', () => {
    expect(report.allNodes.statusWriters.map((w) => `${w.mode} ${w.subject.name}`)).toEqual(['rbac system:masters', 'rbac intel-reporter']);
    expect(report.allNodes.claimStatusWriters.map((w) => `${w.driver} ${w.subject.name}`)).toEqual([
      'gpu.example.com gpu-ops',
      'gpu.example.com system:masters',
    ]);
    for (const n of report.nodes) expect(n.statusWriters.filter((w) => w.scope === 'all-nodes')).toEqual([]);
    expect(report.nodes.find((x) => x.name === 'gpu-1')!.claimDrivers).toEqual(['gpu.example.com']);
    expect(report.nodes.find((x) => x.name === 'gpu-1')!.claimStatusWriters.map((w) => w.subject.name)).toEqual(['plugin']);
  });

  it('quotas and device classes', () => {
    expect(report.quotas).toEqual([
      { namespace: 'tenant-a', name: 'dra', resource: 'count/resourceclaims.resource.k8s.io', hard: '2', used: '2', computedUsed: '2' },
      { namespace: 'tenant-a', name: 'dra', resource: 'gpu.example.com.deviceclass.resource.k8s.io/devices', hard: '40', used: '30', computedUsed: '33' },
    ]);
    expect(report.deviceClasses).toEqual([
      { name: 'gpu.example.com', driver: 'gpu.example.com', zeroing: 'missing', usedByNamespaces: ['tenant-a', 'tenant-b'] },
      { name: 'isolated|gpu', driver: 'gpu.example.com', zeroing: 'configured', usedByNamespaces: [] },
    ]);
  });

  it('runs the quota and zeroing checks', () => {
    const checks = new Set(report.findings.map((f) => f.check));
    for (const id of ['QUOTA001', 'QUOTA002', 'QUOTA003', 'QUOTA004', 'ZERO001', 'ZERO002']) expect(checks, id).toContain(id);
    expect(report.findings.filter((f) => f.check === 'QUOTA001').map((f) => f.objects[0].name)).toEqual(['tenant-b']);
  });

  it('is deterministic: building twice, and from shuffled input, gives identical JSON', () => {
    const json = JSON.stringify(report);
    expect(JSON.stringify(buildReport(smallCluster()))).toBe(json);
    for (const seed of [1, 7, 42]) expect(JSON.stringify(buildReport(shuffleState(smallCluster(), seed)))).toBe(json);
  });

  it('countAtOrAbove adds up the severities from critical down', () => {
    const s = { summary: { critical: 1, high: 2, medium: 3, low: 4, info: 5 } };
    expect(countAtOrAbove(s, 'critical')).toBe(1);
    expect(countAtOrAbove(s, 'medium')).toBe(6);
    expect(countAtOrAbove(s, 'info')).toBe(15);
  });
});

describe('reportJsonChunks', () => {
  it('joined with newlines, the pieces are the report, one top-level list item per line', () => {
    const report = buildReport(smallCluster());
    expect(report.findings.length).toBeGreaterThan(2);
    const text = [...reportJsonChunks(report)].join('\n');
    expect(JSON.parse(text)).toEqual(report);
    const lines = text.split('\n');
    for (const f of report.findings) expect(lines).toContain(`    ${JSON.stringify(f)},`.slice(0, f === report.findings.at(-1) ? -1 : undefined));
    // Everything else is pretty-printed as before.
    expect(lines.slice(0, 3)).toEqual(['{', '  "schemaVersion": 2,', '  "source": {']);
    const empty = { ...report, issues: [], attackPaths: [], findings: [], nodes: [], quotas: [], deviceClasses: [], warnings: [] };
    expect([...reportJsonChunks(empty)].join('\n')).toBe(JSON.stringify(empty, null, 2));
  });

  it('splits a large report into many pieces', () => {
    const report = buildReport(smallCluster());
    const big = { ...report, nodes: Array.from({ length: 2000 }, (_, i) => ({ ...report.nodes[1], name: `n-${i}` })) };
    const chunks = [...reportJsonChunks(big)];
    expect(chunks.length).toBeGreaterThan(5);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(1 << 20);
    expect(JSON.parse(chunks.join('\n'))).toEqual(big);
  });
});

describe('renderReportMarkdown', () => {
  const report = buildReport(smallCluster());
  const md = renderReportMarkdown(report);

  it('has the summary table, findings by severity, nodes, quotas and device classes', () => {
    expect(md.startsWith('# DRA posture report\n\nSource: snapshot small-cluster · Kubernetes v1.36.1 · collected 2026-08-01T00:00:00Z\n')).toBe(true);
    expect(md).toContain(`| Critical | ${report.summary.critical} |`);
    expect(md).toContain('## Node status writers');
    expect(md).toContain(
      'Every node:\n\n| Subject | Mode |\n|---|---|\n| Group system:masters | rbac |\n| ServiceAccount kube-system/intel-reporter | rbac |\n',
    );
    expect(md).toContain('| cp-1 | User system:node:cp-1 (node-authorizer) | – |');
    expect(md).toContain('| gpu-1 | User system:node:gpu-1 (node-authorizer)<br>ServiceAccount kube-system/reporter (constrained-impersonation) |');
    expect(md).toContain('| tenant-a | dra | gpu.example.com.deviceclass.resource.k8s.io/devices | 40 | 30 | 33 ⚠ |');
    expect(md).toMatch(/### \d+\. ZERO001: DeviceClass shared by tenants without zeroing/);
    expect(md).toMatch(/#### Finding [0-9a-f]{16}\n\n- \*\*Objects:\*\* DeviceClass gpu.example.com/);
    const headings = md.split('\n').filter((l) => l.startsWith('### '));
    expect(headings).toEqual(headings.slice().sort((a, b) => order(a) - order(b)));
  });

  it('escapes | and backticks in names', () => {
    expect(md).toContain('| isolated\\|gpu | gpu.example.com | configured | – |');
    const weird = {
      ...report,
      findings: [],
      nodes: [],
      quotas: [],
      deviceClasses: [{ name: 'a`b|c', driver: null, zeroing: 'unknown' as const, usedByNamespaces: [] }],
      warnings: [],
    };
    expect(renderReportMarkdown(weird)).toContain('| a\\`b\\|c | – | unknown | – |');
  });
});

function order(heading: string): number {
  return ['Critical', 'High', 'Medium', 'Low', 'Info'].findIndex((s) => heading.startsWith(`### ${s}`));
}
