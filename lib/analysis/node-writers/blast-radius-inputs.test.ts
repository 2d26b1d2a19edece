import { describe, expect, it } from 'vitest';
import { buildReportWithContext } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { computeBlastRadius } from './blast-radius';
import { ClaimWriterAnalysis } from './claim-status-writers';

// The dashboard computes blast radii from the report's writer lists and one shared claim analysis;
// that must give what a fresh computation gives, for every node.

describe('blast radius from the report', () => {
  it('equals a fresh computation on every demo node', async () => {
    const { report, context } = buildReportWithContext(await loadDemo());
    const inputs = {
      statusWriters: { allNodes: report.allNodes.statusWriters, byNode: new Map(report.nodes.map((n) => [n.name, n.statusWriters])) },
      claimAnalysis: new ClaimWriterAnalysis(context),
    };
    let reaching = 0;
    for (const node of report.nodes) {
      const shared = computeBlastRadius(context, node.name, inputs);
      expect(shared).toEqual(computeBlastRadius(context, node.name));
      if (shared.identities.some((i) => i.statusNodes.length > 1 || i.claims.length > 0)) reaching++;
    }
    expect(reaching).toBeGreaterThan(2);
  });
});
