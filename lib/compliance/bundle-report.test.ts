import { describe, expect, it } from 'vitest';
import { buildReport } from '@/lib/report/build-report';
import { smallCluster } from '@/lib/report/__fixtures__/small-cluster';
import type { Report } from '@/lib/report/types';
import { compactReport, expandReport, type BundleReport } from './bundle-report';

describe('bundle report.json', () => {
  it('writes a writer shared by several nodes once and expands back to the same report', () => {
    const report = buildReport(smallCluster());
    const compact = compactReport(report);
    expect(compact.sharedStatusWriters.length).toBeGreaterThan(0);
    const roundTrip = expandReport(JSON.parse(JSON.stringify(compact)) as BundleReport);
    expect(JSON.stringify(roundTrip, null, 2)).toBe(JSON.stringify(report, null, 2));
  });

  it('finds equal writers that are separate objects, and keeps writers that differ in key order apart', () => {
    const report = buildReport(smallCluster());
    const copied: Report = JSON.parse(JSON.stringify(report));
    const compact = compactReport(copied);
    expect(compact.sharedStatusWriters.length).toBe(compactReport(report).sharedStatusWriters.length);
    expect(JSON.stringify(expandReport(compact))).toBe(JSON.stringify(report));
    // Same content, other key order on one node: not merged, so the bytes come back as they were.
    const reordered: Report = JSON.parse(JSON.stringify(report));
    const w = reordered.nodes[0].statusWriters[0];
    reordered.nodes[0].statusWriters[0] = { via: w.via, scope: w.scope, mode: w.mode, subject: w.subject };
    expect(JSON.stringify(expandReport(JSON.parse(JSON.stringify(compactReport(reordered)))))).toBe(JSON.stringify(reordered));
  });

  it('names a reference to a writer that does not exist', () => {
    const compact = compactReport(buildReport(smallCluster()));
    compact.nodes[0].statusWriters = [99];
    expect(() => expandReport(compact)).toThrow(/node .* refers to shared writer 99, which does not exist/);
  });
});
