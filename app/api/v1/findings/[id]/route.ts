import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { getFinding } from '@/server/services/get-report';

export const dynamic = 'force-dynamic';

// GET /api/v1/findings/:id – one finding with its evidence and remediation.
export const GET = withApiErrors(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  return jsonResponse(await getFinding(id));
});
