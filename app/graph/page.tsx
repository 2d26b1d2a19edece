import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { queryKeys } from '@/lib/api/query-keys';
import { parseGraphQuery } from '@/lib/api/routes';
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
    queryFn: () => getGraphView({ focus: q.focus, expand: q.expand, all: q.expandAll ? '1' : undefined, risky: q.riskyOnly ? '1' : undefined, path: q.path }),
  });
  return (
    <>
      <PageHeader
        title="Identity graph"
        description="Identities → bindings → roles → the DRA resources and subresources they reach. Groups are collapsed by namespace so large clusters stay readable; focus on one identity or resource to see only its paths."
      />
      <HydrationBoundary state={dehydrate(qc)}>
        <Suspense fallback={<Skeleton className="h-[680px]" />}>
          <GraphExplorer />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
