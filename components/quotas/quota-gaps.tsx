import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { Finding } from '@/lib/report/types';
import { EmptyState } from '@/components/ui/panel';
import { SeverityBadge } from '@/components/ui/severity';

/** QUOTA001/QUOTA002 findings: tenants without a claim-count quota, classes without a devices quota. */
export function QuotaGaps({ findings }: { findings: Finding[] }) {
  if (!findings.length) return <EmptyState title="Every tenant has DRA quota">No QUOTA001 or QUOTA002 finding.</EmptyState>;
  return (
    <ul className="divide-y divide-slate-100">
      {findings.map((f) => (
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
  );
}
