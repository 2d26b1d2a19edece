import 'server-only';
import { z } from 'zod';
import type { GraphResponse, GraphSearchResponse } from '@/lib/api/dto';
import { buildGraphView, countViewBoxes, nodeIndex, searchGraph } from '@/lib/graph/view';
import { buildTopRisksView, topRiskPaths } from '@/lib/graph/top-risks-view';
import type { GraphTier, GraphViewOptions } from '@/lib/graph/types';
import { topRisks } from '@/lib/view/overview';
import { ApiError } from '@/server/http/api-errors';
import { attackPathNodeIds } from '@/lib/graph/attack-path-nodes';
import { getIdentityGraph, getReport } from './get-report';

const count = z.string().regex(/^\d{1,7}$/, 'must be a whole number');

export const GraphQuerySchema = z.strictObject({
  focus: z.string().max(1100).optional(),
  expand: z.array(z.string().max(400)).max(500).optional(),
  all: z.enum(['1', 'true', '0', 'false']).optional(),
  risky: z.enum(['1', 'true', '0', 'false']).optional(),
  path: z
    .string()
    .regex(/^[0-9a-f]{16}$/, 'path must be an issue ID (16 hex digits)')
    .optional(),
  /** `overview`: every path collapsed by namespace instead of the top risks' paths. */
  view: z.enum(['overview', 'top-risks']).optional(),
  /** `TIER:BOXES`: how many boxes a paged column of a focused view shows. */
  show: z
    .array(z.string().regex(/^[0-2]:\d{1,6}$/, 'show must be TIER:BOXES'))
    .max(3)
    .optional(),
  /** The reader agreed to draw this many boxes (the view asks first above the threshold). */
  draw: count.optional(),
  /** Ask above this many boxes instead of the server's threshold (only lower: tests and cautious readers). */
  confirmAbove: count.optional(),
});

/** Views with more boxes than this ask before they are drawn (DRA_POSTURE_GRAPH_CONFIRM_BOXES overrides). */
export const DEFAULT_CONFIRM_BOXES = 1500;

/** How many top risks the default view draws: the overview's top risks. */
export const TOP_RISKS_DRAWN = 5;

function confirmThreshold(asked: string | undefined): number {
  const env = Number(process.env.DRA_POSTURE_GRAPH_CONFIRM_BOXES);
  const server = Number.isInteger(env) && env > 0 ? env : DEFAULT_CONFIRM_BOXES;
  return asked === undefined ? server : Math.max(1, Math.min(server, Number(asked)));
}

const yes = (v: string | undefined) => v === '1' || v === 'true';

/**
 * The identity graph as the page draws it: by default the top risks' attack paths; otherwise
 * focused, collapsed, paged and laid out, or, when it would draw more boxes than the threshold and
 * the reader has not agreed to that many, only the count (`confirm`), computed without laying out.
 */
export async function getGraphView(input: unknown): Promise<GraphResponse> {
  const q = GraphQuerySchema.parse(input);
  const model = await getIdentityGraph();
  const explicit = q.focus || q.path || q.expand?.length || yes(q.all) || yes(q.risky) || q.show?.length;
  if (!explicit && q.view !== 'overview') {
    const report = await getReport();
    const risks = topRiskPaths(
      topRisks(report.issues, TOP_RISKS_DRAWN).map((r) => r.issue),
      report.attackPaths,
    );
    // Nothing to draw (no top risk has a path with a grant): the overview, which says so.
    if (risks.some((r) => r.nodeIds.length > 0)) return buildTopRisksView(model, risks);
    return { ...buildGraphView(model), topRisks: risks };
  }
  let path: string[] | undefined;
  if (q.path) {
    const attackPath = (await getReport()).attackPaths.find((p) => p.issueId === q.path);
    if (!attackPath) throw new ApiError('not_found', `no attack path for issue "${q.path}"`);
    path = attackPathNodeIds(attackPath);
  }
  if (q.focus && !nodeIndex(model).has(q.focus)) throw new ApiError('not_found', 'the focused node is not in the identity graph');
  const options: GraphViewOptions = {
    focus: q.focus || undefined,
    expand: q.expand,
    expandAll: yes(q.all),
    riskyOnly: yes(q.risky),
    path,
    show: showOption(q.show),
  };
  const threshold = confirmThreshold(q.confirmAbove);
  const boxes = countViewBoxes(model, options);
  if (boxes > threshold && boxes > Number(q.draw ?? 0)) {
    return {
      nodes: [],
      edges: [],
      focus: options.focus ?? path?.[0] ?? null,
      path: path ?? [],
      totalNodes: model.nodes.length,
      subgraphNodes: boxes,
      width: 0,
      height: 0,
      mode: options.focus ? 'focus' : path ? 'path' : 'overview',
      confirm: { boxes, threshold },
    };
  }
  return buildGraphView(model, options);
}

function showOption(show: readonly string[] | undefined): GraphViewOptions['show'] {
  if (!show?.length) return undefined;
  const out: Partial<Record<GraphTier, number>> = {};
  for (const s of show) {
    const [tier, n] = s.split(':').map(Number);
    out[tier as GraphTier] = n;
  }
  return out;
}

export const GraphSearchSchema = z.strictObject({ q: z.string().max(200).optional().default('') });

export async function searchIdentityGraph(input: unknown): Promise<GraphSearchResponse> {
  const { q } = GraphSearchSchema.parse(input);
  return { hits: searchGraph(await getIdentityGraph(), q) };
}
