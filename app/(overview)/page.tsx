import { OverviewView } from '@/components/overview/overview-view';
import { getReport } from '@/server/services/get-report';
import { cachedOverviewFacts } from '@/server/services/overview-facts';
import { getShellInfo } from '@/server/services/shell-info';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';

export default async function OverviewPage() {
  const loaded = await loadForPage(() => Promise.all([getReport(), getShellInfo()]));
  if (!loaded.ok) return <SourceUnavailable title="Posture overview" message={loaded.message} />;
  const [report, shell] = loaded.data;
  return <OverviewView report={report} facts={cachedOverviewFacts(report)} bindings={shell.counts.bindings} />;
}
