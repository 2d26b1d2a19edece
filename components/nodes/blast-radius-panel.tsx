'use client';

import { useQuery } from '@tanstack/react-query';
import { blastRadiusQuery } from '@/components/query/queries';
import { ErrorPanel } from '@/components/ui/error-panel';
import { Panel, Stat } from '@/components/ui/panel';
import { RefText } from '@/components/ui/refs';
import { Skeleton } from '@/components/ui/skeleton';

/** If this node is compromised: its kubelet and every pod token on it, and what they can write. */
export function BlastRadiusPanel({ node }: { node: string }) {
  const { data, error, isPending, refetch } = useQuery(blastRadiusQuery(node));
  return (
    <Panel
      id="blast-radius"
      title={
        <>
          Blast radius if <span className="font-mono">{node}</span> is compromised
        </>
      }
      description="The kubelet credentials and the service-account tokens of every pod on the node, and what they can write beyond it"
    >
      {isPending ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading blast radius…</span>
          <Skeleton className="h-16" />
          <Skeleton className="h-32" />
        </div>
      ) : error ? (
        <ErrorPanel title="Blast radius could not be computed" message={error.message} onRetry={() => refetch()} />
      ) : (
        <div className="space-y-5">
          <div className="grid grid-cols-3 gap-3">
            <Stat label="Credentials on node" value={data.identities.length} />
            <Stat
              label="Other nodes' status"
              value={data.allNodes ? 'all' : data.otherNodes.length}
              hint={data.allNodes ? 'every node in the cluster' : data.otherNodes.join(', ') || 'none'}
            />
            <Stat label="Claims writable" value={data.claims.length} hint="status.devices, any driver" />
          </div>
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Identities exposed on {node}</caption>
              <thead className="border-b border-slate-200 text-xs uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Identity
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Can write nodes/status of
                  </th>
                  <th scope="col" className="px-3 py-2 font-medium">
                    Claims (status.devices)
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.identities.map((id, i) => (
                  <tr key={i} className="align-top">
                    <td className="py-2 pr-3">
                      <RefText value={id.subject} />
                    </td>
                    <td className="px-3 py-2 text-xs">
                      {id.allNodes ? (
                        <span className="font-semibold text-orange-800">every node</span>
                      ) : id.statusNodes.length ? (
                        <span className="font-mono text-slate-700">{id.statusNodes.join(', ')}</span>
                      ) : (
                        <span className="text-slate-500">none</span>
                      )}
                    </td>
                    <td className="px-3 py-2 text-xs">
                      {id.claims.length ? (
                        <details>
                          <summary className="cursor-pointer text-slate-700">
                            {id.claims.length} claim{id.claims.length === 1 ? '' : 's'}
                            {id.claims.some((c) => c.mode === 'arbitrary-node') ? ' (incl. other nodes)' : ''}
                          </summary>
                          <ul className="mt-1 space-y-0.5 font-mono text-slate-600">
                            {id.claims.map((c, j) => (
                              <li key={j}>
                                {c.namespace}/{c.name}{' '}
                                <span className="text-slate-500">
                                  ({c.driver}, {c.mode})
                                </span>
                              </li>
                            ))}
                          </ul>
                        </details>
                      ) : (
                        <span className="text-slate-500">none</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Panel>
  );
}
