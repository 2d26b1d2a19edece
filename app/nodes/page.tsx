import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { queryKeys } from '@/lib/api/query-keys';
import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
import { buildNodeMatrix } from '@/lib/view/node-matrix';
import { BlastRadiusPanel } from '@/components/nodes/blast-radius-panel';
import { ClusterConfigPanel } from '@/components/nodes/cluster-config-panel';
import { ModeLegend } from '@/components/nodes/mode-tag';
import { NodeDetail } from '@/components/nodes/node-detail';
import { NodeMatrixTable } from '@/components/nodes/node-matrix-table';
import { NodeTabs } from '@/components/nodes/node-tabs';
import { makeQueryClient } from '@/components/query/get-query-client';
import { EmptyState, PageHeader, Panel } from '@/components/ui/panel';
import { getBlastRadius, getReport } from '@/server/services/get-report';

export const metadata: Metadata = { title: 'Nodes' };

export default async function NodesPage({ searchParams }: { searchParams: Promise<{ node?: string | string[] }> }) {
  const report = await getReport();
  const sp = await searchParams;
  const wanted = typeof sp.node === 'string' ? sp.node : undefined;
  const matrix = buildNodeMatrix(report);
  // Without a choice, open the node with the most claim drivers and writers of its own (the most interesting one).
  const busiest = [...report.nodes].sort(
    (a, b) => b.claimDrivers.length - a.claimDrivers.length || b.claimStatusWriters.length - a.claimStatusWriters.length,
  )[0];
  // A node asked for by name that the source does not hold is said so, never replaced by another.
  const missing = wanted !== undefined && !report.nodes.some((n) => n.name === wanted) ? wanted : undefined;
  const node = missing ? undefined : (report.nodes.find((n) => n.name === wanted) ?? busiest);
  const tabs = node && !matrix.nodes.includes(node.name) ? [...matrix.nodes, node.name] : matrix.nodes;

  const qc = makeQueryClient();
  if (node) await qc.prefetchQuery({ queryKey: queryKeys.blastRadius(node.name), queryFn: () => getBlastRadius(node.name) });

  return (
    <>
      <PageHeader
        title="Nodes"
        description="A pod's service-account token names the node it runs on. Who can write each node's nodes/status (readiness, capacity, conditions) and the status of DRA claims allocated there, and what a compromised node reaches."
      />
      {report.nodes.length === 0 ? (
        <EmptyState title="No nodes in this source" />
      ) : (
        <div className="space-y-6">
          <Panel
            id="matrix"
            title="nodes/status writers"
            description={`${matrix.rows.length} identities × ${matrix.nodes.length + matrix.hiddenNodes} nodes; broadest first${matrix.hiddenNodes ? ` (showing ${matrix.nodes.length} nodes, those with writers of their own first)` : ''}`}
            bodyClassName="p-0"
          >
            <NodeMatrixTable matrix={matrix} selected={node?.name} />
            <div id="matrix-help" className="border-t border-slate-100 px-5 py-3">
              <ModeLegend config={report.clusterConfig} />
            </div>
          </Panel>
          <ClusterConfigPanel config={report.clusterConfig} />
          <div id="node-detail" className="scroll-mt-4 space-y-6">
            <NodeTabs nodes={tabs} selected={node?.name} hiddenNodes={matrix.hiddenNodes} />
            {missing !== undefined && (
              <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-5 py-4 text-sm text-amber-900">
                <p className="font-medium">
                  No node named <span className="font-mono">{missing}</span> in this source.
                </p>
                <p className="mt-1">
                  It has {report.nodes.length} node{report.nodes.length === 1 ? '' : 's'}: pick one above{matrix.hiddenNodes ? ' or type its name' : ''}.
                </p>
              </div>
            )}
            {node && (
              <>
                <NodeDetail node={{ ...node, ...writersOfNode(report, node.name) }} />
                <HydrationBoundary state={dehydrate(qc)}>
                  <BlastRadiusPanel node={node.name} />
                </HydrationBoundary>
              </>
            )}
          </div>
        </div>
      )}
    </>
  );
}
