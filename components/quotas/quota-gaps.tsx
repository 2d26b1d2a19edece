import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { DetailedFinding } from '@/lib/analysis/types';
import { EmptyState } from '@/components/ui/panel';
import { SeverityBadge } from '@/components/ui/severity';

/** Gaps listed on the page at most; a large cluster can have thousands (the findings list has them all). */
export const QUOTA_GAPS_SHOWN = 100;

/** QUOTA001/QUOTA002 findings: tenants without a claim-count quota, classes without a devices quota. */
export function QuotaGaps({ findings, total }: { findings: DetailedFinding[]; total: number }) {
  if (!findings.length) return <EmptyState title="Every tenant has DRA quota">No QUOTA001 or QUOTA002 finding.</EmptyState>;
  const rest = total - QUOTA_GAPS_SHOWN;
  return (
    <>
      <ul className="divide-y divide-slate-100">
        {findings.slice(0, QUOTA_GAPS_SHOWN).map((f) => (
          <li key={f.id} className="flex items-start gap-3 py-2.5">
            <SeverityBadge severity={f.severity} className="mt-0.5 shrink-0" />
            <div className="min-w-0">
              <Link href={pages.finding(f.id)} className="text-sm font-medium text-slate-900 hover:text-teal-800 hover:underline">
                <span className="font-mono text-xs text-slate-500">{f.check}</span> {f.title}
              </Link>
              <p className="mt-0.5 text-xs text-slate-600">{f.message}</p>
            </div>
          </li>
        ))}
      </ul>
      {rest > 0 && (
        <p className="border-t border-slate-100 pt-2.5 text-sm text-slate-600">
          and {rest.toLocaleString('en-US')} more:{' '}
          <Link href={pages.findings({ check: ['QUOTA001', 'QUOTA002'] })} className="font-medium text-teal-800 hover:underline">
            all quota gaps in the findings list
          </Link>
        </p>
      )}
    </>
  );
}
