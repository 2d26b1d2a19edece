import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { describeEvidence } from '@/lib/analysis/evidence';
import { describeFinding, findingTitle } from '@/lib/analysis/finding-texts';
import type { Finding, Report } from '@/lib/analysis/types';

// Findings as CSV (RFC 4180, CRLF line ends) for spreadsheets. Names come from the cluster, so a
// cell a spreadsheet would run as a formula (starting with = + - @, or a tab or CR that some
// programs strip first) gets a leading apostrophe.

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvCell(text: string): string {
  const safe = neutraliseCell(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

// `message` describes the finding from its refs and evidence; `remediation` is its issue's one fix.
export const FINDINGS_CSV_COLUMNS = ['id', 'check', 'severity', 'title', 'subjects', 'objects', 'message', 'evidence', 'remediation', 'issue'] as const;

export function findingCsvRow(f: Finding, remediation: string): string {
  const cells = [
    f.id,
    f.check,
    f.severity,
    findingTitle(f),
    f.subjects.map(describeSubject).join('; '),
    f.objects.map(describeRef).join('; '),
    describeFinding(f),
    f.evidence.map(describeEvidence).join('\n'),
    remediation,
    f.issueId,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The CSV in pieces of about `chunkChars` characters (large reports have tens of thousands of rows). */
export function* findingsCsvChunks(report: Pick<Report, 'findings' | 'issues'>, chunkChars = 1 << 20): Generator<string> {
  const fixes = new Map(report.issues.map((i) => [i.id, i.remediation]));
  let buffer = `${FINDINGS_CSV_COLUMNS.join(',')}\r\n`;
  for (const f of report.findings) {
    buffer += findingCsvRow(f, fixes.get(f.issueId) ?? '');
    if (buffer.length >= chunkChars) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer) yield buffer;
}
