import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AccessExplorer } from '@/components/explorer/access-explorer';
import { WriteSimulator } from '@/components/explorer/write-simulator';
import { PageHeader } from '@/components/ui/panel';
import { PageSkeleton } from '@/components/ui/skeleton';

export const metadata: Metadata = { title: 'Who-can explorer' };

export default function ExplorerPage() {
  return (
    <>
      <PageHeader
        title="Who-can / can-i explorer"
        description="The CLI's questions in a form: who may make a request, may this identity make it, and would a write be accepted. Every answer names the binding, role and rule, or the authorizer or admission step, that decided it."
      />
      <Suspense fallback={<PageSkeleton label="Loading the explorer" />}>
        <AccessExplorer />
      </Suspense>
      <WriteSimulator />
    </>
  );
}
