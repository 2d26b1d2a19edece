'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { pages } from '@/lib/api/routes';
import type { GraphView } from '@/lib/graph/types';
import { SeverityBadge } from '@/components/ui/severity';

/** A line of colour with its meaning. */
function Swatch({ className, children }: { className: string; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2">
      <span aria-hidden="true" className={`inline-block h-1 w-6 shrink-0 rounded ${className}`} />
      <span>{children}</span>
    </li>
  );
}

/**
 * What the canvas shows and what its colours mean: in the default view, the top risks whose attack
 * paths are drawn (each box carries the ranks of the paths through it), and a switch to the overview.
 */
export function GraphLegend({ view, onOverview, onTopRisks }: { view: GraphView; onOverview: () => void; onTopRisks: () => void }) {
  const risks = view.topRisks ?? [];
  const drawn = risks.filter((r) => r.nodeIds.length > 0);
  return (
    <section aria-labelledby="graph-legend-heading" className="rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm" data-testid="graph-legend">
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-2 sm:flex-nowrap">
        <div className="min-w-0 sm:flex-1">
          <h2 id="graph-legend-heading" className="text-sm font-semibold text-slate-900">
            {view.mode === 'top-risks'
              ? `Attack paths of the top ${risks.length === 1 ? 'risk' : `${risks.length} risks`}${drawn.length < risks.length ? ` (${drawn.length} with a path to draw)` : ''}`
              : view.mode === 'focus'
                ? 'Paths through the focus'
                : view.mode === 'path'
                  ? 'One attack path'
                  : 'Overview: every path, collapsed by namespace'}
          </h2>
          <p className="mt-0.5 text-xs text-slate-600">
            {view.mode === 'top-risks'
              ? 'Identity → binding → role → DRA resource for each of the highest-ranked issues; #N on a box is the rank of the risk whose path passes through it.'
              : view.mode === 'overview' && risks.length > 0
                ? 'No top risk has an attack path through a binding, so the overview is shown.'
                : 'Select a box to see its connections, an edge to see why it exists.'}
          </p>
        </div>
        {view.mode === 'top-risks' ? (
          <button
            type="button"
            onClick={onOverview}
            className="shrink-0 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            Show the collapsed overview
          </button>
        ) : (
          <button
            type="button"
            onClick={onTopRisks}
            className="shrink-0 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            Show the top risks’ paths
          </button>
        )}
      </div>
      {view.mode === 'top-risks' && (
        <ol aria-label="Top risks drawn" className="mt-3 space-y-1.5 text-sm">
          {risks.map((r) => (
            <li key={r.issueId} className="flex items-start gap-2">
              <span className="mt-0.5 w-7 shrink-0 rounded bg-violet-700 px-1 text-center text-xs font-semibold text-white">#{r.rank}</span>
              <SeverityBadge severity={r.severity} className="shrink-0" />
              <span className="min-w-0">
                <Link href={pages.findings({ issue: r.issueId })} className="text-slate-800 hover:underline">
                  {r.title}
                </Link>{' '}
                {r.nodeIds.length > 0 ? (
                  <Link href={pages.graphView({ path: r.issueId })} className="whitespace-nowrap text-xs font-medium text-teal-800 hover:underline">
                    only this path
                  </Link>
                ) : (
                  <span className="text-xs text-slate-500">(no attack path through a binding to draw)</span>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
      <ul aria-label="Colours" className="mt-3 flex flex-wrap gap-x-5 gap-y-1.5 text-xs text-slate-600">
        {(view.mode === 'top-risks' || view.mode === 'path') && <Swatch className="bg-violet-600">attack path</Swatch>}
        <Swatch className="bg-orange-700">orange: a grant a finding reports (over-privilege); between collapsed groups, every grant behind the edge</Swatch>
        <Swatch className="bg-[repeating-linear-gradient(90deg,var(--color-risk)_0_6px,transparent_6px_10px)]">
          dashed orange: some of the grants behind the edge are reported; select it for how many
        </Swatch>
        <Swatch className="bg-slate-600">dark grey: a write to a sensitive DRA resource that no finding reports</Swatch>
        <Swatch className="bg-slate-300">light grey: other access to DRA resources</Swatch>
        <li>dashed box: a collapsed group or “+ N more”; select it to open</li>
      </ul>
    </section>
  );
}
