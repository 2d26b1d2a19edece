import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AccessExplorer } from '@/components/explorer/access-explorer';
import { PageHeader } from '@/components/ui/panel';
import { PageSkeleton } from '@/components/ui/skeleton';

export const metadata: Metadata = { title: 'Who-can explorer' };

export default function ExplorerPage() {
  return (
    <>
      <PageHeader
        title="Who-can / can-i explorer"
        description="The CLI's questions in a form: who may make a request, or may this identity make it. Every answer names the binding, role and rule, or the authorizer, that decided it."
      />
      <Suspense fallback={<PageSkeleton label="Loading the explorer" />}>
        <AccessExplorer />
      </Suspense>
    </>
  );
}
