import { describe, expect, it } from 'vitest';
import { buildReport } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { parseBundleReport } from './bundle-report';

describe('parseBundleReport', () => {
  it('accepts a report as the CLI prints it, unchanged', async () => {
    const report = JSON.parse(JSON.stringify(buildReport(await loadDemo())));
    expect(parseBundleReport(report)).toBe(report);
  });

  it('reads a version 1 report (findings with their own title, message and remediation)', async () => {
    const report = JSON.parse(JSON.stringify(buildReport(await loadDemo())));
    const v1 = { ...report, schemaVersion: 1, findings: report.findings.map((f: object) => ({ ...f, title: 't', message: 'm', remediation: 'r' })) };
    expect(parseBundleReport(v1).findings).toHaveLength(report.findings.length);
  });

  it('names what is wrong with anything else', () => {
    expect(() => parseBundleReport([])).toThrow('report.json is not an object');
    expect(() => parseBundleReport({ schemaVersion: 3 })).toThrow('report.json has schemaVersion 3, expected 1 or 2');
    expect(() => parseBundleReport({ schemaVersion: 1, findings: [], nodes: [], quotas: [], deviceClasses: [] })).toThrow('report.json has no warnings list');
    expect(() => parseBundleReport({ schemaVersion: 1, findings: [], nodes: [], quotas: [], deviceClasses: [], warnings: [] })).toThrow(
      /no allNodes writer lists/,
    );
  });
});
