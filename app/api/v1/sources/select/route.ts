import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { selectSource } from '@/server/services/select-source';
import { requireAction } from '@/server/auth/require-action';

// POST /api/v1/sources/select – {"kind":"demo"} or {"kind":"context","name":"…"}: a context of the
// server's own kubeconfig, by name (kubeconfigs are never accepted from the browser).
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create sources');
  return jsonResponse({ selected: await selectSource(await readJsonBody(request)) });
});
