import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { queryKeys } from '@/lib/api/query-keys';
import { FindingsExplorer } from '@/components/findings/findings-explorer';
import { makeQueryClient } from '@/components/query/get-query-client';
import { PageHeader } from '@/components/ui/panel';
import { PageSkeleton } from '@/components/ui/skeleton';
import { getReport } from '@/server/services/get-report';

export const metadata: Metadata = { title: 'Findings' };

export default async function FindingsPage() {
  const qc = makeQueryClient();
  await qc.prefetchQuery({ queryKey: queryKeys.report(), queryFn: getReport });
  return (
    <>
      <PageHeader title="Findings" description="Every check result with its subjects and objects. Filters are kept in the address, so a filtered list can be shared." />
      <HydrationBoundary state={dehydrate(qc)}>
        <Suspense fallback={<PageSkeleton label="Loading findings" />}>
          <FindingsExplorer />
        </Suspense>
      </HydrationBoundary>
    </>
  );
}
