import type { Metadata } from 'next';
import type { WriterGroupPage } from '@/lib/view/node-writer-groups';
import { ChosenNode } from '@/components/nodes/chosen-node';
import { ClusterConfigPanel } from '@/components/nodes/cluster-config-panel';
import { ModeLegend } from '@/components/nodes/mode-tag';
import { WriterGroupsPanel } from '@/components/nodes/writer-groups-panel';
import { EmptyState, PageHeader, Panel } from '@/components/ui/panel';
import { getReport } from '@/server/services/get-report';
import { SourceUnavailable } from '@/components/shell/source-unavailable';
import { loadForPage } from '@/server/services/load-for-page';
import { findNodeView, getNodesOverview, getWriterGroupPage } from '@/server/services/nodes-view';

export const metadata: Metadata = { title: 'Nodes' };

/** With this few writer identities in all, every group starts open. */
const OPEN_ALL_GROUPS_UP_TO = 40;

export default async function NodesPage({ searchParams }: { searchParams: Promise<{ node?: string | string[] }> }) {
  const sp = await searchParams;
  const loaded = await loadForPage(() => Promise.all([getReport(), getNodesOverview()]));
  if (!loaded.ok) return <SourceUnavailable title="Nodes" message={loaded.message} />;
  const [report, overview] = loaded.data;
  const wanted = typeof sp.node === 'string' ? sp.node : undefined;
  // Without a choice, the busiest node; a node asked for by name that the source does not hold is
  // said so, never replaced by another.
  const view = await findNodeView(wanted ?? overview.busiest ?? '');
  const missing = wanted !== undefined && !view ? wanted : undefined;
  const initialPages: Record<string, WriterGroupPage> =
    overview.identities <= OPEN_ALL_GROUPS_UP_TO
      ? Object.fromEntries(await Promise.all(overview.groups.map(async (g) => [g.key, await getWriterGroupPage({ group: g.key })] as const)))
      : {};

  return (
    <>
      <PageHeader
        title="Nodes"
        description="A pod's service-account token names the node it runs on. Who can write each node's nodes/status (readiness, capacity, conditions) and the status of DRA claims allocated there, and what a compromised node reaches."
      />
      {overview.nodeCount === 0 ? (
        <EmptyState title="No nodes in this source" />
      ) : (
        <div className="space-y-6">
          <section id="node-detail" aria-label="Chosen node" className="scroll-mt-4 space-y-4">
            <ChosenNode initial={view} defaultNode={overview.busiest} missing={missing} nodeCount={overview.nodeCount} nodeLinks={overview.nodeLinks} />
          </section>
          <Panel
            id="matrix"
            title="nodes/status writers"
            description={`${overview.identities.toLocaleString('en-US')} identities can write the status of some of the ${overview.nodeCount.toLocaleString('en-US')} nodes; grouped by how they write and how far, broadest first. Open a group for its identities.`}
            bodyClassName="p-0"
          >
            <WriterGroupsPanel groups={overview.groups} initialPages={initialPages} />
            <div id="matrix-help" className="border-t border-slate-100 px-5 py-3">
              <ModeLegend config={report.clusterConfig} />
            </div>
          </Panel>
          <ClusterConfigPanel config={report.clusterConfig} />
        </div>
      )}
    </>
  );
}
