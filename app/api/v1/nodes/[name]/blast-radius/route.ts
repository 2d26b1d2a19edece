import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { getBlastRadius } from '@/server/services/get-report';

export const dynamic = 'force-dynamic';

// GET /api/v1/nodes/:name/blast-radius – what this node's kubelet and pod credentials could write.
export const GET = withApiErrors(async (_req: Request, ctx: { params: Promise<{ name: string }> }) => {
  const { name } = await ctx.params;
  return jsonResponse(await getBlastRadius(name));
});
