'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { GraphSearchHit } from '@/lib/graph/types';
import { graphSearchQuery } from '@/components/query/queries';
import { KindLabel } from '@/components/ui/refs';
import { formatCount } from '@/lib/analysis/issues/count-text';

/** Find an identity, binding, role or resource by name and focus the graph on it. */
export function GraphSearch({ onPick }: { onPick: (hit: GraphSearchHit) => void }) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setQuery(text.trim()), 200);
    return () => clearTimeout(t);
  }, [text]);
  const { data, isFetching } = useQuery(graphSearchQuery(query));
  const hits = query ? (data?.hits ?? []) : [];
  return (
    <div className="relative w-full max-w-md">
      <label htmlFor="graph-search" className="mb-1 block text-xs font-medium text-slate-600">
        Focus on an identity, binding, role or resource
      </label>
      <input
        id="graph-search"
        type="search"
        autoComplete="off"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. batch-scheduler, gpu-ops, resourceslices"
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm shadow-sm"
        aria-describedby="graph-search-status"
      />
      <p id="graph-search-status" role="status" aria-live="polite" className="sr-only">
        {query ? (isFetching ? 'Searching…' : `${formatCount(hits.length)} matches`) : ''}
      </p>
      {query && hits.length > 0 && (
        <ul aria-label="Matches" className="absolute z-20 mt-1 max-h-80 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          {hits.map((h) => (
            <li key={h.id}>
              <button
                type="button"
                onClick={() => {
                  onPick(h);
                  setText('');
                  setQuery('');
                }}
                className="flex w-full items-center px-3 py-1.5 text-left text-sm hover:bg-slate-50 focus:bg-slate-100"
              >
                <KindLabel kind={h.kind === 'Resource' ? 'Res' : h.kind} />
                <span className="truncate font-mono text-[13px]">{h.namespace ? `${h.namespace}/${h.name}` : h.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {query && !isFetching && hits.length === 0 && <p className="absolute mt-1 text-xs text-slate-500">No match.</p>}
    </div>
  );
}
