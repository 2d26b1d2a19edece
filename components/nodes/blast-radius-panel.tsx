import type { BlastSummary, DriverCount } from '@/lib/view/node-blast-summary';
import { Panel, Stat } from '@/components/ui/panel';
import { RefText } from '@/components/ui/refs';

const n = (x: number) => x.toLocaleString('en-US');

function byDriver(counts: DriverCount[]): string {
  return counts.map((c) => `${n(c.count)} ${c.driver}`).join(', ');
}

/** If this node is compromised: its kubelet and every pod token on it, and what they can write. */
export function BlastRadiusPanel({ radius }: { radius: BlastSummary }) {
  const node = radius.node;
  const reachable = radius.identities.filter((id) => id.statusNodeCount > 0 || id.claimCount > 0);
  const idle = radius.identities.length - reachable.length;
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
      <div className="space-y-5">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Stat label="Credentials on node" value={radius.identities.length} />
          <Stat
            label="Other nodes' status"
            value={radius.allNodes ? 'all' : radius.otherNodeCount}
            hint={
              radius.allNodes
                ? `every node in the cluster (${n(radius.otherNodeCount + 1)})`
                : radius.otherNodes.join(', ') + (radius.otherNodeCount > radius.otherNodes.length ? ', …' : '') || 'none'
            }
          />
          <Stat
            label="Claims writable"
            value={radius.claimCount}
            hint={radius.claimCount ? `status.devices: ${byDriver(radius.claimsByDriver)}` : 'status.devices, any driver'}
          />
        </div>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
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
              {reachable.map((id, i) => (
                <tr key={i} className="align-top">
                  <td className="py-2 pr-3">
                    <RefText value={id.subject} />
                  </td>
                  <td className="px-3 py-2 text-xs">
                    {id.allNodes ? (
                      <span className="font-semibold text-orange-800">every node ({n(id.statusNodeCount)})</span>
                    ) : id.statusNodeCount ? (
                      <span className="font-mono text-slate-700">
                        {id.statusNodes.join(', ')}
                        {id.statusNodeCount > id.statusNodes.length ? ` and ${n(id.statusNodeCount - id.statusNodes.length)} more` : ''}
                      </span>
                    ) : (
                      <span className="text-slate-500">none</span>
                    )}
                  </td>
                  <td className="px-3 py-2 text-xs">
                    {id.claimCount ? (
                      <details>
                        <summary className="cursor-pointer text-slate-700">
                          {n(id.claimCount)} claim{id.claimCount === 1 ? '' : 's'}
                          {id.anyNodeClaims ? ' (incl. other nodes)' : ''}: {byDriver(id.claimsByDriver)}
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
                          {id.claimCount > id.claims.length && <li className="font-sans text-slate-500">and {n(id.claimCount - id.claims.length)} more</li>}
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
          {idle > 0 && (
            <p className="mt-2 text-xs text-slate-500">
              {n(idle)} other service account{idle === 1 ? '' : 's'} on the node can write neither nodes/status nor claim status.
            </p>
          )}
        </div>
      </div>
    </Panel>
  );
}
