import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { queryKeys } from '@/lib/api/query-keys';
import { graphParams, parseGraphQuery } from '@/lib/api/routes';
import { GraphExplorer } from '@/components/graph/graph-explorer';
import { makeQueryClient } from '@/components/query/get-query-client';
import { PageHeader } from '@/components/ui/panel';
import { Skeleton } from '@/components/ui/skeleton';
import { getGraphView } from '@/server/services/graph';

export const metadata: Metadata = { title: 'Identity graph' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function GraphPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const item of Array.isArray(v) ? v : v ? [v] : []) sp.append(k, item);
  const q = parseGraphQuery(sp);
  const qc = makeQueryClient();
  await qc.prefetchQuery({
    queryKey: queryKeys.graph(q),
    // The parameters the client's fetch sends, so both build the same view.
    queryFn: () => getGraphView(graphParams(q)),
  });
  return (
    <>
      <PageHeader
        title="Identity graph"
        description="Identities → bindings → roles → the DRA resources and subresources they reach. It opens on the attack paths of the top risks; the overview collapses every path by namespace, and a focus shows the paths through one identity, binding, role or resource."
      />
      <HydrationBoundary state={dehydrate(qc)}>
        <Suspense fallback={<Skeleton className="h-[680px]" />}>
          <GraphExplorer />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
