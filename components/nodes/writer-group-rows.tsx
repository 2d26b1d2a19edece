'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { GroupedWriter, WriterGroupPage } from '@/lib/view/node-writer-groups';
import { GROUP_PAGE_SIZE } from '@/lib/view/node-writer-groups';
import { ErrorPanel } from '@/components/ui/error-panel';
import { ResponsiveTable, type TableColumn } from '@/components/ui/responsive-table';
import { Skeleton } from '@/components/ui/skeleton';
import { nodeWritersQuery } from './node-queries';
import { NodesReached, WriterIdentity, WriterWays } from './writer-row';

const WRITER_COLUMNS: TableColumn<GroupedWriter>[] = [
  { header: 'Identity', cell: (row) => <WriterIdentity row={row} />, rowHeader: true, className: 'py-2 pr-3', cellClassName: 'w-2/5' },
  { header: 'How it writes', cell: (row) => <WriterWays row={row} />, className: 'px-3 py-2' },
  { header: 'Nodes', cell: (row) => <NodesReached row={row} />, className: 'px-3 py-2', cellClassName: 'w-1/4 text-xs' },
];

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
          {/* Below md (768 px) each identity stacks into a card: who, how it writes, which nodes. */}
          <ResponsiveTable
            caption={`Identities: ${label}`}
            columns={WRITER_COLUMNS}
            rows={data.rows}
            rowKey={(row) => row.key}
            stackBelow="md"
            className="md:min-w-[34rem]"
          />
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
