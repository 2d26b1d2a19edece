import { z } from 'zod';
import { ApiError, jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { assertSameOrigin } from '@/server/http/same-origin';
import { snapshotHistory, takeSnapshot } from '@/server/services/snapshots';

export const dynamic = 'force-dynamic';

// GET /api/v1/snapshots – stored snapshots, newest first.
export const GET = withApiErrors(async () => jsonResponse({ snapshots: snapshotHistory() }));

// The body is optional and takes no options yet; anything else is refused rather than ignored.
const TakeBody = z.object({}).strict();

// POST /api/v1/snapshots – bundles the current source and stores it.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  const text = await request.text();
  if (text.trim()) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new ApiError('bad_request', 'the request body must be JSON (or empty)');
    }
    TakeBody.parse(body);
  }
  return jsonResponse(await takeSnapshot(), 201);
});
