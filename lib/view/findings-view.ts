import { SEVERITIES, type Finding, type Severity } from '@/lib/analysis/types';
import { compareStrings, describeSubject, refKey, refName } from '@/lib/k8s/refs';
import { describeFinding, findingTitle } from '@/lib/analysis/finding-texts';

// Filtering and sorting of the findings list, with the state kept in the URL query.

export const SORT_KEYS = ['severity', 'check', 'subject', 'namespace'] as const;
export type FindingSort = (typeof SORT_KEYS)[number];

export interface FindingFilters {
  severity: Severity[];
  check: string[];
  namespace: string;
  subject: string;
  /** Only the findings of one issue (Report.issues[].id). */
  issue: string;
  q: string;
  sort: FindingSort;
  /** Group the list by issue (`?group=issue`). */
  group: 'none' | 'issue';
  /** The page of the ungrouped list (1-based, `?page=`): a large cluster has tens of thousands of findings. */
  page: number;
}

export const DEFAULT_FILTERS: FindingFilters = {
  severity: [],
  check: [],
  namespace: '',
  subject: '',
  issue: '',
  q: '',
  sort: 'severity',
  group: 'none',
  page: 1,
};

type Params = { get(name: string): string | null; getAll(name: string): string[] };

function list(params: Params, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Unknown values are dropped (the URL is user input). */
export function parseFindingFilters(params: Params): FindingFilters {
  const sort = params.get('sort') ?? '';
  return {
    severity: list(params, 'severity').filter((s): s is Severity => (SEVERITIES as readonly string[]).includes(s)),
    check: list(params, 'check').filter((c) => /^[A-Z]+[0-9]{3}$/.test(c)),
    namespace: (params.get('namespace') ?? '').slice(0, 253),
    subject: (params.get('subject') ?? '').slice(0, 512),
    issue: /^[0-9a-f]{16}$/.test(params.get('issue') ?? '') ? params.get('issue')! : '',
    q: (params.get('q') ?? '').slice(0, 200),
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as FindingSort) : 'severity',
    group: params.get('group') === 'issue' ? 'issue' : 'none',
    page: pageNumber(params.get('page')),
  };
}

/** Page numbers beyond any list's last page are clamped when the page is made; junk is page 1. */
const MAX_PAGE = 1_000_000;
function pageNumber(raw: string | null): number {
  if (!raw || !/^[0-9]{1,7}$/.test(raw)) return 1;
  return Math.min(MAX_PAGE, Math.max(1, Number(raw)));
}

export function findingFiltersToQuery(f: FindingFilters): Record<string, string | undefined> {
  return {
    severity: f.severity.length ? f.severity.join(',') : undefined,
    check: f.check.length ? f.check.join(',') : undefined,
    namespace: f.namespace || undefined,
    subject: f.subject || undefined,
    issue: f.issue || undefined,
    q: f.q || undefined,
    sort: f.sort === 'severity' ? undefined : f.sort,
    group: f.group === 'issue' ? 'issue' : undefined,
    page: f.page > 1 ? String(f.page) : undefined,
  };
}

/** Namespaces a finding is about: its subjects' and objects' namespaces, sorted, unique. */
export function findingNamespaces(f: Pick<Finding, 'subjects' | 'objects'>): string[] {
  const out = new Set<string>();
  for (const s of f.subjects) if (s.namespace) out.add(s.namespace);
  for (const o of f.objects) {
    if (o.namespace) out.add(o.namespace);
    else if (o.kind === 'Namespace') out.add(o.name);
  }
  return [...out].sort(compareStrings);
}

export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

export function filterFindings(findings: readonly Finding[], f: FindingFilters): Finding[] {
  const q = f.q.toLowerCase();
  const out = findings.filter((x) => {
    if (f.severity.length && !f.severity.includes(x.severity)) return false;
    if (f.check.length && !f.check.includes(x.check)) return false;
    if (f.namespace && !findingNamespaces(x).includes(f.namespace)) return false;
    if (f.subject && !x.subjects.some((s) => refKey(s) === f.subject)) return false;
    if (f.issue && x.issueId !== f.issue) return false;
    if (q) {
      const hay = [findingTitle(x), x.check, describeFinding(x), ...x.subjects.map(describeSubject), ...x.objects.map((o) => `${o.kind} ${refName(o)}`)]
        .join('\n')
        .toLowerCase();
      if (!hay.includes(q)) return false;
    }
    return true;
  });
  return sortFindings(out, f.sort);
}

export function sortFindings(findings: Finding[], sort: FindingSort): Finding[] {
  const firstSubject = (x: Finding) => (x.subjects[0] ? describeSubject(x.subjects[0]) : x.objects[0] ? `${x.objects[0].kind} ${refName(x.objects[0])}` : '');
  const firstNs = (x: Finding) => findingNamespaces(x)[0] ?? '\uffff';
  const bySeverity = (a: Finding, b: Finding) => severityRank(a.severity) - severityRank(b.severity);
  const byCheck = (a: Finding, b: Finding) => compareStrings(a.check, b.check);
  const tie = (a: Finding, b: Finding) => compareStrings(firstSubject(a), firstSubject(b)) || compareStrings(a.id, b.id);
  const comparators: Record<FindingSort, (a: Finding, b: Finding) => number> = {
    severity: (a, b) => bySeverity(a, b) || byCheck(a, b) || tie(a, b),
    check: (a, b) => byCheck(a, b) || bySeverity(a, b) || tie(a, b),
    subject: (a, b) => compareStrings(firstSubject(a), firstSubject(b)) || bySeverity(a, b) || compareStrings(a.id, b.id),
    namespace: (a, b) => compareStrings(firstNs(a), firstNs(b)) || bySeverity(a, b) || tie(a, b),
  };
  return [...findings].sort(comparators[sort]);
}

export interface FindingFacets {
  checks: { check: string; count: number; severity: Severity }[];
  namespaces: { namespace: string; count: number }[];
  subjects: { key: string; label: string; count: number }[];
}

/** The values the filter controls offer, with counts over all findings. */
export function findingFacets(findings: readonly Finding[]): FindingFacets {
  const checks = new Map<string, { check: string; count: number; severity: Severity }>();
  const namespaces = new Map<string, number>();
  const subjects = new Map<string, { key: string; label: string; count: number }>();
  for (const f of findings) {
    const c = checks.get(f.check) ?? { check: f.check, count: 0, severity: f.severity };
    c.count++;
    if (severityRank(f.severity) < severityRank(c.severity)) c.severity = f.severity;
    checks.set(f.check, c);
    for (const ns of findingNamespaces(f)) namespaces.set(ns, (namespaces.get(ns) ?? 0) + 1);
    const seen = new Set<string>();
    for (const s of f.subjects) {
      const key = refKey(s);
      if (seen.has(key)) continue;
      seen.add(key);
      const e = subjects.get(key) ?? { key, label: describeSubject(s), count: 0 };
      e.count++;
      subjects.set(key, e);
    }
  }
  return {
    checks: [...checks.values()].sort((a, b) => compareStrings(a.check, b.check)),
    namespaces: [...namespaces].map(([namespace, count]) => ({ namespace, count })).sort((a, b) => compareStrings(a.namespace, b.namespace)),
    subjects: [...subjects.values()].sort((a, b) => compareStrings(a.label, b.label)),
  };
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const out = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of findings) out[f.severity]++;
  return out;
}
