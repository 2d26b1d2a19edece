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

/** One identity, binding, role or resource (or a collapsed group of them). Names render as text. */
export const EntityNode = memo(function EntityNode({ data, selected }: NodeProps<EntityFlowNode>) {
  const { node, focused } = data;
  const { title, subtitle } = viewNodeText(node);
  const group = node.memberCount !== undefined;
  return (
    <div
      className={cn(
        'flex h-12 w-[232px] items-stretch overflow-hidden rounded-md border bg-white text-left shadow-sm',
        group ? 'border-dashed border-slate-400 bg-slate-50' : 'border-slate-300',
        selected && 'ring-2 ring-teal-600 ring-offset-1',
        focused && 'ring-2 ring-teal-700',
      )}
    >
      <span aria-hidden="true" className={cn('w-1.5 shrink-0', KIND_ACCENT[node.kind])} />
      <span className="flex min-w-0 flex-1 flex-col justify-center px-2.5">
        <span className="truncate font-mono text-[12px] font-medium text-slate-900" title={title}>
          {title}
        </span>
        <span className="truncate text-[10.5px] text-slate-500">{subtitle}</span>
      </span>
      {node.worstFinding && (node.worstFinding === 'critical' || node.worstFinding === 'high' || node.worstFinding === 'medium') && (
        <span
          title={`${node.findingCount ?? 1} finding(s), worst ${node.worstFinding}`}
          className={cn('mr-2 self-center rounded-full px-1.5 text-[10px] font-bold tabular-nums text-white', SEV_BG[node.worstFinding])}
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
  return <div className="w-[232px] text-xs font-semibold uppercase tracking-wide text-slate-500">{data.label}</div>;
});

export const NODE_TYPES = { entity: EntityNode, header: HeaderNode };
