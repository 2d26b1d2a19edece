import type { ReactNode } from 'react';
import { cn } from '@/components/ui/cn';

export interface Column {
  label: string;
  numeric?: boolean;
}

/**
 * A plain table of activity rows, the first `limit` shown with a count of the rest. Below md (768 px)
 * each row stacks into a card of "column: value" lines: up to seven columns do not fit a phone.
 */
export function ActivityTable({ caption, columns, rows, limit = 100 }: { caption: string; columns: Column[]; rows: ReactNode[][]; limit?: number }) {
  if (rows.length === 0) return <p className="px-5 py-4 text-sm text-slate-500">None in this window.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm max-md:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 max-md:sr-only">
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={cn('px-3 py-2.5 font-medium first:pl-5', c.numeric && 'text-right')}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-md:block">
          {rows.slice(0, limit).map((r, i) => (
            <tr key={i} className="max-md:block max-md:space-y-1 max-md:py-3">
              {r.map((cell, j) => (
                <td
                  key={j}
                  className={cn(
                    'px-3 py-2 align-top first:pl-5 max-md:flex max-md:items-baseline max-md:gap-2 max-md:p-0 max-md:text-left max-md:first:pl-0',
                    columns[j]?.numeric ? 'text-right tabular-nums' : 'break-words',
                  )}
                >
                  <span className="w-20 shrink-0 text-xs text-slate-500 md:hidden">{columns[j]?.label}</span>
                  <span className="min-w-0 max-md:wrap-anywhere">{cell}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > limit && <p className="px-5 py-2 text-xs text-slate-500">{rows.length - limit} more rows in the JSON report.</p>}
    </div>
  );
}
