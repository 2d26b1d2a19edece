import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { buildRole } from '@/server/role-builder/role-builder-service';
import { requireAction } from '@/server/auth/require-action';

export const dynamic = 'force-dynamic';

// POST /api/v1/role-builder/build – body: {persona, identity, drivers, namespace?, customRules?}. Builds and
// validates a least-privilege bundle against the current cluster; changes nothing.
export const POST = withApiErrors(async (request: Request) => {
  await requireAction(request, 'create simulations');
  return jsonResponse(await buildRole(await readJsonBody(request)));
});
