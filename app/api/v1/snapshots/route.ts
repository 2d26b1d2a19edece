import { z } from 'zod';
import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { snapshotHistory, takeSnapshot } from '@/server/services/snapshots';
import { requireAction } from '@/server/auth/require-action';

export const dynamic = 'force-dynamic';

// GET /api/v1/snapshots – stored snapshots, newest first.
export const GET = withApiErrors(async () => jsonResponse({ snapshots: snapshotHistory() }));

// The body is optional and takes no options yet; anything else is refused rather than ignored.
const TakeBody = z.object({}).strict();

// POST /api/v1/snapshots – bundles the current source and stores it.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create snapshots');
  const body = await readJsonBody(request, undefined, { allowEmpty: true });
  if (body !== undefined) TakeBody.parse(body);
  return jsonResponse(await takeSnapshot(), 201);
});
