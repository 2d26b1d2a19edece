import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { Finding } from '@/lib/analysis/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import { findingTitle } from '@/lib/analysis/finding-texts';
import { SeverityBadge } from '@/components/ui/severity';

export function TopFindings({ findings }: { findings: Finding[] }) {
  return (
    <ol className="divide-y divide-slate-100">
      {findings.map((f) => {
        const about = f.subjects[0] ? describeSubject(f.subjects[0]) : f.objects[0] ? describeRef(f.objects[0]) : '';
        return (
          <li key={f.id}>
            <Link href={pages.finding(f.id)} className="group flex items-start gap-3 px-1 py-2.5 hover:bg-slate-50">
              <SeverityBadge severity={f.severity} className="mt-0.5 shrink-0" />
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-medium text-slate-900 group-hover:underline">{findingTitle(f)}</span>
                <span className="mt-0.5 block truncate text-xs text-slate-500">
                  <span className="font-mono">{f.check}</span> · {about}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ol>
  );
}
