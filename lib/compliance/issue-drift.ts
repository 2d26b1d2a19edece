import type { Issue, Report, Severity } from '@/lib/analysis/types';
import { SEVERITIES } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';

// Issues that appeared, vanished, or grew or shrank between two reports (by stable issue ID): "QUOTA001
// went from 3 to 300 namespaces" is the change an auditor asks about, not 297 new findings.

export interface IssueChange {
  change: 'added' | 'removed' | 'changed';
  id: string;
  check: string;
  severity: Severity;
  title: string;
  findingsBefore: number;
  findingsAfter: number;
  affectedBefore: Record<string, number>;
  affectedAfter: Record<string, number>;
  scoreBefore: number | null;
  scoreAfter: number | null;
}

const sameCounts = (a: Record<string, number>, b: Record<string, number>) => JSON.stringify(a) === JSON.stringify(b);

/** A report with findings but no issues was made before issues existed: its issues cannot be compared. */
export function hasIssues(report: Pick<Report, 'issues' | 'findings'>): boolean {
  return report.issues.length > 0 || report.findings.length === 0;
}

/** What drift compares of an issue (kept with a stored snapshot instead of the whole issue). */
export interface IssueDigest {
  id: string;
  check: string;
  severity: Severity;
  title: string;
  findings: number;
  affected: Record<string, number>;
  score: number;
}

/** A report's issues as drift compares them; null when the report predates issues. */
export function issueDigests(report: Pick<Report, 'issues' | 'findings'>): IssueDigest[] | null {
  if (!hasIssues(report)) return null;
  return report.issues.map((i: Issue) => ({
    id: i.id,
    check: i.check,
    severity: i.severity,
    title: i.title,
    findings: i.findingIds.length,
    affected: i.affected,
    score: i.risk.score,
  }));
}

export function diffIssues(a: Pick<Report, 'issues' | 'findings'>, b: Pick<Report, 'issues' | 'findings'>): IssueChange[] {
  return diffIssueDigests(issueDigests(a), issueDigests(b));
}

export function diffIssueDigests(a: readonly IssueDigest[] | null, b: readonly IssueDigest[] | null): IssueChange[] {
  if (!a || !b) return [];
  const before = new Map(a.map((i) => [i.id, i]));
  const after = new Map(b.map((i) => [i.id, i]));
  const out: IssueChange[] = [];
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const p = before.get(id);
    const q = after.get(id);
    if (p && q && p.findings === q.findings && sameCounts(p.affected, q.affected)) continue;
    const e = (q ?? p)!;
    out.push({
      change: !p ? 'added' : !q ? 'removed' : 'changed',
      id,
      check: e.check,
      severity: e.severity,
      title: e.title,
      findingsBefore: p?.findings ?? 0,
      findingsAfter: q?.findings ?? 0,
      affectedBefore: p?.affected ?? {},
      affectedAfter: q?.affected ?? {},
      scoreBefore: p?.score ?? null,
      scoreAfter: q?.score ?? null,
    });
  }
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return out.sort((x, y) => rank(x.severity) - rank(y.severity) || compareStrings(x.check, y.check) || compareStrings(x.id, y.id));
}

/** "3 → 300 Namespace" for each kind whose count changed. */
export function affectedChangeText(c: IssueChange): string {
  const kinds = [...new Set([...Object.keys(c.affectedBefore), ...Object.keys(c.affectedAfter)])].sort(compareStrings);
  const parts = kinds.filter((k) => c.affectedBefore[k] !== c.affectedAfter[k]).map((k) => `${c.affectedBefore[k] ?? 0} → ${c.affectedAfter[k] ?? 0} ${k}`);
  return [`${c.findingsBefore} → ${c.findingsAfter} findings`, ...parts].join(', ');
}
