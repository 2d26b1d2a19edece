import 'server-only';
import { z } from 'zod';
import type { GraphResponse, GraphSearchResponse } from '@/lib/api/dto';
import { buildGraphView, searchGraph } from '@/lib/graph/view';
import { ApiError } from '@/server/http/api-errors';
import { attackPathNodeIds } from '@/lib/graph/attack-path-nodes';
import { getIdentityGraph, getReport } from './get-report';

export const GraphQuerySchema = z.strictObject({
  focus: z.string().max(1100).optional(),
  expand: z.array(z.string().max(400)).max(500).optional(),
  all: z.enum(['1', 'true', '0', 'false']).optional(),
  risky: z.enum(['1', 'true', '0', 'false']).optional(),
  path: z
    .string()
    .regex(/^[0-9a-f]{16}$/, 'path must be an issue ID (16 hex digits)')
    .optional(),
});

const yes = (v: string | undefined) => v === '1' || v === 'true';

/** The identity graph as the page draws it: focused, collapsed, laid out. */
export async function getGraphView(input: unknown): Promise<GraphResponse> {
  const q = GraphQuerySchema.parse(input);
  const model = await getIdentityGraph();
  let path: string[] | undefined;
  if (q.path) {
    const attackPath = (await getReport()).attackPaths.find((p) => p.issueId === q.path);
    if (!attackPath) throw new ApiError('not_found', `no attack path for issue "${q.path}"`);
    path = attackPathNodeIds(attackPath);
  }
  if (q.focus && !model.nodes.some((n) => n.id === q.focus)) throw new ApiError('not_found', 'the focused node is not in the identity graph');
  return buildGraphView(model, { focus: q.focus || undefined, expand: q.expand, expandAll: yes(q.all), riskyOnly: yes(q.risky), path });
}

export const GraphSearchSchema = z.strictObject({ q: z.string().max(200).optional().default('') });

export async function searchIdentityGraph(input: unknown): Promise<GraphSearchResponse> {
  const { q } = GraphSearchSchema.parse(input);
  return { hits: searchGraph(await getIdentityGraph(), q) };
}
