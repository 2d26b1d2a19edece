'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { IssueGroup } from '@/lib/view/findings-page';
import type { FindingFilters } from '@/lib/view/findings-view';
import { findingsQuery } from '@/components/query/queries';
import { ErrorPanel } from '@/components/ui/error-panel';
import { Pager } from '@/components/ui/pager';
import { SeverityBadge } from '@/components/ui/severity';
import { FindingsTable } from './findings-table';

/** Findings grouped by issue, highest risk first; an issue's findings are fetched when it is opened. */
export function IssueGroups({ issues, filters }: { issues: IssueGroup[]; filters: FindingFilters }) {
  return (
    <ol className="divide-y divide-slate-100" aria-label="Issues">
      {issues.map((issue) => (
        <IssueRow key={issue.id} issue={issue} filters={filters} />
      ))}
    </ol>
  );
}

function IssueRow({ issue, filters }: { issue: IssueGroup; filters: FindingFilters }) {
  const [open, setOpen] = useState(false);
  const partial = issue.matched !== issue.findings;
  return (
    <li data-issue={issue.id}>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-slate-50"
      >
        <span aria-hidden="true" className="mt-0.5 w-3 shrink-0 text-slate-400">
          {open ? '▾' : '▸'}
        </span>
        <SeverityBadge severity={issue.severity} className="mt-0.5 shrink-0" />
        <span className="min-w-0 flex-1">
          <span className="block text-sm font-medium text-slate-900">
            <span className="font-mono text-slate-600">{issue.check}</span> {issue.title}
          </span>
          <span className="mt-0.5 block text-xs text-slate-600">{issue.risk.reasons.join('; ') || 'no reach beyond its own objects'}</span>
        </span>
        <span className="shrink-0 text-right text-xs text-slate-500">
          <span className="block">
            risk <span className="font-semibold text-slate-800">{issue.risk.score}</span>
          </span>
          <span className="block">
            {partial ? `${issue.matched.toLocaleString('en-US')} of ${issue.findings.toLocaleString('en-US')}` : issue.findings.toLocaleString('en-US')} finding
            {issue.findings === 1 ? '' : 's'}
          </span>
        </span>
      </button>
      {open && <IssueFindings issueId={issue.id} filters={filters} />}
    </li>
  );
}

function IssueFindings({ issueId, filters }: { issueId: string; filters: FindingFilters }) {
  // The same filters, narrowed to this issue: the server sends one page of its rows.
  const [page, setPage] = useState(1);
  const { data, error, refetch, isPending } = useQuery(findingsQuery({ ...filters, issue: issueId, group: 'none', page }));
  if (isPending) return <p className="px-11 pb-3 text-sm text-slate-500">Loading findings…</p>;
  if (error) return <ErrorPanel title="The findings of this issue could not be loaded" message={error.message} onRetry={() => refetch()} />;
  return (
    <div className="border-t border-slate-100 bg-slate-50/50 pb-2">
      <FindingsTable findings={data.findings} />
      <Pager
        label="Pages of this issue's findings"
        page={data.page}
        pages={data.pages}
        offset={data.offset}
        shown={data.findings.length}
        matched={data.matched}
        onPage={setPage}
      />
    </div>
  );
}
