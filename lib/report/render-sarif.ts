import { describeRef } from '@/lib/k8s/refs';
import { catalogList } from '@/lib/analysis/catalog';
import type { Finding, Report, Severity } from '@/lib/analysis/types';
import { describeFinding, findingTitle } from '@/lib/analysis/finding-texts';

const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { critical: 'error', high: 'error', medium: 'warning', low: 'note', info: 'note' };
// GitHub code scanning ranks security results by this number (0-10), as CVSS bands.
const SECURITY_SEVERITY: Record<Severity, string> = { critical: '9.5', high: '8.0', medium: '5.5', low: '3.0', info: '1.0' };

function objectName(ref: { kind: string; name: string; namespace?: string }): string {
  return ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}

function resultFor(f: Finding, ruleIndex: number, remediation: string) {
  // The objects a finding is about, or else its subjects: Kubernetes objects have no file and line,
  // so they are logical locations named KIND/NAMESPACE/NAME.
  const refs = f.objects.length > 0 ? f.objects : f.subjects;
  return {
    ruleId: f.check,
    ruleIndex,
    level: LEVEL[f.severity],
    message: { text: `${findingTitle(f)}: ${describeFinding(f)}` },
    locations: refs.map((r) => ({
      logicalLocations: [{ name: r.name, fullyQualifiedName: objectName(r), kind: 'resource', decoratedName: describeRef(r) }],
    })),
    partialFingerprints: { 'draPostureFindingId/v1': f.id },
    properties: {
      severity: f.severity,
      'security-severity': SECURITY_SEVERITY[f.severity],
      remediation,
      issueId: f.issueId,
      subjects: f.subjects.map(objectName),
    },
  };
}

// Where the results go in the log's text: a string no catalog entry holds (the tool's rules come
// before the results; the cluster's names only after them, in the run's properties).
const RESULTS_MARK = '\u0000dra-posture-results';
/** Each result's indentation in the pretty-printed log (log → runs → run → results). */
const RESULT_INDENT = ' '.repeat(8);

/**
 * The report as a SARIF 2.1.0 log for code-scanning upload: one rule per check (title, description,
 * severity), one result per finding, located at the Kubernetes objects it is about. In pieces that
 * end at line ends: the whole log of a large cluster (300,000 findings) is longer than the longest
 * string the engine builds. Concatenated, they are `JSON.stringify(log, null, 2)`.
 */
export function* renderReportSarifChunks(report: Report, options: { toolVersion: string }): Generator<string> {
  const checks = catalogList();
  const index = new Map(checks.map((c, i) => [c.id, i]));
  const fixes = new Map(report.issues.map((i) => [i.id, i.remediation]));
  const rules = checks.map((c) => ({
    id: c.id,
    name: c.id.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase()),
    shortDescription: { text: c.title },
    fullDescription: { text: c.description },
    help: {
      text: `${c.description}\nFix: ${c.remediation}\nEach result names the objects involved and how to remediate them.`,
      markdown: `**${c.title}** (severity ${c.severity})\n\n${c.description}\n\n**Fix:** ${c.remediation}\n\nEach result names the objects involved and how to remediate them.`,
    },
    defaultConfiguration: { level: LEVEL[c.severity] },
    properties: { tags: ['security', 'kubernetes', 'dra'], precision: 'high', 'security-severity': SECURITY_SEVERITY[c.severity] },
  }));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'dra-posture', version: options.toolVersion, rules } },
        results: report.findings.length > 0 ? [RESULTS_MARK] : [],
        properties: { source: report.source, summary: report.summary, warnings: report.warnings },
      },
    ],
  };
  const text = JSON.stringify(log, null, 2);
  if (report.findings.length === 0) {
    yield text;
    return;
  }
  const mark = `${RESULT_INDENT}${JSON.stringify(RESULTS_MARK)}`;
  const at = text.indexOf(mark);
  yield text.slice(0, at);
  let buffer = '';
  const last = report.findings.length - 1;
  for (const [i, f] of report.findings.entries()) {
    const result = JSON.stringify(resultFor(f, index.get(f.check) ?? -1, fixes.get(f.issueId) ?? ''), null, 2);
    buffer += `${RESULT_INDENT}${result.replace(/\n/g, `\n${RESULT_INDENT}`)}${i < last ? ',\n' : ''}`;
    if (buffer.length >= 1 << 16 && i < last) {
      yield buffer;
      buffer = '';
    }
  }
  yield `${buffer}${text.slice(at + mark.length)}`;
}

/** The whole SARIF log as one string (small reports; large ones go out with renderReportSarifChunks). */
export function renderReportSarif(report: Report, options: { toolVersion: string }): string {
  let text = '';
  for (const chunk of renderReportSarifChunks(report, options)) text += chunk;
  return text;
}
