import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildReport } from '@/lib/report/build-report';
import { loadDemo } from './demo-source';

// The demo's report, reviewed by hand finding by finding against demo/EXPECTED.md. Any change to
// the engine, the checks or the demo that changes a finding shows up here; after reviewing the
// difference, regenerate with UPDATE_GOLDEN=1.
const GOLDEN = join(import.meta.dirname, '..', '..', 'demo', 'golden', 'demo-report.json');

describe('demo report golden file', () => {
  it('equals the reviewed golden report', async () => {
    const report = JSON.parse(JSON.stringify(buildReport(await loadDemo())));
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(report, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8'));
    expect(report.summary).toEqual(golden.summary);
    expect(report.findings.map((f: { check: string; id: string }) => `${f.check} ${f.id}`)).toEqual(
      golden.findings.map((f: { check: string; id: string }) => `${f.check} ${f.id}`),
    );
    expect(report).toEqual(golden);
  });
});
