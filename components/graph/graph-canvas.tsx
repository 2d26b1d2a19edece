'use client';

import { Background, Controls, MarkerType, ReactFlow, type Edge, type EdgeChange, type Node, type NodeChange, type ReactFlowInstance } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { viewNodeText } from '@/lib/graph/describe';
import { HEADER_SPACE, NODE_HEIGHT, NODE_WIDTH, openingViewport } from '@/lib/graph/layout';
import { TIER_LABELS } from '@/lib/graph/node-id';
import type { GraphTier, GraphView, ViewEdge } from '@/lib/graph/types';
import { NODE_TYPES, type EntityFlowNode, type HeaderFlowNode } from './graph-node';

/** The edge's class: the attack path, a grant a finding reports (orange; dashed for some of a group's), a sensitive write, or none. */
function edgeClass(e: ViewEdge): string | undefined {
  const classes = [e.onPath && 'on-path', e.flagged && 'flagged', e.partlyFlagged && 'partly-flagged', e.risky && 'risky'].filter(Boolean);
  return classes.length ? classes.join(' ') : undefined;
}

function edgeColour(e: ViewEdge): string {
  return e.onPath ? '#7c3aed' : e.flagged || e.partlyFlagged ? '#c2410c' : e.risky ? '#475569' : '#94a3b8';
}

function edgeWords(e: ViewEdge): string {
  return e.onPath
    ? ' (attack path)'
    : e.flagged
      ? ' (reported by a finding)'
      : e.partlyFlagged
        ? ` (findings report ${e.flaggedGrants.toLocaleString('en-US')} of its ${e.grants.toLocaleString('en-US')} grants)`
        : e.risky
          ? ' (risky)'
          : '';
}

/**
 * React Flow rendering of a laid-out view (positions come from lib/graph, not from the browser). It
 * opens at a readable zoom (openingViewport): a view too big for the canvas is not shrunk to fit but
 * shown around its focus, and the reader pans or zooms out.
 */
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
      position: { x, y: -HEADER_SPACE },
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
        ariaLabel: `${t.subtitle}: ${t.title}${n.pathRanks?.length ? ` (on the attack path of top risk ${n.pathRanks.map((r) => `#${r}`).join(', ')})` : n.onPath ? ' (on the attack path)' : n.risky ? ' (risky path)' : ''}`,
        className: n.onPath ? 'on-path' : undefined,
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
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
      className: edgeClass(e),
      selected: e.id === selectedEdge,
      // Paths and reported grants are drawn above the rest.
      zIndex: e.onPath ? 2 : e.flagged || e.partlyFlagged ? 1 : 0,
      markerEnd: { type: MarkerType.ArrowClosed, width: 14, height: 14, color: edgeColour(e) },
      ariaLabel: `Edge from ${title.get(e.source) ?? e.source} to ${title.get(e.target) ?? e.target}${edgeWords(e)}`,
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

  const wrapper = useRef<HTMLDivElement>(null);
  const flow = useRef<ReactFlowInstance | null>(null);
  const open = useCallback(() => {
    const el = wrapper.current;
    if (!flow.current || !el) return;
    const anchorId = view.focus ?? view.nodes.find((n) => n.onPath)?.id;
    const anchor = anchorId ? view.nodes.find((n) => n.id === anchorId) : undefined;
    void flow.current.setViewport(openingViewport(view, { width: el.clientWidth, height: el.clientHeight }, anchor));
  }, [view]);
  // Each new view opens at its own readable viewport.
  useEffect(() => open(), [open]);

  return (
    <div ref={wrapper} className="absolute inset-0" data-testid="graph-canvas">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onPaneClick={() => onSelect({})}
        onInit={(instance) => {
          flow.current = instance;
          open();
        }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        attributionPosition="bottom-left"
        // The reader may zoom out past the readable zoom the view opens at.
        minZoom={0.05}
        maxZoom={1.5}
        ariaLabelConfig={{ 'node.a11yDescription.default': 'Press Enter or Space to select this node and see its connections.' }}
      >
        <Background gap={24} color="#e2e8f0" />
        <Controls showInteractive={false} position="bottom-right" />
      </ReactFlow>
    </div>
  );
}
