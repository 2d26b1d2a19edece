import Link from 'next/link';
import { REACH_LABEL } from '@/lib/view/node-writer-groups';
import { groupAnchor, type NodeView } from '@/lib/view/nodes-page';
import { EmptyState, Panel } from '@/components/ui/panel';
import { RefText } from '@/components/ui/refs';
import { DriverModeTag, MODE_INFO, ModeTag } from './mode-tag';
import { WriterRow } from './writer-row';

/** Claim-status writers per driver and the status writers of one node, each with its "why". */
export function NodeDetail({ node }: { node: Omit<NodeView, 'blastRadius'> }) {
  return (
    <div className="grid gap-6 xl:grid-cols-[2fr_3fr]">
      <Panel
        id="claim-writers"
        title={
          <>
            Claim-status writers on <span className="font-mono">{node.name}</span>
          </>
        }
        description="Who can write status.devices of claims allocated on this node, per driver"
      >
        {node.claimWriters.length ? (
          <div className="space-y-5">
            {node.claimWriters.map((d) => (
              <section key={d.driver} aria-label={`Driver ${d.driver}`}>
                <h3 className="mb-2 font-mono text-xs font-semibold text-slate-700">
                  {d.driver} <span className="font-sans font-normal text-slate-500">({d.writers.length})</span>
                </h3>
                <ul className="max-h-96 space-y-1.5 overflow-y-auto">
                  {d.writers.map((w, i) => (
                    <li key={i} className="grid grid-cols-[1fr_auto] items-start gap-3">
                      <RefText value={w.subject} />
                      <DriverModeTag mode={w.mode} />
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>
        ) : (
          <EmptyState title="No claim-status writers">No claims with a driver are allocated on this node, or nobody can write their status.</EmptyState>
        )}
      </Panel>
      <Panel
        id="status-writers"
        title={
          <>
            nodes/status writers of <span className="font-mono">{node.name}</span>
          </>
        }
        description={`${node.statusWriters.identities.toLocaleString('en-US')} identities, grouped as in the matrix below; "Why" names the binding, role and rule`}
        bodyClassName="p-0"
      >
        <ul className="divide-y divide-slate-100">
          {node.statusWriters.groups.map((g) => {
            const label = `${MODE_INFO[g.mode].label}, ${REACH_LABEL[g.reach]}`;
            const more = g.identities - g.rows.reduce((n, r) => n + r.identities, 0);
            return (
              <li key={g.key} className="px-4 py-3">
                <h3 className="flex flex-wrap items-center gap-2">
                  <ModeTag mode={g.mode} scope={g.reach === 'some-nodes' ? 'named' : g.reach} />
                  <span className="text-sm font-semibold tabular-nums text-slate-900">{g.identities.toLocaleString('en-US')}</span>
                  <span className="text-sm text-slate-600">{g.identities === 1 ? 'identity' : 'identities'}</span>
                </h3>
                <div className="overflow-x-auto">
                  <table className="mt-1 w-full min-w-[34rem] text-left text-sm" aria-label={`${label} of ${node.name}`}>
                    <tbody className="divide-y divide-slate-100">
                      {g.rows.map((row) => (
                        <WriterRow key={row.key} row={row} />
                      ))}
                    </tbody>
                  </table>
                </div>
                {more > 0 && (
                  <p className="mt-1 text-xs text-slate-600">
                    and {more.toLocaleString('en-US')} more:{' '}
                    <Link href={`#${groupAnchor(g.key)}`} className="text-teal-800 underline">
                      every one in the matrix below
                    </Link>
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </Panel>
    </div>
  );
}
