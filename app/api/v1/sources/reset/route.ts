import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { assertSameOrigin } from '@/server/http/same-origin';
import { clearUploadedSnapshot } from '@/server/services/uploaded-source';

// POST /api/v1/sources/reset – back to the source the server was started with.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  clearUploadedSnapshot();
  return jsonResponse({ ok: true });
});
