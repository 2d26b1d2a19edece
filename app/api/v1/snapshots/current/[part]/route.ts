import { z } from 'zod';
import { SNAPSHOT_PARTS } from '@/lib/compliance/snapshot-api';
import { withApiErrors } from '@/server/http/api-errors';
import { currentSourcePart, downloadResponse } from '@/server/services/snapshot-downloads';

export const dynamic = 'force-dynamic';

const Params = z.object({ part: z.enum(SNAPSHOT_PARTS) });

// GET /api/v1/snapshots/current/:part – the current source exported now (not stored), as a download.
export const GET = withApiErrors(async (_req: Request, ctx: { params: Promise<{ part: string }> }) => {
  const { part } = Params.parse(await ctx.params);
  return downloadResponse(await currentSourcePart(part));
});
