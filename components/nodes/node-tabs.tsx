import Link from 'next/link';
import { pages } from '@/lib/api/routes';
import { cn } from '@/components/ui/cn';

/**
 * On a small cluster, one link per node (the picker finds any node on a large one). A plain click
 * switches in place (`onChoose`); the links still open the node without JavaScript or in a new tab.
 */
export function NodeTabs({ nodes, selected, onChoose }: { nodes: string[]; selected?: string; onChoose: (name: string) => void }) {
  return (
    <nav aria-label="Node" className="flex flex-wrap items-center gap-2">
      {nodes.map((n) => (
        <Link
          key={n}
          href={pages.nodes(n)}
          scroll={false}
          aria-current={n === selected ? 'page' : undefined}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            onChoose(n);
          }}
          className={cn(
            'rounded-full border px-3 py-1 font-mono text-xs transition',
            n === selected ? 'border-teal-700 bg-teal-700 text-white' : 'border-slate-300 bg-white text-slate-700 hover:border-slate-400',
          )}
        >
          {n}
        </Link>
      ))}
    </nav>
  );
}
