import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import type { NodeMatrix } from '@/lib/view/node-matrix';
import { NODE_AUTHORIZER_ROW } from '@/lib/view/node-matrix';
import { cn } from '@/components/ui/cn';
import { RefText } from '@/components/ui/refs';
import { ModeTag } from './mode-tag';

/** Reporter × node: which identity can write which node's nodes/status, and how. */
export function NodeMatrixTable({ matrix, selected }: { matrix: NodeMatrix; selected?: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-separate border-spacing-0 text-sm" aria-describedby="matrix-help">
        <caption className="sr-only">Identities that can write nodes/status, per node</caption>
        <thead>
          <tr>
            <th
              scope="col"
              className="sticky left-0 z-10 border-b border-slate-200 bg-white px-4 py-2 text-left text-xs font-medium uppercase tracking-wide text-slate-500"
            >
              Identity
            </th>
            {matrix.nodes.map((n) => (
              <th key={n} scope="col" className={cn('border-b border-slate-200 px-2 py-2 text-center text-xs font-medium', n === selected ? 'bg-teal-50' : '')}>
                <Link
                  // To the node's panels below the matrix, which a long matrix can push far down.
                  href={`${pages.nodes(n)}#node-detail`}
                  className="font-mono text-slate-700 hover:text-teal-800 hover:underline"
                  aria-current={n === selected ? 'true' : undefined}
                >
                  {n}
                </Link>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.rows.map((row) => (
            <tr key={row.key} className="hover:bg-slate-50/70">
              <th scope="row" className="sticky left-0 z-10 min-w-[16rem] max-w-[22rem] border-b border-slate-100 bg-white px-4 py-2 text-left font-normal">
                {row.subject ? (
                  <RefText value={row.subject} />
                ) : (
                  <span className="text-slate-600">{row.key === NODE_AUTHORIZER_ROW ? row.label : row.label}</span>
                )}
              </th>
              {row.uniform ? (
                // One cell across the row: the same writer on every node, said once.
                <td colSpan={matrix.nodes.length} className="border-b border-slate-100 bg-slate-50/40 px-3 py-2">
                  <span className="inline-flex items-center gap-2">
                    {(row.cells[matrix.nodes[0]] ?? []).map((c, i) => (
                      <ModeTag key={i} mode={c.mode} scope={c.scope} />
                    ))}
                    <span className="text-xs text-slate-600">{row.nodeCount.toLocaleString('en-US')} nodes</span>
                  </span>
                </td>
              ) : (
                matrix.nodes.map((n) => {
                  const cells = row.cells[n];
                  return (
                    <td key={n} className={cn('border-b border-slate-100 px-2 py-2 text-center', n === selected ? 'bg-teal-50/60' : '')}>
                      {cells ? (
                        <span className="inline-flex flex-wrap justify-center gap-1">
                          {cells.map((c, i) => (
                            <ModeTag key={i} mode={c.mode} scope={c.scope} compact />
                          ))}
                        </span>
                      ) : (
                        <span className="text-slate-300">
                          <span aria-hidden="true">·</span>
                          <span className="sr-only">no</span>
                        </span>
                      )}
                    </td>
                  );
                })
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
