import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { CheckFamily } from '@/lib/view/overview';
import { formatCount } from '@/lib/analysis/issues/count-text';
import { SeverityDot } from '@/components/ui/severity';

/** Findings per check family, each linking to the findings of those checks. */
export function CheckFamilies({ families }: { families: CheckFamily[] }) {
  const max = Math.max(1, ...families.map((f) => f.count));
  return (
    <ul className="space-y-1.5" aria-label="Findings by check family">
      {families.map((f) => {
        const body = (
          <>
            <span className="flex w-52 shrink-0 items-center gap-2 whitespace-nowrap text-sm text-slate-800">
              {f.worst ? <SeverityDot severity={f.worst} /> : <span className="inline-block size-2" />}
              {f.label}
            </span>
            <span className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
              <span className="block h-full rounded-full bg-slate-400" style={{ width: `${(f.count / max) * 100}%` }} />
            </span>
            <span className="w-14 shrink-0 text-right text-sm tabular-nums text-slate-700">{formatCount(f.count)}</span>
          </>
        );
        return (
          <li key={f.family}>
            {f.count ? (
              <Link href={pages.findings({ check: f.checks.join(',') })} className="flex items-center gap-3 rounded px-1 py-1 hover:bg-slate-50">
                {body}
              </Link>
            ) : (
              <div className="flex items-center gap-3 px-1 py-1">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
