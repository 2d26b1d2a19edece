import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import { SEVERITIES, type Severity } from '@/lib/analysis/types';
import { cn } from '@/components/ui/cn';
import { SEVERITY_LABEL } from '@/components/ui/severity';

const ACCENT: Record<Severity, string> = {
  critical: 'border-l-sev-critical',
  high: 'border-l-sev-high',
  medium: 'border-l-sev-medium',
  low: 'border-l-sev-low',
  info: 'border-l-sev-info',
};

/** One card per severity, each a link to the findings filtered to it. */
export function SeverityCards({ summary }: { summary: Record<Severity, number> }) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Findings by severity">
      {SEVERITIES.map((s) => (
        <li key={s}>
          <Link
            href={pages.findings({ severity: s })}
            className={cn(
              'block rounded-md border border-l-4 border-slate-200 bg-white px-4 py-3 shadow-sm transition hover:border-slate-300 hover:shadow',
              ACCENT[s],
            )}
          >
            <span className="block text-xs font-medium uppercase tracking-wide text-slate-500">{SEVERITY_LABEL[s]}</span>
            <span className="mt-1 block text-2xl font-semibold tabular-nums text-slate-900">{summary[s].toLocaleString('en-US')}</span>
            <span className="sr-only"> {SEVERITY_LABEL[s].toLowerCase()} findings</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
