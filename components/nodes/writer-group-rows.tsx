'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { WriterGroupPage } from '@/lib/view/node-writer-groups';
import { GROUP_PAGE_SIZE } from '@/lib/view/node-writer-groups';
import { ErrorPanel } from '@/components/ui/error-panel';
import { Skeleton } from '@/components/ui/skeleton';
import { nodeWritersQuery } from './node-queries';
import { WriterRow } from './writer-row';

/** The identities of one writer group, a page at a time, filtered by name. */
export function WriterGroupRows({ group, label, initial }: { group: string; label: string; initial?: WriterGroupPage }) {
  const [offset, setOffset] = useState(0);
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const t = setTimeout(() => {
      setQ(text.trim());
      setOffset(0);
    }, 200);
    return () => clearTimeout(t);
  }, [text]);
  const { data, error, isPending, refetch } = useQuery({
    ...nodeWritersQuery(group, offset, q),
    initialData: offset === 0 && q === '' ? initial : undefined,
  });
  const filterable = (initial?.total ?? data?.total ?? 0) > GROUP_PAGE_SIZE || q !== '';
  return (
    <div className="space-y-2 px-4 pb-4">
      {filterable && (
        <div className="flex flex-wrap items-center gap-3 pt-1">
          <label className="text-xs text-slate-600">
            <span className="mr-2">Filter by name</span>
            <input
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              className="w-56 rounded border border-slate-300 px-2 py-1 font-mono text-xs"
              aria-label={`Filter ${label} by name`}
            />
          </label>
        </div>
      )}
      {isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading identities…</span>
          <Skeleton className="h-24" />
        </div>
      ) : error ? (
        <ErrorPanel title="The identities could not be loaded" message={error.message} onRetry={() => refetch()} />
      ) : data.total === 0 ? (
        <p className="py-2 text-sm text-slate-500">No identity in this group matches “{q}”.</p>
      ) : (
        <>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[34rem] text-left text-sm" aria-label={`Identities: ${label}`}>
              <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Identity
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    How it writes
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Nodes
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.rows.map((row) => (
                  <WriterRow key={row.key} row={row} />
                ))}
              </tbody>
            </table>
          </div>
          {data.total > GROUP_PAGE_SIZE && (
            <nav aria-label={`Pages of ${label}`} className="flex items-center gap-3 text-xs text-slate-600">
              <button
                type="button"
                disabled={data.offset === 0}
                onClick={() => setOffset(Math.max(0, data.offset - GROUP_PAGE_SIZE))}
                className="rounded border border-slate-300 bg-white px-2 py-1 disabled:opacity-40"
              >
                Previous
              </button>
              <span>
                {(data.offset + 1).toLocaleString('en-US')}–{Math.min(data.offset + GROUP_PAGE_SIZE, data.total).toLocaleString('en-US')} of{' '}
                {data.total.toLocaleString('en-US')}
              </span>
              <button
                type="button"
                disabled={data.offset + GROUP_PAGE_SIZE >= data.total}
                onClick={() => setOffset(data.offset + GROUP_PAGE_SIZE)}
                className="rounded border border-slate-300 bg-white px-2 py-1 disabled:opacity-40"
              >
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
