import type { QuotaRow } from '@/lib/view/quota-view';
import { groupByNamespace } from '@/lib/view/quota-view';
import { cn } from '@/components/ui/cn';
import { Tag } from '@/components/ui/panel';

function UsageBar({ ratio }: { ratio: number | null }) {
  if (ratio === null) return <span className="text-xs text-slate-500">n/a</span>;
  const pct = Math.round(ratio * 1000) / 10;
  const tone = ratio >= 1 ? 'bg-sev-critical' : ratio >= 0.9 ? 'bg-sev-high' : ratio >= 0.75 ? 'bg-sev-medium' : 'bg-teal-600';
  return (
    <div className="flex items-center gap-2">
      <div className="h-2 w-14 overflow-hidden rounded-full bg-slate-100 sm:w-28" aria-hidden="true">
        <div className={cn('h-full rounded-full', tone)} style={{ width: `${Math.min(100, pct)}%` }} />
      </div>
      <span className={cn('text-xs tabular-nums', ratio >= 0.9 ? 'font-semibold text-orange-800' : 'text-slate-600')}>{pct}%</span>
    </div>
  );
}

/** Hard vs reported vs computed usage per namespace and DRA quota resource. */
export function QuotaTable({ rows }: { rows: QuotaRow[] }) {
  return (
    // On a phone the table can be wider than its box: the box scrolls, so it takes focus to scroll by keyboard.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="DRA quota usage per namespace">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">DRA quota usage per namespace</caption>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-3 py-2.5 font-medium sm:px-5">
              Resource
            </th>
            {/* Below sm the quota's name and its reported usage step aside: the usage computed from the claims stays. */}
            <th scope="col" className="hidden px-3 py-2.5 font-medium sm:table-cell">
              Quota
            </th>
            <th scope="col" className="px-3 py-2.5 text-right font-medium">
              Hard
            </th>
            <th scope="col" className="hidden px-3 py-2.5 text-right font-medium sm:table-cell">
              Reported used
            </th>
            <th scope="col" className="px-3 py-2.5 text-right font-medium">
              Computed used
            </th>
            <th scope="col" className="px-3 py-2.5 font-medium">
              Usage
            </th>
          </tr>
        </thead>
        {groupByNamespace(rows).map((g) => (
          <tbody key={g.namespace} className="divide-y divide-slate-100 border-b border-slate-200">
            <tr className="bg-slate-50">
              <th scope="rowgroup" colSpan={6} className="px-5 py-1.5 text-left text-xs font-semibold text-slate-700">
                <span className="font-mono">{g.namespace}</span>
              </th>
            </tr>
            {g.rows.map((r) => (
              <tr key={r.key}>
                <td className="px-3 py-2 sm:px-5">
                  <span className="block text-slate-900">{r.label}</span>
                  <span className="hidden break-all font-mono text-[11px] text-slate-500 sm:block">{r.resource}</span>
                </td>
                <td className="hidden whitespace-nowrap px-3 py-2 font-mono text-xs text-slate-700 sm:table-cell">{r.name}</td>
                <td className="px-2 py-2 text-right tabular-nums sm:px-3">{r.hard}</td>
                <td className="hidden px-3 py-2 text-right tabular-nums sm:table-cell">{r.used ?? <span className="text-slate-500">not reported</span>}</td>
                <td className="px-2 py-2 text-right tabular-nums sm:px-3">
                  {r.computedUsed}
                  {r.mismatch && (
                    <span className="mt-1 block sm:ml-2 sm:mt-0 sm:inline">
                      <Tag tone="amber" title="The quota's status.used disagrees with the usage computed from the claims">
                        differs
                      </Tag>
                    </span>
                  )}
                </td>
                <td className="px-2 py-2 sm:px-3">
                  <UsageBar ratio={r.ratio} />
                </td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
