import { z } from 'zod';
import { SNAPSHOT_PARTS } from '@/lib/compliance/snapshot-api';
import { withApiErrors } from '@/server/http/api-errors';
import { SNAPSHOT_ID } from '@/server/compliance/snapshot-store';
import { downloadResponse, storedSnapshotPart } from '@/server/services/snapshot-downloads';

export const dynamic = 'force-dynamic';

const Params = z.object({ id: z.string().regex(SNAPSHOT_ID, 'expected a snapshot id (snap-…)'), part: z.enum(SNAPSHOT_PARTS) });

// GET /api/v1/snapshots/:id/:part – a stored snapshot's bundle, HTML, CSV, Markdown or JSON, as a download.
export const GET = withApiErrors(async (_req: Request, ctx: { params: Promise<{ id: string; part: string }> }) => {
  const { id, part } = Params.parse(await ctx.params);
  return downloadResponse(storedSnapshotPart(id, part));
});
