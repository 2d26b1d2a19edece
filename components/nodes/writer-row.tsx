import type { GroupedWriter } from '@/lib/view/node-writer-groups';
import { EvidenceItem } from '@/components/findings/evidence-list';
import { RefText } from '@/components/ui/refs';
import { ModeTag } from './mode-tag';

/** Where a writer reaches: every node, or how many and which. */
export function NodesReached({ row }: { row: GroupedWriter }) {
  if (row.everyNode) return <span className="font-semibold text-orange-800">all {row.nodeCount.toLocaleString('en-US')} nodes</span>;
  const more = row.nodeCount - row.nodes.length;
  return (
    <span className="text-slate-700">
      <span className="font-medium">
        {row.nodeCount.toLocaleString('en-US')} node{row.nodeCount === 1 ? '' : 's'}
      </span>
      {row.subject && row.nodes.length > 0 && (
        <span className="font-mono text-xs text-slate-600">
          : {row.nodes.join(', ')}
          {more > 0 ? `, and ${more.toLocaleString('en-US')} more` : ''}
        </span>
      )}
    </span>
  );
}

/** Every way an identity writes nodes/status; for impersonation, whom it acts as. */
export function WriterWays({ row }: { row: GroupedWriter }) {
  return (
    <ul className="space-y-1">
      {row.ways.map((w) => (
        <li key={`${w.mode}|${w.scope}`} className="flex flex-wrap items-center gap-x-2 gap-y-0.5">
          <ModeTag mode={w.mode} scope={w.scope} />
          {w.target && <span className="text-xs text-slate-600">as {w.target}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Who writes (one identity, or a collapsed set of them) and, on demand, the binding, role and rule. */
export function WriterIdentity({ row }: { row: GroupedWriter }) {
  return (
    <>
      {row.subject ? <RefText value={row.subject} /> : <span className="text-slate-700">{row.label}</span>}
      {row.identities > 1 && <span className="ml-1 text-xs text-slate-500">({row.identities.toLocaleString('en-US')} identities)</span>}
      {row.via.length > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-xs text-teal-800">Why</summary>
          <div className="mt-2 space-y-3">
            {row.via.map((v, j) => (
              <EvidenceItem key={j} evidence={v} />
            ))}
          </div>
        </details>
      )}
    </>
  );
}

/** One identity of a writer group: who, how, where, and (on demand) the binding, role and rule. */
export function WriterRow({ row }: { row: GroupedWriter }) {
  return (
    <tr className="align-top">
      <th scope="row" className="w-2/5 py-2 pr-3 text-left font-normal">
        <WriterIdentity row={row} />
      </th>
      <td className="px-3 py-2">
        <WriterWays row={row} />
      </td>
      <td className="w-1/4 px-3 py-2 text-xs">
        <NodesReached row={row} />
      </td>
    </tr>
  );
}
