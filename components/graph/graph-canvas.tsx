'use client';

import { Background, Controls, MarkerType, ReactFlow, type Edge, type EdgeChange, type Node, type NodeChange } from '@xyflow/react';
import { useCallback, useMemo } from 'react';
import { viewNodeText } from '@/lib/graph/describe';
import { NODE_WIDTH } from '@/lib/graph/layout';
import { TIER_LABELS } from '@/lib/graph/node-id';
import type { GraphTier, GraphView } from '@/lib/graph/types';
import { NODE_TYPES, type EntityFlowNode, type HeaderFlowNode } from './graph-node';

/** React Flow rendering of a laid-out view (positions come from lib/graph, not from the browser). */
export function GraphCanvas({
  view,
  selectedNode,
  selectedEdge,
  onSelect,
}: {
  view: GraphView;
  selectedNode?: string;
  selectedEdge?: string;
  onSelect: (sel: { node?: string; edge?: string }) => void;
}) {
  const nodes = useMemo<Node[]>(() => {
    const xs = new Map<GraphTier, number>();
    for (const n of view.nodes) if (!xs.has(n.tier)) xs.set(n.tier, n.x);
    const headers: HeaderFlowNode[] = [...xs].map(([tier, x]) => ({
      id: `header:${tier}`,
      type: 'header',
      position: { x, y: -44 },
      data: { label: TIER_LABELS[tier] },
      selectable: false,
      focusable: false,
      draggable: false,
    }));
    const entities: EntityFlowNode[] = view.nodes.map((n) => {
      const t = viewNodeText(n);
      return {
        id: n.id,
        type: 'entity',
        position: { x: n.x, y: n.y },
        data: { node: n, focused: view.focus === n.id },
        draggable: false,
        selected: n.id === selectedNode,
        ariaLabel: `${t.subtitle}: ${t.title}${n.risky ? ' (risky path)' : ''}`,
        width: NODE_WIDTH,
        height: 48,
      };
    });
    return [...headers, ...entities];
  }, [view, selectedNode]);

  const edges = useMemo<Edge[]>(() => {
    const title = new Map(view.nodes.map((n) => [n.id, viewNodeText(n).title]));
    return view.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      className: e.risky ? 'risky' : undefined,
      selected: e.id === selectedEdge,
      markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14, color: e.risky ? '#c2410c' : '#94a3b8' },
      ariaLabel: `Edge from ${title.get(e.source) ?? e.source} to ${title.get(e.target) ?? e.target}${e.risky ? ' (risky)' : ''}`,
      interactionWidth: 14,
    }));
  }, [view, selectedEdge]);

  // Selection is controlled: React Flow reports clicks and Enter/Space on a focused element as
  // "select" changes, which become the explorer's selection (the view itself never changes here).
  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const picked = changes.find((c) => c.type === 'select' && c.selected && !c.id.startsWith('header:'));
      if (picked && 'id' in picked) onSelect({ node: picked.id });
    },
    [onSelect],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const picked = changes.find((c) => c.type === 'select' && c.selected);
      if (picked && 'id' in picked) onSelect({ node: selectedNode, edge: picked.id });
    },
    [onSelect, selectedNode],
  );

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onPaneClick={() => onSelect({})}
      nodesDraggable={false}
      nodesConnectable={false}
      elementsSelectable
      fitView
      attributionPosition="bottom-left"
      fitViewOptions={{ padding: 0.08 }}
      minZoom={0.1}
      maxZoom={1.5}
      ariaLabelConfig={{ 'node.a11yDescription.default': 'Press Enter or Space to select this node and see its connections.' }}
    >
      <Background gap={24} color="#e2e8f0" />
      <Controls showInteractive={false} position="bottom-right" />
    </ReactFlow>
  );
}
