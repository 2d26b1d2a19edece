import { describe, expect, it } from 'vitest';
import type { NodeStatusWriter, Report } from '@/lib/analysis/types';
import { buildReportWithContext } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { SAMPLE_REPORT } from './__fixtures__/sample-report';
import { actsAsOf, groupNodeWriters, GROUP_PAGE_SIZE, impersonationTarget, KUBELET_ROW, pageOfGroup } from './node-writer-groups';

const sa = (namespace: string, name: string) => ({ kind: 'ServiceAccount' as const, namespace, name });
const w = (subject: NodeStatusWriter['subject'], mode: NodeStatusWriter['mode'], scope: NodeStatusWriter['scope']): NodeStatusWriter => ({
  subject,
  mode,
  scope,
  via: [],
});

describe('groupNodeWriters', () => {
  it('puts each identity in the group of its broadest way, kubelets folded into one row that counts each', () => {
    const g = groupNodeWriters(SAMPLE_REPORT);
    expect(g.groups.map((x) => `${x.key}:${x.identities}`)).toEqual([
      'impersonation/all-nodes:1',
      'rbac/all-nodes:1',
      'constrained-impersonation/own-node:1',
      'node-authorizer/own-node:2',
    ]);
    const kubelets = g.groups.at(-1)!.rows;
    expect(kubelets).toHaveLength(1);
    expect(kubelets[0]).toMatchObject({ key: KUBELET_ROW, identities: 2, nodeCount: 2, nodes: ['gpu-1', 'gpu-2'] });
    expect(g.identities).toBe(5);
    expect(g.groups.find((x) => x.key === 'rbac/all-nodes')!.rows[0]).toMatchObject({ everyNode: true, nodeCount: 2, nodes: [] });
  });

  it('an identity writing in several ways is counted once, under its broadest, with its other ways on its row', () => {
    const report: Pick<Report, 'allNodes' | 'nodes'> = {
      allNodes: { statusWriters: [w(sa('ops', 'probe'), 'impersonation', 'all-nodes')], claimStatusWriters: [] },
      nodes: ['a', 'b', 'c'].map((name) => ({
        name,
        statusWriters: name === 'c' ? [] : [w(sa('ops', 'probe'), 'rbac', 'named'), w(sa('ops', 'reporter'), 'rbac', 'named')],
        claimDrivers: [],
        claimStatusWriters: [],
      })),
    };
    const g = groupNodeWriters(report);
    expect(g.identities).toBe(2);
    expect(g.groups.map((x) => `${x.key}:${x.identities}`)).toEqual(['impersonation/all-nodes:1', 'rbac/some-nodes:1']);
    const probe = g.groups[0].rows[0];
    expect(probe.ways.map((x) => `${x.mode}/${x.scope}`)).toEqual(['impersonation/all-nodes', 'rbac/named']);
    expect(probe).toMatchObject({ everyNode: true, nodeCount: 3 });
    expect(g.groups[1].rows[0]).toMatchObject({ label: 'ServiceAccount ops/reporter', nodeCount: 2, nodes: ['a', 'b'] });
  });

  it('pages a long group and filters it by name', () => {
    const writers = Array.from({ length: 45 }, (_, i) => w(sa(`ns-${i}`, 'writer'), 'rbac', 'all-nodes'));
    const g = groupNodeWriters({ allNodes: { statusWriters: writers, claimStatusWriters: [] }, nodes: [] }, 10_000).groups[0];
    expect(g.identities).toBe(45);
    const first = pageOfGroup(g);
    expect(first).toMatchObject({ total: 45, offset: 0 });
    expect(first.rows).toHaveLength(GROUP_PAGE_SIZE);
    expect(pageOfGroup(g, { offset: 40 }).rows.map((r) => r.label)).toHaveLength(5);
    const filtered = pageOfGroup(g, { q: 'NS-4' });
    expect(filtered.rows.map((r) => r.label).sort()).toEqual(['ns-4', 'ns-40', 'ns-41', 'ns-42', 'ns-43', 'ns-44'].map((n) => `ServiceAccount ${n}/writer`));
    expect(filtered.rows.every((r) => r.nodeCount === 10_000)).toBe(true);
  });
});

describe('whom an impersonator acts as', () => {
  it("reads the analysis' own notes: the demo's support engineers (impersonate users, groups, service accounts) act as a kubelet", async () => {
    const { report } = buildReportWithContext(await loadDemo());
    const support = report.allNodes.statusWriters.find((x) => x.subject.name === 'support-engineers' && x.mode === 'impersonation')!;
    const target = impersonationTarget(support.via);
    expect(target).toMatch(/^any node identity/);
    expect(actsAsOf(target)).toBe('a kubelet');
    // Every impersonating writer of the demo has a target the page can name.
    const impersonating = [...report.allNodes.statusWriters, ...report.nodes.flatMap((n) => n.statusWriters)].filter((x) => x.mode === 'impersonation');
    expect(impersonating.length).toBeGreaterThan(0);
    for (const x of impersonating) expect(impersonationTarget(x.via)).toBeTruthy();
  });

  it('a service account impersonated is "a status writer", not a kubelet', () => {
    const target = impersonationTarget([
      { type: 'note', text: "impersonates ServiceAccount ops/admin, which writes every node's status (legacy impersonation)" },
    ]);
    expect(target).toBe("ServiceAccount ops/admin, which writes every node's status");
    expect(actsAsOf(target)).toBe('a status writer');
    expect(actsAsOf('a member of system:masters')).toBe('system:masters');
    expect(impersonationTarget([{ type: 'note', text: 'Node authorizer: the kubelet identity system:node:a may update/patch nodes/status' }])).toBeUndefined();
  });
});
