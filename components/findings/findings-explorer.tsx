'use client';

import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { countBySeverity, DEFAULT_FILTERS, filterFindings, findingFacets, findingFiltersToQuery, parseFindingFilters, type FindingFilters } from '@/lib/view/findings-view';
import { reportQuery } from '@/components/query/queries';
import { ErrorPanel } from '@/components/ui/error-panel';
import { EmptyState, Panel } from '@/components/ui/panel';
import { PageSkeleton } from '@/components/ui/skeleton';
import { FindingsFilters } from './findings-filters';
import { FindingsTable } from './findings-table';

function queryOf(f: FindingFilters): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(findingFiltersToQuery(f))) if (v) sp.set(k, v);
  return sp.toString();
}

/** The findings list: filters live in the URL query, so a filtered view can be shared. */
export function FindingsExplorer() {
  const { data: report, error, refetch, isPending } = useQuery(reportQuery());
  const params = useSearchParams();
  const router = useRouter();
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
  const all = useMemo(() => report?.findings ?? [], [report]);
  const facets = useMemo(() => findingFacets(all), [all]);
  const counts = useMemo(() => countBySeverity(all), [all]);
  const shown = useMemo(() => filterFindings(all, filters), [all, filters]);

  const update = (next: FindingFilters) => {
    setFilters(next);
    const qs = queryOf(next);
    pending.current.push(qs);
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };

  if (isPending) return <PageSkeleton label="Loading findings" />;
  if (error) return <ErrorPanel title="Findings could not be loaded" message={error.message} onRetry={() => refetch()} />;

  const filtered = shown.length !== all.length;
  return (
    <div className="space-y-4">
      <Panel>
        <FindingsFilters filters={filters} facets={facets} counts={counts} onChange={update} />
      </Panel>
      <Panel
        id="findings-list"
        title={
          <span role="status" aria-live="polite">
            {filtered ? `${shown.length} of ${all.length} findings` : `${all.length} findings`}
          </span>
        }
        actions={
          filtered ? (
            <button type="button" onClick={() => update(DEFAULT_FILTERS)} className="text-sm font-medium text-teal-800 hover:underline">
              Clear filters
            </button>
          ) : undefined
        }
        bodyClassName="p-0"
      >
        {shown.length ? (
          <FindingsTable findings={shown} />
        ) : (
          <div className="p-5">
            <EmptyState title="No finding matches these filters">Clear a filter to see more.</EmptyState>
          </div>
        )}
      </Panel>
    </div>
  );
}
