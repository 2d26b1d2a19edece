import { z } from 'zod';
import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { snapshotHistory } from '@/server/services/snapshots';
import { snapshotTakes, startSnapshotTake } from '@/server/services/snapshot-takes';
import { requireAction } from '@/server/auth/require-action';

export const dynamic = 'force-dynamic';

// GET /api/v1/snapshots – stored snapshots, newest first, and the takes running, failed or just stored.
export const GET = withApiErrors(async () => jsonResponse({ snapshots: snapshotHistory(), takes: snapshotTakes() }));

// The body is optional and takes no options yet; anything else is refused rather than ignored.
const TakeBody = z.object({}).strict();

// POST /api/v1/snapshots – starts taking a snapshot of the current source: 202 with the take once
// it can be compared; its bundle is stored in the background (the list shows its progress).
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create snapshots');
  const body = await readJsonBody(request, undefined, { allowEmpty: true });
  if (body !== undefined) TakeBody.parse(body);
  return jsonResponse((await startSnapshotTake()).take, 202);
});
