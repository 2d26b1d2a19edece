'use client';

import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import { viewNodeText } from '@/lib/graph/describe';
import { isGroupNodeId, isMoreNodeId, TIER_LABELS } from '@/lib/graph/node-id';
import { FOCUS_COLUMN_PAGE } from '@/lib/graph/view';
import type { GraphTier, GraphView, ViewEdge, ViewNode } from '@/lib/graph/types';
import { EdgeWhy } from './edge-why';

/** The side panel: the selected node with its edges (each opens its "why"), or the selected edge. */
export function GraphDetails({
  view,
  node,
  edge,
  onSelectEdge,
  onFocus,
  onExpand,
  onShow,
}: {
  view: GraphView;
  node: ViewNode | undefined;
  edge: ViewEdge | undefined;
  onSelectEdge: (id: string) => void;
  onFocus: (id: string) => void;
  onExpand: (groupId: string) => void;
  /** Show this many boxes in a paged column. */
  onShow: (tier: GraphTier, boxes: number) => void;
}) {
  if (edge) {
    const from = view.nodes.find((n) => n.id === edge.source);
    const to = view.nodes.find((n) => n.id === edge.target);
    return (
      <div className="space-y-3">
        <p className="text-xs text-slate-500">
          <span className="font-mono text-slate-800">{from ? viewNodeText(from).title : edge.source}</span> →{' '}
          <span className="font-mono text-slate-800">{to ? viewNodeText(to).title : edge.target}</span>
        </p>
        <EdgeWhy edge={edge} />
      </div>
    );
  }
  if (!node) {
    return (
      <div className="space-y-2 text-sm text-slate-600">
        <p>Select a box (click, or Tab to it and press Enter) to see its connections; select an edge to see why it exists.</p>
        <p>Dashed boxes stand for several: a collapsed group, or the “+ N more” of a long column. Select one to open it.</p>
        <p>A number on a box counts its findings, coloured by the worst.</p>
      </div>
    );
  }
  if (isMoreNodeId(node.id)) {
    const shown = view.nodes.filter((n) => n.tier === node.tier && n.id !== node.id).length;
    const hiddenBoxes = node.hiddenBoxes ?? 0;
    const next = Math.min(hiddenBoxes, FOCUS_COLUMN_PAGE * 2);
    return (
      <div className="space-y-3">
        <div>
          <p className="text-xs uppercase tracking-wide text-slate-500">{TIER_LABELS[node.tier]}</p>
          <h3 className="mt-0.5 text-sm font-semibold text-slate-900">{viewNodeText(node).title}</h3>
          <p className="mt-1 text-xs text-slate-600">
            This column shows {shown} boxes: the focus and the path first, then those named by the worst findings, risky before safe. The other {hiddenBoxes}{' '}
            {hiddenBoxes === 1 ? 'box stands' : 'boxes stand'} behind this one.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => onShow(node.tier, shown + next)}
            className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
          >
            Show {next} more
          </button>
          {hiddenBoxes > next && (
            <button
              type="button"
              onClick={() => onShow(node.tier, shown + hiddenBoxes)}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              Show all {shown + hiddenBoxes}
            </button>
          )}
        </div>
      </div>
    );
  }
  const text = viewNodeText(node);
  const outgoing = view.edges.filter((e) => e.source === node.id);
  const incoming = view.edges.filter((e) => e.target === node.id);
  const label = (id: string) => {
    const n = view.nodes.find((x) => x.id === id);
    return n ? viewNodeText(n).title : id;
  };
  const group = isGroupNodeId(node.id);
  return (
    <div className="space-y-4">
      <div>
        <p className="text-xs uppercase tracking-wide text-slate-500">{TIER_LABELS[node.tier]}</p>
        <h3 className="mt-0.5 break-all font-mono text-sm font-semibold text-slate-900">{text.title}</h3>
        <p className="text-xs text-slate-500">{text.subtitle}</p>
        {node.risky && <p className="mt-1 text-xs font-medium text-orange-800">On a risky path</p>}
        {node.findingCount ? (
          <p className="mt-1 text-xs text-slate-600">
            Named by {node.findingCount} finding{node.findingCount === 1 ? '' : 's'} (worst: {node.worstFinding})
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        {group ? (
          <button
            type="button"
            onClick={() => onExpand(node.id)}
            className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
          >
            Expand this group
          </button>
        ) : (
          <>
            {view.focus !== node.id && (
              <button
                type="button"
                onClick={() => onFocus(node.id)}
                className="rounded-md bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800"
              >
                Focus on this
              </button>
            )}
            {node.tier === 0 && (
              <Link
                href={pages.findings({ subject: `${node.kind}/${node.namespace ?? ''}/${node.name}` })}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
              >
                Its findings
              </Link>
            )}
            {node.tier === 3 && (
              <Link
                href={pages.explorer({ mode: 'who-can', verb: 'update', resource: node.name })}
                className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
              >
                Who can update it?
              </Link>
            )}
          </>
        )}
      </div>
      <EdgeList title="Incoming" edges={incoming} other={(e) => label(e.source)} onSelect={onSelectEdge} />
      <EdgeList title="Outgoing" edges={outgoing} other={(e) => label(e.target)} onSelect={onSelectEdge} />
    </div>
  );
}

function EdgeList({ title, edges, other, onSelect }: { title: string; edges: ViewEdge[]; other: (e: ViewEdge) => string; onSelect: (id: string) => void }) {
  if (!edges.length) return null;
  return (
    <div>
      <h4 className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-500">
        {title} ({edges.length})
      </h4>
      <ul className="max-h-64 space-y-0.5 overflow-auto">
        {edges.map((e) => (
          <li key={e.id}>
            <button
              type="button"
              onClick={() => onSelect(e.id)}
              className="flex w-full items-center justify-between gap-2 rounded px-2 py-1 text-left text-xs hover:bg-slate-100"
              aria-label={`Why: ${title === 'Incoming' ? `${other(e)} to this` : `this to ${other(e)}`}`}
            >
              <span className={`truncate font-mono ${e.risky ? 'text-orange-800' : 'text-slate-700'}`}>{other(e)}</span>
              <span className="shrink-0 text-teal-800">why?</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
