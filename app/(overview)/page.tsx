import { OverviewView } from '@/components/overview/overview-view';
import { overviewFacts } from '@/lib/view/overview';
import { getReport } from '@/server/services/get-report';
import { getShellInfo } from '@/server/services/shell-info';

export default async function OverviewPage() {
  const [report, shell] = await Promise.all([getReport(), getShellInfo()]);
  return <OverviewView report={report} facts={overviewFacts(report)} bindings={shell.counts.bindings} />;
}
