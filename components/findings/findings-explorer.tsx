'use client';

import { useQuery } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { DEFAULT_FILTERS, findingFiltersToQuery, parseFindingFilters, type FindingFilters } from '@/lib/view/findings-view';
import { findingsQuery } from '@/components/query/queries';
import { ErrorPanel } from '@/components/ui/error-panel';
import { EmptyState, Panel } from '@/components/ui/panel';
import { Pager } from '@/components/ui/pager';
import { PageSkeleton } from '@/components/ui/skeleton';
import { FindingsFilters } from './findings-filters';
import { FindingsTable } from './findings-table';
import { IssueGroups } from './issue-groups';

function queryOf(f: FindingFilters): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(findingFiltersToQuery(f))) if (v) sp.set(k, v);
  return sp.toString();
}

/** The findings list: filters live in the URL query, so a filtered view can be shared. */
const n = (x: number) => x.toLocaleString('en-US');

export function FindingsExplorer() {
  const params = useSearchParams();
  const pathname = usePathname();
  const fromUrl = useMemo(() => parseFindingFilters(params), [params]);
  // Local state renders at once; the URL follows. URL changes we caused are skipped when they
  // arrive, so quick successive edits are never undone; other changes (back/forward) are adopted.
  const [filters, setFilters] = useState(fromUrl);
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const key = queryOf(fromUrl);
    const i = pending.current.indexOf(key);
    if (i >= 0) pending.current.splice(0, i + 1);
    else if (pending.current.length === 0) setFilters(fromUrl);
  }, [fromUrl]);
  // The server filters and sorts, and sends one page of rows (a large cluster has tens of thousands).
  const { data, error, refetch, isPending, isFetching } = useQuery(findingsQuery(filters));

  // Any change but a page turn starts again at the first page (page 7 of one filter is not page 7 of another).
  const update = (changed: FindingFilters) => {
    const turn = changed.page !== filters.page;
    const next = turn ? changed : { ...changed, page: 1 };
    setFilters(next);
    const qs = queryOf(next);
    pending.current.push(qs);
    // Native history (synced with useSearchParams by Next): no server re-render of the page. A page
    // turn is a step Back returns from; typing in a filter is not one step per key.
    const url = qs ? `${pathname}?${qs}` : pathname;
    if (turn) window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  };

  if (isPending) return <PageSkeleton label="Loading findings" />;
  if (error) return <ErrorPanel title="Findings could not be loaded" message={error.message} onRetry={() => refetch()} />;

  const { findings: shown, matched, total, facets, counts, issues, issuesMatched, page, pages, offset } = data;
  const filtered = matched !== total;
  const grouped = filters.group === 'issue';
  const viewButton = (group: FindingFilters['group'], label: string) => (
    <button
      type="button"
      aria-pressed={filters.group === group}
      onClick={() => update({ ...filters, group })}
      className={
        filters.group === group
          ? 'rounded-md bg-slate-800 px-3 py-1 text-sm font-medium text-white'
          : 'rounded-md px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100'
      }
    >
      {label}
    </button>
  );
  return (
    <div className="space-y-4">
      <Panel>
        <FindingsFilters filters={filters} facets={facets} counts={counts} onChange={update} />
      </Panel>
      <Panel
        id="findings-list"
        title={
          <span role="status" aria-live="polite">
            {filtered ? `${n(matched)} of ${n(total)} findings` : `${n(total)} findings`}
            {grouped && ` in ${n(issuesMatched)} issue${issuesMatched === 1 ? '' : 's'}`}
            {grouped && issuesMatched > issues.length && ` · the ${n(issues.length)} highest-risk issues shown`}
            {!grouped && pages > 1 && ` · ${n(offset + 1)}–${n(offset + shown.length)} shown, page ${n(page)} of ${n(pages)}`}
          </span>
        }
        actions={
          <span className="flex items-center gap-3">
            <span role="group" aria-label="View" className="flex gap-1">
              {viewButton('none', 'All findings')}
              {viewButton('issue', 'By issue')}
            </span>
            {filtered && (
              <button
                type="button"
                onClick={() => update({ ...DEFAULT_FILTERS, group: filters.group })}
                className="text-sm font-medium text-teal-800 hover:underline"
              >
                Clear filters
              </button>
            )}
          </span>
        }
        bodyClassName="p-0"
      >
        <div aria-busy={isFetching} className={isFetching ? 'opacity-70 transition-opacity' : undefined}>
          {shown.length && grouped ? (
            <IssueGroups issues={issues} filters={filters} />
          ) : shown.length ? (
            <>
              <FindingsTable findings={shown} />
              <Pager
                label="Pages of findings"
                page={page}
                pages={pages}
                offset={offset}
                shown={shown.length}
                matched={matched}
                onPage={(p) => {
                  update({ ...filters, page: p });
                  document.getElementById('findings-list')?.scrollIntoView({ block: 'start' });
                }}
              />
            </>
          ) : (
            <div className="p-5">
              <EmptyState title="No finding matches these filters">Clear a filter to see more.</EmptyState>
            </div>
          )}
        </div>
      </Panel>
    </div>
  );
}
