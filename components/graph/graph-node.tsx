'use client';

import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { viewNodeText } from '@/lib/graph/describe';
import type { ViewNode } from '@/lib/graph/types';
import { cn } from '@/components/ui/cn';

export type EntityNodeData = { node: ViewNode; focused: boolean };
export type EntityFlowNode = Node<EntityNodeData, 'entity'>;
export type HeaderFlowNode = Node<{ label: string }, 'header'>;

const KIND_ACCENT: Record<string, string> = {
  User: 'bg-sky-600',
  Group: 'bg-indigo-600',
  ServiceAccount: 'bg-cyan-700',
  ClusterRoleBinding: 'bg-slate-500',
  RoleBinding: 'bg-slate-400',
  ClusterRole: 'bg-violet-600',
  Role: 'bg-violet-400',
  Resource: 'bg-teal-700',
};

const SEV_BG: Record<string, string> = { critical: 'bg-sev-critical', high: 'bg-sev-high', medium: 'bg-sev-medium' };

/**
 * One identity, binding, role or resource, a collapsed group of them, or the "+ N more" box of a
 * paged column. Names render as text; the smallest text is 12 px (NODE_MIN_FONT_PX), so at the
 * zoom a view opens at it is at least 10 px on screen.
 */
export const EntityNode = memo(function EntityNode({ data, selected }: NodeProps<EntityFlowNode>) {
  const { node, focused } = data;
  const { title, subtitle } = viewNodeText(node);
  const more = node.hiddenBoxes !== undefined;
  const group = node.memberCount !== undefined && !more;
  return (
    <div
      className={cn(
        'relative flex h-12 w-[200px] items-stretch rounded-md border bg-white text-left shadow-sm',
        group && 'border-dashed border-slate-400 bg-slate-50',
        more && 'border-dashed border-teal-600 bg-teal-50',
        !group && !more && (node.offGraph ? 'border-dashed border-violet-400' : 'border-slate-300'),
        selected && 'ring-2 ring-teal-600 ring-offset-1',
        focused && 'ring-2 ring-teal-700',
      )}
    >
      <span aria-hidden="true" className={cn('w-1.5 shrink-0 rounded-l-[5px]', more ? 'bg-teal-600' : KIND_ACCENT[node.kind])} />
      <span className="flex min-w-0 flex-1 flex-col justify-center px-2">
        <span className={cn('truncate text-[13px] font-medium leading-tight', more ? 'text-teal-900' : 'font-mono text-slate-900')} title={title}>
          {title}
        </span>
        <span className="truncate text-[12px] leading-tight text-slate-500" title={subtitle}>
          {subtitle}
        </span>
      </span>
      {node.pathRanks?.length ? (
        // On the top edge, so the name keeps the box's width.
        <span
          className="absolute -top-2 right-2 rounded bg-violet-700 px-1 text-[12px] font-semibold leading-4 tabular-nums text-white"
          data-path-ranks={node.pathRanks.join(' ')}
          title={`Attack path of top risk ${node.pathRanks.map((r) => `#${r}`).join(', ')}`}
        >
          {node.pathRanks.map((r) => `#${r}`).join(' ')}
        </span>
      ) : null}
      {node.worstFinding && (node.worstFinding === 'critical' || node.worstFinding === 'high' || node.worstFinding === 'medium') && (
        <span
          title={`${node.findingCount ?? 1} finding(s), worst ${node.worstFinding}`}
          className={cn('mr-1.5 self-center rounded-full px-1.5 text-[12px] font-bold leading-4 tabular-nums text-white', SEV_BG[node.worstFinding])}
        >
          {node.findingCount ?? 1}
        </span>
      )}
      {node.tier > 0 && <Handle type="target" position={Position.Left} isConnectable={false} className="!size-1.5 !border-0 !bg-slate-400" />}
      {node.tier < 3 && <Handle type="source" position={Position.Right} isConnectable={false} className="!size-1.5 !border-0 !bg-slate-400" />}
    </div>
  );
});

export const HeaderNode = memo(function HeaderNode({ data }: NodeProps<HeaderFlowNode>) {
  return <div className="w-[200px] text-[13px] font-semibold uppercase tracking-wide text-slate-500">{data.label}</div>;
});

export const NODE_TYPES = { entity: EntityNode, header: HeaderNode };
