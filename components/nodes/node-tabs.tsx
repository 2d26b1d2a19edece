import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import { cn } from '@/components/ui/cn';

/** Picks the node shown in detail (kept in the URL). */
export function NodeTabs({ nodes, selected, hiddenNodes = 0 }: { nodes: string[]; selected?: string; hiddenNodes?: number }) {
  return (
    <nav aria-label="Node" className="flex flex-wrap items-center gap-2">
      <span className="mr-1 text-xs font-medium uppercase tracking-wide text-slate-500">Node</span>
      {nodes.map((n) => (
        <Link
          key={n}
          href={pages.nodes(n)}
          scroll={false}
          aria-current={n === selected ? 'page' : undefined}
          className={cn(
            'rounded-full border px-3 py-1 font-mono text-xs transition',
            n === selected ? 'border-teal-700 bg-teal-700 text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400',
          )}
        >
          {n}
        </Link>
      ))}
      {hiddenNodes > 0 && (
        // Thousands of nodes do not fit as tabs: any node by name.
        <form method="get" action="#node-detail" className="ml-2 flex items-center gap-2">
          <label htmlFor="node-name" className="text-xs text-slate-600">
            {hiddenNodes} more — node name
          </label>
          <input id="node-name" name="node" required className="w-48 rounded border border-slate-300 px-2 py-1 font-mono text-xs" />
          <button type="submit" className="rounded border border-slate-300 bg-white px-2 py-1 text-xs text-slate-700 hover:border-slate-400">
            Show
          </button>
        </form>
      )}
    </nav>
  );
}
