import type { ShellInfoView } from './shell-types';
import { formatTime } from './format-time';
import { plural } from '@/lib/analysis/issues/count-text';

const KIND: Record<ShellInfoView['source']['kind'], { label: string; className: string; note: string }> = {
  demo: { label: 'Demo', className: 'bg-amber-100 text-amber-900 ring-amber-300', note: 'You are looking at the bundled demo cluster, not a real one.' },
  snapshot: { label: 'Snapshot', className: 'bg-sky-100 text-sky-900 ring-sky-300', note: 'A point-in-time snapshot: the cluster may have changed since.' },
  live: { label: 'Live', className: 'bg-emerald-100 text-emerald-900 ring-emerald-300', note: 'Read from the cluster by this server.' },
};

/** Which cluster this is, how fresh, and what could not be read. */
export function SourceBanner({ info }: { info: ShellInfoView }) {
  const kind = KIND[info.source.kind];
  return (
    <div className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5 text-sm md:px-6" aria-label="Data source" role="region">
        <span className={`rounded px-2 py-0.5 text-xs font-semibold uppercase tracking-wide ring-1 ring-inset ${kind.className}`}>{kind.label}</span>
        <span className="font-medium text-slate-900">{info.source.name}</span>
        <span className="text-slate-500">Kubernetes {info.source.kubernetesVersion ?? 'version unknown (1.36 defaults assumed)'}</span>
        <span className="text-slate-500">
          {info.source.collectedAt ? (
            `collected ${formatTime(info.source.collectedAt)}`
          ) : (
            <>
              analysed <time dateTime={info.computedAt}>{formatTime(info.computedAt)}</time>
            </>
          )}
        </span>
        <span className="text-slate-500">{kind.note}</span>
        {info.live?.stale && (
          <span role="alert" className="rounded bg-red-50 px-2 py-0.5 font-medium text-red-800 ring-1 ring-inset ring-red-200">
            Stale: {info.live.staleReason ?? 'the API server is not answering'}; showing data from{' '}
            {info.live.lastSyncAt ? formatTime(info.live.lastSyncAt) : 'the last sync'}
          </span>
        )}
        {info.partial && (
          <p role="alert" className="w-full font-medium text-amber-900" data-testid="partial-notice">
            {info.partial.headline} Unknown: {info.partial.checks.join(', ')}.
          </p>
        )}
        {info.warnings.length > 0 && (
          <details className="w-full text-amber-900">
            <summary className="cursor-pointer text-sm font-medium">{plural(info.warnings.length, 'warning')} about this source (partial data)</summary>
            <ul className="mt-1 max-h-40 list-disc overflow-auto pl-6 text-xs text-amber-900">
              {info.warnings.map((w, i) => (
                <li key={i} className="break-words">
                  {w}
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </div>
  );
}
