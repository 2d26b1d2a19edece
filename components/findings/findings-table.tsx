import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { FindingRow } from '@/lib/view/findings-page';
import { findingNamespaces } from '@/lib/view/findings-view';
import { objectLabel, subjectLabel } from '@/lib/view/subjects';
import { SeverityBadge } from '@/components/ui/severity';

export function FindingsTable({ findings }: { findings: FindingRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full table-fixed text-left text-sm">
        <caption className="sr-only">Findings</caption>
        <colgroup>
          <col className="w-28" />
          <col className="w-24" />
          <col />
          <col className="w-72" />
          <col className="w-36" />
        </colgroup>
        <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
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
        <tbody className="divide-y divide-slate-100">
          {findings.map((f) => {
            const about = f.subjects.length ? f.subjects.map(subjectLabel) : f.objects.slice(0, 2).map(objectLabel);
            const more = (f.subjects.length ? f.subjects.length : Math.min(f.objects.length, 2)) - 1;
            return (
              <tr key={f.id} className="align-top hover:bg-slate-50">
                <td className="px-4 py-3">
                  <SeverityBadge severity={f.severity} />
                </td>
                <td className="px-2 py-3 font-mono text-xs text-slate-700">{f.check}</td>
                <td className="px-2 py-3">
                  <Link href={pages.finding(f.id)} className="font-medium text-slate-900 hover:text-teal-800 hover:underline">
                    {f.title}
                  </Link>
                  <p className="mt-0.5 line-clamp-2 text-xs text-slate-500">{f.message}</p>
                </td>
                <td className="px-2 py-3 text-xs text-slate-700">
                  <span className="block truncate font-mono" title={about[0]}>
                    {about[0]}
                  </span>
                  {more > 0 && <span className="text-slate-500">+{more} more</span>}
                </td>
                <td className="px-2 py-3 text-xs text-slate-600">
                  <span className="block truncate">{findingNamespaces(f).join(', ') || '—'}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
