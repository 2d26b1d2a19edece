'use client';

import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { graphQueryString, parseGraphQuery, type GraphQuery } from '@/lib/api/routes';
import { formatCount } from '@/lib/analysis/issues/count-text';
import { viewNodeText } from '@/lib/graph/describe';
import type { GraphTier } from '@/lib/graph/types';
import { graphQuery } from '@/components/query/queries';
import { ErrorPanel } from '@/components/ui/error-panel';
import { Skeleton } from '@/components/ui/skeleton';
import { DrawConfirm } from './draw-confirm';
import { GraphCanvas } from './graph-canvas';
import { GraphDetails } from './graph-details';
import { GraphLegend } from './graph-legend';
import { GraphSearch } from './graph-search';

/** `show` with one column's box count replaced. */
function withShown(show: readonly string[] | undefined, tier: GraphTier, boxes: number): string[] {
  return [...(show ?? []).filter((s) => !s.startsWith(`${tier}:`)), `${tier}:${boxes}`].sort();
}

/**
 * Identity graph: the view (top risks, overview, focus, path), expansions and paging live in the
 * URL; selection is local. A view above the box threshold comes back as a count, and is drawn only
 * once the reader agrees (`draw` in the URL).
 */
export function GraphExplorer() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const q = useMemo(() => parseGraphQuery(params), [params]);
  const { data: view, error, isPending, isFetching, refetch } = useQuery(graphQuery(q));
  const [selection, setSelection] = useState<{ node?: string; edge?: string }>({});
  const previous = useRef<GraphQuery | undefined>(undefined);

  const navigate = useCallback(
    (next: GraphQuery) => {
      setSelection({});
      previous.current = q;
      router.replace(`${pathname}${graphQueryString(next)}`, { scroll: false });
    },
    [router, pathname, q],
  );
  // Any other change leaves the agreement to draw N boxes behind: it was for the view it was given for.
  const drop = useCallback((next: GraphQuery) => navigate({ ...next, draw: undefined }), [navigate]);

  const focusNode = view?.focus ? view.nodes.find((n) => n.id === view.focus) : undefined;
  const selectedNode = view?.nodes.find((n) => n.id === selection.node);
  const selectedEdge = view?.edges.find((e) => e.id === selection.edge);
  const hidden = view?.paged ? Object.values(view.paged).reduce((a, b) => a + (b ?? 0), 0) : 0;

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm">
        <GraphSearch onPick={(hit) => drop({ ...q, focus: hit.id, show: undefined })} />
        <fieldset className="flex flex-wrap items-center gap-x-5 gap-y-2">
          <legend className="sr-only">Display options</legend>
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 accent-teal-700"
              checked={!!q.riskyOnly}
              onChange={(e) => drop({ ...q, riskyOnly: e.target.checked || undefined })}
            />
            Risky paths only
          </label>
          <label className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="size-4 accent-teal-700"
              checked={!!q.expandAll}
              onChange={(e) => drop({ ...q, expandAll: e.target.checked || undefined, expand: undefined })}
            />
            Expand all groups
          </label>
          {q.expand?.length ? (
            <button type="button" onClick={() => drop({ ...q, expand: undefined })} className="text-sm font-medium text-teal-800 hover:underline">
              Collapse {q.expand.length} expanded group{q.expand.length === 1 ? '' : 's'}
            </button>
          ) : null}
        </fieldset>
        {q.path && (
          <div className="flex items-center gap-2 text-sm" role="status">
            <span className="inline-block h-1 w-6 rounded bg-violet-600" aria-hidden="true" />
            <span className="text-slate-700">
              Attack path of issue <span className="font-mono text-[13px]">{q.path}</span>
              {view && view.path.length > 0 ? `: ${view.path.length} steps highlighted` : ''}
            </span>
            <button type="button" onClick={() => drop({ ...q, path: undefined })} className="font-medium text-teal-800 hover:underline">
              Clear path
            </button>
          </div>
        )}
        {q.focus && (
          <div className="flex min-w-0 items-center gap-2 text-sm">
            <span className="text-slate-500">Focused on</span>
            <span className="min-w-0 truncate rounded bg-teal-50 px-2 py-0.5 font-mono text-[13px] text-teal-900 ring-1 ring-teal-200">
              {focusNode ? viewNodeText(focusNode).title : q.focus}
            </span>
            <button
              type="button"
              onClick={() => drop({ ...q, focus: undefined, show: undefined })}
              className="shrink-0 font-medium text-teal-800 hover:underline"
            >
              Clear focus
            </button>
          </div>
        )}
      </div>

      {view && !error && (
        <GraphLegend view={view} onOverview={() => drop({ ...q, overview: true })} onTopRisks={() => drop({ confirmAbove: q.confirmAbove })} />
      )}

      {error ? (
        <ErrorPanel title="The graph could not be loaded" message={error.message} onRetry={() => refetch()} />
      ) : isPending || !view ? (
        <div role="status">
          <span className="sr-only">Loading the identity graph…</span>
          <Skeleton className="h-[640px]" />
        </div>
      ) : (
        <div className="grid gap-4 xl:grid-cols-[1fr_19rem]">
          <div
            className="flex min-w-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
            style={{ height: view.confirm ? 380 : Math.min(680, Math.max(380, view.height + 170)) }}
            aria-busy={isFetching}
          >
            <p className="border-b border-slate-100 px-4 py-2 text-xs text-slate-500" role="status" aria-live="polite">
              {view.confirm
                ? `${formatCount(view.confirm.boxes)} boxes in this view: not drawn yet`
                : `${formatCount(view.nodes.length)} boxes shown · ${formatCount(view.subgraphNodes)} ${view.focus ? 'on paths through the focus' : 'in this view'} · ${formatCount(view.totalNodes)} in the whole graph`}
              {hidden > 0 ? ` · ${formatCount(hidden)} more behind “+ more” boxes` : ''}
            </p>
            <div className="relative min-h-0 flex-1">
              {view.confirm ? (
                <DrawConfirm
                  confirm={view.confirm}
                  onDraw={() => navigate({ ...q, draw: view.confirm!.boxes })}
                  onCancel={() => drop(previous.current ?? { ...q, expandAll: undefined, expand: undefined, show: undefined })}
                />
              ) : view.nodes.length ? (
                <GraphCanvas view={view} selectedNode={selection.node} selectedEdge={selection.edge} onSelect={setSelection} />
              ) : (
                <p className="p-10 text-center text-sm text-slate-500">Nothing to show with these options.</p>
              )}
            </div>
          </div>
          <aside aria-label="Details" className="rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm xl:max-h-[680px] xl:overflow-auto">
            <GraphDetails
              view={view}
              node={selectedNode}
              edge={selectedEdge}
              onSelectEdge={(id) => setSelection({ node: selection.node, edge: id })}
              onFocus={(id) => drop({ ...q, focus: id, show: undefined })}
              onExpand={(gid) => drop({ ...q, expand: [...new Set([...(q.expand ?? []), gid])].sort() })}
              onShow={(tier, boxes) => drop({ ...q, show: withShown(q.show, tier, boxes) })}
            />
          </aside>
        </div>
      )}
    </div>
  );
}
