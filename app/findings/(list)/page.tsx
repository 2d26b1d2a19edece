import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { queryKeys } from '@/lib/api/query-keys';
import { parseFindingFilters } from '@/lib/view/findings-view';
import { FindingsExplorer } from '@/components/findings/findings-explorer';
import { makeQueryClient } from '@/components/query/get-query-client';
import { PageHeader } from '@/components/ui/panel';
import { PageSkeleton } from '@/components/ui/skeleton';
import { getFindingsPage } from '@/server/services/findings-list';

export const metadata: Metadata = { title: 'Findings' };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function FindingsPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const item of Array.isArray(v) ? v : v ? [v] : []) sp.append(k, item);
  const filters = parseFindingFilters(sp);
  const qc = makeQueryClient();
  await qc.prefetchQuery({ queryKey: queryKeys.findings(filters), queryFn: () => getFindingsPage(filters) });
  return (
    <>
      <PageHeader
        title="Findings"
        description="Every check result with its subjects and objects. Filters are kept in the address, so a filtered list can be shared."
      />
      <HydrationBoundary state={dehydrate(qc)}>
        <Suspense fallback={<PageSkeleton label="Loading findings" />}>
          <FindingsExplorer />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
