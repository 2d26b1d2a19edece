import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { mergeSettings } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { buildReportWithContext } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { computeBlastRadius } from './blast-radius';
import { listNodeWriters } from './node-writers';

// The dashboard computes blast radii from the report's writer lists and the context's claim-writer
// analysis (the one the report used); that must give what a separate, fresh analysis gives.

describe('blast radius from the report', () => {
  it('equals a computation on a fresh context, for every demo node, and reuses the claim analysis of the report', async () => {
    const state = await loadDemo();
    const { report, context } = buildReportWithContext(state);
    const used = context.claimWriters;
    const fresh = buildAnalysisContext(state, createAuthzEngine(state), mergeSettings(undefined));
    const freshWriters = listNodeWriters(fresh);
    let reaching = 0;
    for (const node of report.nodes) {
      const shared = computeBlastRadius(context, node.name, report);
      expect(shared).toEqual(computeBlastRadius(fresh, node.name, freshWriters));
      if (shared.identities.some((i) => i.statusNodes.length > 1 || i.claims.length > 0)) reaching++;
    }
    expect(reaching).toBeGreaterThan(2);
    expect(context.claimWriters).toBe(used);
  });
});
