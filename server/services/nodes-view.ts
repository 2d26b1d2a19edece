import 'server-only';
import { z } from 'zod';
import type { NodeReport, Report } from '@/lib/analysis/types';
import { compareStrings } from '@/lib/k8s/refs';
import { computeBlastRadius } from '@/lib/analysis/node-writers/blast-radius';
import { buildNodeView, type NodeView } from '@/lib/view/nodes-page';
import { groupNodeWriters, pageOfGroup, type NodeWriterGroups, type WriterGroupPage } from '@/lib/view/node-writer-groups';
import { ApiError } from '@/server/http/api-errors';
import { getAnalysis, getReport } from './get-report';
import { RecentValues } from './recent-values';

// The Nodes page's data at any size: the writers grouped once per report, node names indexed for the
// picker, and one node's writers and blast radius on their own (a node switch reads only these).

interface NodesIndex {
  groups: NodeWriterGroups;
  byName: Map<string, NodeReport>;
  names: string[];
  /** The node opened when none is asked for: the most claim drivers, then the most writers of its own. */
  busiest?: string;
  /** Node views already made, most recently used last (a node switch asks for one, often again). */
  views: RecentValues<NodeView>;
}

/**
 * Node views kept per analysis. Each is bounded (~40 KB on the bench cluster) where the full blast
 * radius it summarises is not (100,000 claims); a cold one costs a few hundred ms there.
 */
export const NODE_VIEWS_KEPT = 200;

const indexes = new WeakMap<Report, NodesIndex>();

function indexOf(report: Report): NodesIndex {
  let idx = indexes.get(report);
  if (!idx) {
    const byName = new Map(report.nodes.map((n) => [n.name, n]));
    const busiest = [...report.nodes].sort(
      (a, b) => b.claimDrivers.length - a.claimDrivers.length || b.claimStatusWriters.length - a.claimStatusWriters.length || compareStrings(a.name, b.name),
    )[0];
    idx = {
      groups: groupNodeWriters(report),
      byName,
      names: [...byName.keys()].sort(compareStrings),
      busiest: busiest?.name,
      views: new RecentValues(NODE_VIEWS_KEPT),
    };
    indexes.set(report, idx);
  }
  return idx;
}

/** Node lists shorter than this are also offered as one link per node. */
export const NODE_LINKS_MAX = 12;

export interface NodesOverview {
  identities: number;
  nodeCount: number;
  busiest?: string;
  /** Every node name, on small clusters only (NODE_LINKS_MAX). */
  nodeLinks: string[];
  /** The group summaries (no rows): what the page renders before a group is opened. */
  groups: Omit<NodeWriterGroups['groups'][number], 'rows'>[];
}

export async function getNodesOverview(): Promise<NodesOverview> {
  const idx = indexOf(await getReport());
  return {
    identities: idx.groups.identities,
    nodeCount: idx.names.length,
    busiest: idx.busiest,
    nodeLinks: idx.names.length <= NODE_LINKS_MAX ? idx.names : [],
    groups: idx.groups.groups.map(({ rows: _rows, ...g }) => g),
  };
}

export const NodeSearchSchema = z.strictObject({
  q: z.string().trim().max(253, 'q is too long').optional().default(''),
  limit: z.coerce.number().int().min(1).max(50).optional().default(20),
});

/** Node names containing `q` (case-insensitive), names starting with it first. */
export async function searchNodes(input: unknown): Promise<{ total: number; matches: string[] }> {
  const { q, limit } = NodeSearchSchema.parse(input);
  const { names } = indexOf(await getReport());
  const needle = q.toLowerCase();
  const prefix: string[] = [];
  const inner: string[] = [];
  let total = 0;
  for (const name of names) {
    const at = name.toLowerCase().indexOf(needle);
    if (at < 0) continue;
    total++;
    if (at === 0) {
      if (prefix.length < limit) prefix.push(name);
    } else if (inner.length < limit) inner.push(name);
  }
  return { total, matches: [...prefix, ...inner].slice(0, limit) };
}

export const WriterGroupQuerySchema = z.strictObject({
  group: z.string().trim().min(1, 'group is required').max(100),
  offset: z.coerce.number().int().min(0).optional().default(0),
  q: z.string().trim().max(253, 'q is too long').optional().default(''),
});

/** One page of a group's identities, filtered by name. */
export async function getWriterGroupPage(input: unknown): Promise<WriterGroupPage> {
  const { group, offset, q } = WriterGroupQuerySchema.parse(input);
  const found = indexOf(await getReport()).groups.groups.find((g) => g.key === group);
  if (!found) throw new ApiError('not_found', `no writer group "${group}"`);
  return pageOfGroup(found, { offset, q });
}

/** One node's writers and blast radius, or undefined when the source has no such node. */
export async function findNodeView(name: string): Promise<NodeView | undefined> {
  const a = await getAnalysis();
  const idx = indexOf(a.report);
  const node = idx.byName.get(name);
  if (!node) return undefined;
  // Only the summary is kept: the full radius is made again when the API asks for it.
  return idx.views.get(name, () => buildNodeView(a.report, node, idx.names.length, computeBlastRadius(a.context, name, a.report)));
}

export const NodeNameSchema = z.string().trim().min(1, 'a node name is required').max(253, 'the node name is too long');

/** The Nodes page's panels of one node (GET /api/v1/nodes/:name/view): what a node switch fetches. */
export async function getNodeView(name: unknown): Promise<NodeView> {
  const wanted = NodeNameSchema.parse(name);
  const view = await findNodeView(wanted);
  if (!view) throw new ApiError('not_found', `no node named "${wanted}"`);
  return view;
}
