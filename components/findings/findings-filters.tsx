'use client';

import { useMemo } from 'react';
import { SEVERITIES, type Severity } from '@/lib/analysis/types';
import type { FindingFacets, FindingFilters, FindingSort } from '@/lib/view/findings-view';
import { cn } from '@/components/ui/cn';
import { SearchableFilter } from '@/components/ui/searchable-filter';
import { SEVERITY_LABEL, SeverityDot } from '@/components/ui/severity';
import { NamespaceFilter } from './namespace-filter';

const SORT_LABEL: Record<FindingSort, string> = { severity: 'Severity', check: 'Check', subject: 'Subject', namespace: 'Namespace' };

const SUBJECT = { one: 'subject', many: 'subjects' };
const FINDING = { one: 'finding', many: 'findings' };

const selectClass = 'w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm focus:border-teal-600';

export function FindingsFilters({
  filters,
  facets,
  counts,
  onChange,
}: {
  filters: FindingFilters;
  facets: FindingFacets;
  counts: Record<Severity, number>;
  onChange: (next: FindingFilters) => void;
}) {
  const subjectOptions = useMemo(() => facets.subjects.map((s) => ({ value: s.key, label: s.label, count: s.count })), [facets.subjects]);
  const toggleSeverity = (s: Severity) =>
    onChange({ ...filters, severity: filters.severity.includes(s) ? filters.severity.filter((x) => x !== s) : [...filters.severity, s] });
  return (
    <form role="search" aria-label="Filter findings" className="space-y-4" onSubmit={(e) => e.preventDefault()}>
      {filters.issue && (
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          Showing the findings of issue <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">{filters.issue}</code>
          <button
            type="button"
            onClick={() => onChange({ ...filters, issue: '' })}
            className="rounded-full border border-slate-300 px-2.5 py-0.5 text-xs font-medium text-slate-700 hover:border-slate-400"
          >
            Show every issue
          </button>
        </p>
      )}
      <fieldset>
        <legend className="mb-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">Severity</legend>
        <div className="flex flex-wrap gap-2">
          {SEVERITIES.map((s) => {
            const on = filters.severity.includes(s);
            return (
              <button
                key={s}
                type="button"
                aria-pressed={on}
                onClick={() => toggleSeverity(s)}
                className={cn(
                  'inline-flex items-center gap-2 rounded-full border px-3 py-1 text-sm font-medium transition',
                  on ? 'border-slate-800 bg-slate-800 text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400',
                )}
              >
                <SeverityDot severity={s} />
                {SEVERITY_LABEL[s]}
                <span className={cn('tabular-nums', on ? 'text-slate-300' : 'text-slate-500')}>{counts[s]}</span>
              </button>
            );
          })}
        </div>
      </fieldset>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <div className="block lg:col-span-1">
          <label htmlFor="filter-check" className="mb-1 block text-xs font-medium text-slate-600">
            Check
          </label>
          <select
            id="filter-check"
            className={selectClass}
            value={filters.check[0] ?? ''}
            onChange={(e) => onChange({ ...filters, check: e.target.value ? [e.target.value] : [] })}
          >
            <option value="">All checks</option>
            {facets.checks.map((c) => (
              <option key={c.check} value={c.check}>
                {c.check} ({c.count})
              </option>
            ))}
          </select>
        </div>
        <div className="block">
          <label htmlFor="filter-namespace" className="mb-1 block text-xs font-medium text-slate-600">
            Namespace
          </label>
          <NamespaceFilter
            value={filters.namespace}
            namespaces={facets.namespaces}
            className={selectClass}
            onChange={(namespace) => onChange({ ...filters, namespace })}
          />
        </div>
        <div className="block">
          <label htmlFor="filter-subject" className="mb-1 block text-xs font-medium text-slate-600">
            Subject
          </label>
          <SearchableFilter
            id="filter-subject"
            value={filters.subject}
            options={subjectOptions}
            className={selectClass}
            onChange={(subject) => onChange({ ...filters, subject })}
            noun={SUBJECT}
            unit={FINDING}
          />
        </div>
        <div className="block">
          <label htmlFor="filter-text" className="mb-1 block text-xs font-medium text-slate-600">
            Text
          </label>
          <input
            id="filter-text"
            type="search"
            className={selectClass}
            placeholder="title, message, name…"
            value={filters.q}
            onChange={(e) => onChange({ ...filters, q: e.target.value })}
          />
        </div>
        <div className="block">
          <label htmlFor="filter-sort-by" className="mb-1 block text-xs font-medium text-slate-600">
            Sort by
          </label>
          <select
            id="filter-sort-by"
            className={selectClass}
            value={filters.sort}
            onChange={(e) => onChange({ ...filters, sort: e.target.value as FindingSort })}
          >
            {(Object.keys(SORT_LABEL) as FindingSort[]).map((k) => (
              <option key={k} value={k}>
                {SORT_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </form>
  );
}
