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

export function diffIssues(a: Pick<Report, 'issues' | 'findings'>, b: Pick<Report, 'issues' | 'findings'>): IssueChange[] {
  if (!hasIssues(a) || !hasIssues(b)) return [];
  const before = new Map(a.issues.map((i) => [i.id, i]));
  const after = new Map(b.issues.map((i) => [i.id, i]));
  const out: IssueChange[] = [];
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const p = before.get(id);
    const q = after.get(id);
    if (p && q && p.findingIds.length === q.findingIds.length && sameCounts(p.affected, q.affected)) continue;
    const e = (q ?? p) as Issue;
    out.push({
      change: !p ? 'added' : !q ? 'removed' : 'changed',
      id,
      check: e.check,
      severity: e.severity,
      title: e.title,
      findingsBefore: p?.findingIds.length ?? 0,
      findingsAfter: q?.findingIds.length ?? 0,
      affectedBefore: p?.affected ?? {},
      affectedAfter: q?.affected ?? {},
      scoreBefore: p?.risk.score ?? null,
      scoreAfter: q?.risk.score ?? null,
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
