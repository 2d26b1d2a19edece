'use client';

import { useEffect, useState } from 'react';
import type { ActsAs, WriterGroup, WriterGroupPage } from '@/lib/view/node-writer-groups';
import { REACH_LABEL } from '@/lib/view/node-writer-groups';
import { groupAnchor } from '@/lib/view/nodes-page';
import { cn } from '@/components/ui/cn';
import { MODE_INFO, ModeTag } from './mode-tag';
import { WriterGroupRows } from './writer-group-rows';

export type WriterGroupSummary = Omit<WriterGroup, 'rows'>;

const ACTS_AS_ORDER: ActsAs[] = ['a kubelet', 'system:masters', 'a status writer'];

/** "acts as a kubelet (3), system:masters (1), a status writer (400)": the legend's three cases, counted. */
function actsAsText(g: WriterGroupSummary): string | undefined {
  const parts = ACTS_AS_ORDER.filter((k) => g.actsAs[k]).map((k) => `${k} (${g.actsAs[k]!.toLocaleString('en-US')})`);
  return parts.length ? `acts as ${parts.join(', ')}` : undefined;
}

/**
 * The cluster's nodes/status writers grouped by how they write (mode) and how far (own node, some
 * nodes, all nodes), each group with its count; a group opens to its identities, a page at a time.
 */
export function WriterGroupsPanel({ groups, initialPages }: { groups: WriterGroupSummary[]; initialPages: Record<string, WriterGroupPage> }) {
  const [open, setOpen] = useState<Set<string>>(() => new Set(Object.keys(initialPages)));
  // A link to #writers-<group> (from a node's panel) opens that group.
  useEffect(() => {
    const fromHash = () => {
      const g = groups.find((x) => `#${groupAnchor(x.key)}` === window.location.hash);
      if (g) setOpen((s) => new Set(s).add(g.key));
    };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, [groups]);
  return (
    <ul className="divide-y divide-slate-100" aria-label="Writer groups">
      {groups.map((g) => {
        const isOpen = open.has(g.key);
        const label = `${MODE_INFO[g.mode].label}, ${REACH_LABEL[g.reach]}`;
        const acts = actsAsText(g);
        const bodyId = `${groupAnchor(g.key)}-body`;
        return (
          <li key={g.key} id={groupAnchor(g.key)} className="scroll-mt-4">
            <h3>
              <button
                type="button"
                aria-expanded={isOpen}
                aria-controls={bodyId}
                onClick={() =>
                  setOpen((s) => {
                    const next = new Set(s);
                    if (next.has(g.key)) next.delete(g.key);
                    else next.add(g.key);
                    return next;
                  })
                }
                className={cn('flex w-full flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-left hover:bg-slate-50', isOpen && 'bg-slate-50/60')}
              >
                <span aria-hidden="true" className="w-3 text-slate-400">
                  {isOpen ? '▾' : '▸'}
                </span>
                <ModeTag mode={g.mode} scope={g.reach === 'some-nodes' ? 'named' : g.reach} />
                <span className="text-sm font-semibold tabular-nums text-slate-900" data-testid="group-count">
                  {g.identities.toLocaleString('en-US')}
                </span>
                <span className="text-sm text-slate-600">{g.identities === 1 ? 'identity' : 'identities'}</span>
                {acts && <span className="text-xs text-slate-500">· {acts}</span>}
              </button>
            </h3>
            {isOpen && (
              <div id={bodyId}>
                <WriterGroupRows group={g.key} label={label} initial={initialPages[g.key]} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
