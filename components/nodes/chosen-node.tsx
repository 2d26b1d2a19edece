'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';
import { pages } from '@/lib/api/routes';
import type { NodeView } from '@/lib/view/nodes-page';
import { ApiClientError } from '@/components/query/fetch-json';
import { ErrorPanel } from '@/components/ui/error-panel';
import { BlastRadiusPanel } from './blast-radius-panel';
import { NodeDetail } from './node-detail';
import { NodePicker } from './node-picker';
import { nodeViewQuery } from './node-queries';
import { NodeTabs } from './node-tabs';

/**
 * The node picker and the chosen node's writers and blast radius. Choosing another node fetches only
 * that node's panels (GET /api/v1/nodes/:name/view) and puts it in the address (?node=), without
 * rendering the page again on the server: on a 10,000-node cluster the page's other panels are the
 * same for every node. The first node comes with the page.
 */
export function ChosenNode({
  initial,
  defaultNode,
  missing,
  nodeCount,
  nodeLinks,
}: {
  /** The panels of the node the page opened on (rendered by the server). */
  initial?: NodeView;
  /** The node shown when the address names none (the busiest). */
  defaultNode?: string;
  /** A node the address named that the server found missing. */
  missing?: string;
  nodeCount: number;
  nodeLinks: string[];
}) {
  const params = useSearchParams();
  const name = params.get('node') ?? defaultNode ?? '';
  const queryClient = useQueryClient();
  const known = missing === name;
  // The page's own panels win over the cache: a page render (another source chosen) brings fresh ones.
  const fromPage = initial && initial.name === name ? initial : undefined;
  const { data, error, isFetching, refetch } = useQuery({ ...nodeViewQuery(name), enabled: name !== '' && !known && !fromPage });
  const notFound = known || (error instanceof ApiClientError && error.status === 404);
  // The previous node stays (dimmed) until the next one arrives: the page does not jump.
  const [last, setLast] = useState<NodeView | undefined>(fromPage);
  const current = fromPage ?? (error || known ? undefined : data);
  if (current && current !== last) setLast(current);
  const opening = !current && isFetching && !error ? name : undefined;
  const view = current ?? (opening ? last : undefined);

  // Native history: Next.js keeps useSearchParams in step, and back/forward return to earlier nodes.
  const choose = useCallback((node: string) => window.history.pushState(null, '', pages.nodes(node)), []);
  const prefetch = useCallback((node: string) => void queryClient.prefetchQuery(nodeViewQuery(node)), [queryClient]);

  return (
    <>
      <div className="flex flex-wrap items-start gap-x-6 gap-y-3">
        <NodePicker selected={view?.name} nodeCount={nodeCount} opening={opening} onChoose={choose} onPrefetch={prefetch} />
        {nodeLinks.length > 0 && (
          <div className="pt-5">
            <NodeTabs nodes={nodeLinks} selected={view?.name} onChoose={choose} />
          </div>
        )}
      </div>
      {notFound && (
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-5 py-4 text-sm text-amber-900">
          <p className="font-medium">
            No node named <span className="font-mono">{name}</span> in this source.
          </p>
          <p className="mt-1">
            It has {nodeCount.toLocaleString('en-US')} node{nodeCount === 1 ? '' : 's'}: type part of a name above to find one.
          </p>
        </div>
      )}
      {error && !notFound && <ErrorPanel title={`The panels of ${name} could not be loaded`} message={error.message} onRetry={() => refetch()} />}
      {view && (
        <div className={opening ? 'space-y-4 opacity-60 transition-opacity' : 'space-y-4'} aria-busy={opening !== undefined}>
          <NodeDetail node={view} />
          <BlastRadiusPanel radius={view.blastRadius} />
        </div>
      )}
    </>
  );
}
