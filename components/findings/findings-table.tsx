import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { FindingRow } from '@/lib/view/findings-page';
import { findingNamespaces } from '@/lib/view/findings-view';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { cn } from '@/components/ui/cn';
import { SeverityBadge } from '@/components/ui/severity';

/** One row per finding; below md (768 px) each row stacks into a card: severity and check, then title, subject, namespace. */
export function FindingsTable({ findings }: { findings: FindingRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed text-left text-sm max-md:block">
        <caption className="sr-only">Findings</caption>
        <colgroup className="max-md:hidden">
          <col className="w-28" />
          <col className="w-24" />
          <col />
          <col className="w-72" />
          <col className="w-36" />
        </colgroup>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500 max-md:sr-only">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-medium">
              Severity
            </th>
            <th scope="col" className="px-2 py-2.5 font-medium">
              Check
            </th>
            <th scope="col" className="px-2 py-2.5 font-medium">
              Finding
            </th>
            <th scope="col" className="px-2 py-2.5 font-medium">
              About
            </th>
            <th scope="col" className="px-2 py-2.5 font-medium">
              Namespace
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 max-md:block">
          {findings.map((f) => {
            const about = f.subjects.length ? f.subjects.map(describeSubject) : f.objects.slice(0, 2).map(describeRef);
            const more = (f.subjects.length ? f.subjects.length : Math.min(f.objects.length, 2)) - 1;
            const namespaces = findingNamespaces(f).join(', ');
            return (
              <tr
                key={f.id}
                className="align-top hover:bg-slate-50 max-md:grid max-md:grid-cols-[auto_1fr] max-md:items-center max-md:gap-x-3 max-md:gap-y-1 max-md:py-3"
              >
                <td className="px-4 py-3 max-md:p-0">
                  <SeverityBadge severity={f.severity} />
                </td>
                <td className="px-2 py-3 font-mono text-xs text-slate-700 max-md:p-0">{f.check}</td>
                <td className="px-2 py-3 max-md:col-span-2 max-md:p-0">
                  <Link href={pages.finding(f.id)} className="font-medium text-slate-900 hover:text-teal-800 hover:underline">
                    {f.title}
                  </Link>
                  <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{f.message}</p>
                </td>
                <td className="px-2 py-3 text-xs text-slate-700 max-md:col-span-2 max-md:p-0">
                  <span className="block truncate font-mono" title={about[0]}>
                    {about[0]}
                  </span>
                  {more > 0 && <span className="text-slate-500">+{more} more</span>}
                </td>
                <td className={cn('px-2 py-3 text-xs text-slate-600 max-md:col-span-2 max-md:p-0', !namespaces && 'max-md:hidden')}>
                  <span className="block truncate">
                    {/* The column header is hidden when rows stack into cards (below md). */}
                    <span className="text-slate-500 md:hidden">Namespace </span>
                    {namespaces || '—'}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
