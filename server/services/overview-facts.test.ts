import { describe, expect, it } from 'vitest';
import { buildReport } from '@/lib/report/build-report';
import { smallCluster } from '@/lib/report/__fixtures__/small-cluster';
import { overviewFacts } from '@/lib/view/overview';
import { cachedOverviewFacts } from './overview-facts';

describe('cachedOverviewFacts', () => {
  it('computes the facts once per report, and again for a new analysis', () => {
    const report = buildReport(smallCluster());
    const first = cachedOverviewFacts(report);
    expect(first).toEqual(overviewFacts(report));
    expect(cachedOverviewFacts(report)).toBe(first);
    const next = buildReport(smallCluster());
    expect(cachedOverviewFacts(next)).not.toBe(first);
  });
});
