import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AccessExplorer } from '@/components/explorer/access-explorer';
import { WhenAllowed } from '@/components/auth/when-allowed';
import { WriteSimulator } from '@/components/explorer/write-simulator';
import { PageHeader } from '@/components/ui/panel';
import { PageSkeleton } from '@/components/ui/skeleton';
import { getExplorerSetup } from '@/server/services/explorer-setup';
import { simulateRequestKey } from '@/lib/view/simulate-request-key';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

export const metadata: Metadata = { title: 'Who-can explorer' };

type SearchParams = Record<string, string | string[] | undefined>;

function toParams(sp: SearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(sp)) for (const item of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, item);
  return out;
}

export default async function ExplorerPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // The examples and the simulator's write come from the loaded source; a who-can row's "simulate
  // this write" link names its subject in the URL, and the write is built here from the cluster.
  const params = toParams(await searchParams);
  const loaded = await loadForPage(() => getExplorerSetup(params));
  if (!loaded.ok) return <SourceUnavailable title="Who-can / can-i explorer" message={loaded.message} />;
  const { examples, prefill } = loaded.data;
  return (
    <>
      <PageHeader
        title="Who-can / can-i explorer"
        description="The CLI's questions in a form: who may make a request, may this identity make it, and would a write be accepted. Every answer names the binding, role and rule, or the authorizer or admission step, that decided it."
      />
      <Suspense fallback={<PageSkeleton label="Loading the explorer" />}>
        <AccessExplorer examples={examples} />
      </Suspense>
      <WhenAllowed action="create simulations" what="simulate writes">
        <WriteSimulator prefill={prefill} prefillFor={simulateRequestKey(params)} />
      </WhenAllowed>
    </>
  );
}
