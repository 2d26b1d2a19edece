import { describeFinding } from '@/lib/analysis/finding-texts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { CHECK_LIST } from '@/lib/analysis/checks/registry';
import { loadDemo } from '@/server/sources/demo-source';
import { buildReport } from './build-report';
import { renderReportSarif } from './render-sarif';

// The official SARIF 2.1.0 schema (rtm.5, the final one, a JSON Schema draft-04 document), as
// Microsoft's SARIF matchers ship it.
const require = createRequire(import.meta.url);
const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;

function validator() {
  // The schema's `language` pattern has a stray "]" that is an error only in unicode mode.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  return ajv.compile(schema);
}

describe('report -o sarif', () => {
  it('validates against the SARIF 2.1.0 schema: one rule per check, one result per finding at its objects', async () => {
    const report = buildReport(await loadDemo());
    const log = JSON.parse(renderReportSarif(report, { toolVersion: '1.2.3' })) as {
      version: string;
      runs: {
        tool: { driver: { rules: { id: string; help: { text: string } }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          locations: { logicalLocations: { fullyQualifiedName: string }[] }[];
          properties: { remediation: string };
          message: { text: string };
        }[];
      }[];
    };
    const validate = validator();
    expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(CHECK_LIST.map((c) => c.id));
    for (const r of run.tool.driver.rules) expect(r.help.text.length).toBeGreaterThan(20);
    expect(run.results).toHaveLength(report.findings.length);
    expect(report.findings.length).toBeGreaterThan(5);
    for (const [i, f] of report.findings.entries()) {
      const result = run.results[i];
      expect(result.ruleId).toBe(f.check);
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(f.check);
      expect(result.properties.remediation).toBe(report.issues.find((i) => i.id === f.issueId)!.remediation);
      expect(result.message.text).toContain(describeFinding(f));
      const names = result.locations.map((l) => l.logicalLocations[0].fullyQualifiedName);
      const refs = f.objects.length > 0 ? f.objects : f.subjects;
      expect(names).toEqual(refs.map((r) => (r.namespace ? `${r.kind}/${r.namespace}/${r.name}` : `${r.kind}/${r.name}`)));
    }
  });

  it('the validator rejects a log that breaks the schema (so the test above can fail)', async () => {
    const report = buildReport(await loadDemo());
    const log = JSON.parse(renderReportSarif(report, { toolVersion: '1.2.3' })) as { runs: { results: { level: string }[] }[] };
    log.runs[0].results[0].level = 'fatal';
    expect(validator()(log)).toBe(false);
  });
});
