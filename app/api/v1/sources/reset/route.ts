import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { assertSameOrigin } from '@/server/http/same-origin';
import { setSourceSelection } from '@/server/services/source-selection';
import { clearUploadedSnapshot } from '@/server/services/uploaded-source';
import { requireAction } from '@/server/auth/require-action';

// POST /api/v1/sources/reset – back to the source the server was started with.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create sources');
  clearUploadedSnapshot();
  setSourceSelection(undefined);
  return jsonResponse({ ok: true });
});
