import { describeRef } from '@/lib/k8s/refs';
import { catalogList } from '@/lib/analysis/catalog';
import { escapeHtml } from './render-html';
import { SEVERITIES, type Finding, type Report, type Severity } from '@/lib/analysis/types';
import { describeFinding } from '@/lib/analysis/finding-texts';

// Numeric character references are XML too; XML 1.0 has no way to write these control characters.
function xml(text: string): string {
  return escapeHtml(text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd'));
}

function junitLine(f: Finding, fixes: ReadonlyMap<string, string>): string {
  const about = [...f.objects, ...f.subjects].map(describeRef).join(', ');
  return `[${f.severity}] ${describeFinding(f)}${about ? `\n  objects: ${about}` : ''}\n  remediation: ${fixes.get(f.issueId) ?? ''}`;
}

/**
 * The report as JUnit XML for pipelines that show test results: one test case per check; a check
 * fails with its findings (only those at or above `failOn`, when given; the others are listed as output).
 */
export function renderReportJunit(report: Report, options: { failOn?: Severity } = {}): string {
  const rank = options.failOn ? SEVERITIES.indexOf(options.failOn) : SEVERITIES.length - 1;
  const fixes = new Map(report.issues.map((i) => [i.id, i.remediation]));
  const line = (f: Finding) => junitLine(f, fixes);
  const byCheck = new Map<string, Finding[]>();
  for (const f of report.findings) {
    // Appended in place: copying the list for each finding was quadratic (minutes at 300,000 findings).
    const list = byCheck.get(f.check);
    if (list) list.push(f);
    else byCheck.set(f.check, [f]);
  }
  const cases: string[] = [];
  let failures = 0;
  for (const c of catalogList()) {
    const findings = byCheck.get(c.id) ?? [];
    const failing = findings.filter((f) => SEVERITIES.indexOf(f.severity) <= rank);
    const passing = findings.filter((f) => SEVERITIES.indexOf(f.severity) > rank);
    let body = '';
    if (failing.length > 0) {
      failures++;
      body += `\n      <failure message="${xml(`${failing.length} finding(s): ${c.title}`)}" type="${c.severity}">${xml(failing.map(line).join('\n'))}</failure>`;
    }
    if (passing.length > 0) body += `\n      <system-out>${xml(passing.map(line).join('\n'))}</system-out>`;
    cases.push(`    <testcase classname="dra-posture.${xml(c.id)}" name="${xml(`${c.id}: ${c.title}`)}" time="0">${body}${body ? '\n    ' : ''}</testcase>`);
  }
  const name = `dra-posture ${report.source.kind} ${report.source.name}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" time="0">`,
    `  <testsuite name="${xml(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0" time="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
