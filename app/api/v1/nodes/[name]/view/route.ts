import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { getNodeView } from '@/server/services/nodes-view';

export const dynamic = 'force-dynamic';

// GET /api/v1/nodes/:name/view – the Nodes page's panels of one node: its writers (a few per group)
// and its blast radius in counts. A node switch fetches this, not the whole page.
export const GET = withApiErrors(async (_req: Request, ctx: { params: Promise<{ name: string }> }) => {
  const { name } = await ctx.params;
  return jsonResponse(await getNodeView(name));
});
