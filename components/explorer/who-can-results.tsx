'use client';

import Link from 'next/link';
import { useMemo, useState } from 'react';
import type { WhoCanResponse } from '@/lib/api/dto';
import type { WhoCanEntry } from '@/lib/authz/who-can';
import type { SubjectRef } from '@/lib/k8s/types';
import { simulatedWriteOf } from '@/lib/authz/question-write';
import { filterWhoCan, WHO_CAN_FILTER_FROM, WHO_CAN_PAGE } from '@/lib/view/who-can-view';
import { EmptyState } from '@/components/ui/panel';
import { RefText } from '@/components/ui/refs';
import { ResponsiveTable, type TableColumn } from '@/components/ui/responsive-table';
import { GrantText, requestText } from './access-results';
import { useCan } from '@/components/auth/viewer-context';

const count = (n: number) => n.toLocaleString('en-US');

function authorizerLabel(via: WhoCanEntry['via']): string {
  return via === 'rbac' ? 'RBAC' : via === 'node' ? 'Node' : via === 'always-allow' ? 'AlwaysAllow' : 'system:masters';
}

/** Subject (with a link to simulate the write as it, where there is one), authorizer, and the grants that allow it. */
function whoCanColumns(simulateHref: ((subject: SubjectRef) => string) | undefined): TableColumn<WhoCanEntry>[] {
  return [
    {
      header: 'Subject',
      cell: (e) => (
        <>
          <RefText value={e.subject} />
          {simulateHref && (
            <Link href={simulateHref(e.subject)} className="mt-1 block text-xs font-medium text-teal-800 hover:underline" data-testid="simulate-this-write">
              Simulate this write
              <span className="sr-only"> as {e.subject.namespace ? `${e.subject.namespace}/${e.subject.name}` : e.subject.name}</span>
            </Link>
          )}
        </>
      ),
      width: 'w-[42%]',
      className: 'py-2 pr-3',
    },
    {
      header: 'Authorizer',
      cell: (e) => authorizerLabel(e.via),
      width: 'w-28',
      className: 'px-3 py-2',
      cellClassName: 'whitespace-nowrap text-xs text-slate-600',
      labelInCard: true,
    },
    {
      header: 'Why',
      cell: (e) => (
        <>
          {e.grants.map((g, j) => (
            <div key={j}>
              <GrantText g={g} />
            </div>
          ))}
          {e.note && <p className="text-slate-600">{e.note}</p>}
        </>
      ),
      className: 'px-3 py-2',
      cellClassName: 'space-y-1 text-xs text-slate-700',
    },
  ];
}

/**
 * Every subject allowed a request, with why; a long answer is filtered by text and shown a page at a
 * time, and each row of a write question links to the simulator filled with that write and subject.
 */
export function WhoCanResults({ data, simulateHref }: { data: WhoCanResponse; simulateHref: (subject: SubjectRef) => string }) {
  const [text, setText] = useState('');
  const [shown, setShown] = useState(WHO_CAN_PAGE);
  const matching = useMemo(() => filterWhoCan(data.subjects, text), [data.subjects, text]);
  const rows = matching.slice(0, shown);
  // Hidden from viewers who may not simulate (serve --auth kubernetes): the server would refuse it.
  const simulable = useCan('create simulations') && !('path' in data.request) && simulatedWriteOf(data.request) !== undefined;
  const total = data.subjects.length;
  return (
    <div data-testid="who-can-results">
      <p className="mb-3 text-sm text-slate-700">
        <span className="font-semibold">{count(total)}</span> subject{total === 1 ? '' : 's'} can{' '}
        <span className="break-words font-mono text-[13px]">{requestText(data.request)}</span>
      </p>
      {data.warning && <p className="mb-3 rounded bg-amber-50 px-3 py-2 text-xs text-amber-900">{data.warning}</p>}
      {total === 0 ? (
        <EmptyState title="Nobody can">No subject is allowed this request.</EmptyState>
      ) : (
        <>
          {total > WHO_CAN_FILTER_FROM && (
            <div className="mb-3 flex flex-wrap items-end gap-x-4 gap-y-2">
              <label className="block min-w-0 flex-1 basis-56">
                <span className="mb-1 block text-xs font-medium text-slate-600">Filter subjects</span>
                <input
                  type="search"
                  value={text}
                  onChange={(e) => {
                    setText(e.target.value);
                    setShown(WHO_CAN_PAGE);
                  }}
                  placeholder="name, namespace, binding or role"
                  autoComplete="off"
                  className="w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm"
                />
              </label>
            </div>
          )}
          <p className="mb-2 text-xs text-slate-600" data-testid="who-can-count" aria-live="polite">
            Showing {count(rows.length)} of {count(matching.length)}
            {matching.length !== total ? ` matching (${count(total)} in all)` : ''}
          </p>
          {/* Below sm each row stacks (subject, then authorizer and why): three fixed columns at 390 px broke names one letter a line. */}
          <ResponsiveTable
            caption="Subjects allowed"
            columns={whoCanColumns(simulable ? simulateHref : undefined)}
            rows={rows}
            rowKey={(e) => `${e.via}/${e.subject.kind}/${e.subject.namespace ?? ''}/${e.subject.name}`}
            stackBelow="sm"
            empty={<p className="py-3 text-sm text-slate-600">No subject matches “{text.trim()}”.</p>}
          />
          {matching.length > rows.length && (
            <div className="mt-3 flex flex-wrap gap-2">
              <button
                type="button"
                onClick={() => setShown((n) => n + WHO_CAN_PAGE)}
                className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-slate-400"
              >
                Show {count(Math.min(WHO_CAN_PAGE, matching.length - rows.length))} more
              </button>
              <button
                type="button"
                onClick={() => setShown(matching.length)}
                className="rounded-md px-3 py-1.5 text-sm font-medium text-teal-800 hover:underline"
              >
                Show all {count(matching.length)}
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
