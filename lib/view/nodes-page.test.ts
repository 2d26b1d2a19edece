import { describe, expect, it } from 'vitest';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
import { refKey } from '@/lib/k8s/refs';
import { buildReportWithContext } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { summarizeBlastRadius } from './node-blast-summary';
import { buildNodeView, NODE_GROUP_ROWS } from './nodes-page';

describe('one node as the Nodes page shows it', () => {
  it("groups every writer of the node's status once, and keeps the blast radius' counts while listing a few names", async () => {
    const { report, context } = buildReportWithContext(await loadDemo());
    const node = report.nodes.find((n) => n.name === 'gpu-h100-01')!;
    const radius = computeBlastRadius(context, node.name, report);
    const view = buildNodeView(report, node, report.nodes.length, radius);
    const writers = new Set(writersOfNode(report, node).statusWriters.map((w) => refKey(w.subject)));
    expect(view.statusWriters.identities).toBe(writers.size);
    expect(view.statusWriters.groups.every((g) => g.rows.length <= NODE_GROUP_ROWS)).toBe(true);
    // The demo runs without NodeRestriction: the kubelets' group writes every node.
    expect(view.statusWriters.groups.find((g) => g.key === 'node-authorizer/all-nodes')?.rows[0].subject).toEqual({ kind: 'Group', name: 'system:nodes' });
    expect(view.claimWriters.map((d) => d.driver)).toContain('gpu.nvidia.com');

    const small = summarizeBlastRadius(radius, 1);
    expect(small.claimCount).toBe(radius.claims.length);
    expect(small.otherNodeCount).toBe(radius.otherNodes.length);
    expect(small.otherNodes.length).toBeLessThanOrEqual(1);
    for (const [i, id] of small.identities.entries()) {
      expect(id.statusNodeCount).toBe(radius.identities[i].statusNodes.length);
      expect(id.claimCount).toBe(radius.identities[i].claims.length);
      expect(id.claimsByDriver.reduce((n, d) => n + d.count, 0)).toBe(id.claimCount);
      expect(id.claims.length).toBeLessThanOrEqual(1);
    }
  });
});
