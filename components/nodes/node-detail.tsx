import type { NodeReport } from '@/lib/report/types';
import { claimWritersByDriver } from '@/lib/view/node-matrix';
import { EvidenceItem } from '@/components/findings/evidence-list';
import { EmptyState, Panel } from '@/components/ui/panel';
import { RefText } from '@/components/ui/refs';
import { DriverModeTag, ModeTag } from './mode-tag';

/** Claim-status writers per driver and the status writers of one node, each with its "via". */
export function NodeDetail({ node }: { node: NodeReport }) {
  const drivers = claimWritersByDriver(node);
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <Panel
        id="claim-writers"
        title={
          <>
            Claim-status writers on <span className="font-mono">{node.name}</span>
          </>
        }
        description="Who can write status.devices of claims allocated on this node, per driver"
      >
        {drivers.length ? (
          <div className="space-y-5">
            {drivers.map((d) => (
              <section key={d.driver} aria-label={`Driver ${d.driver}`}>
                <h3 className="mb-2 font-mono text-xs font-semibold text-slate-700">{d.driver}</h3>
                <ul className="space-y-1.5">
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
        description="Expand a row for the binding, role and rule that allow it"
      >
        <ul className="divide-y divide-slate-100">
          {node.statusWriters.map((w, i) => (
            <li key={i} className="py-1.5">
              <details>
                <summary className="grid cursor-pointer list-none grid-cols-[1fr_auto] items-start gap-3 rounded py-1">
                  <RefText value={w.subject} />
                  <ModeTag mode={w.mode} scope={w.scope} />
                </summary>
                <div className="mt-2 space-y-3 pl-4">
                  {w.via.map((v, j) => (
                    <EvidenceItem key={j} evidence={v} />
                  ))}
                </div>
              </details>
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
