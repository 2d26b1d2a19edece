import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { simulate } from '@/server/services/simulate';
import { requireAction } from '@/server/auth/require-action';

export const dynamic = 'force-dynamic';

// POST /api/v1/simulate {user, groups, node, verb, subresource, object, old} – would this write be
// accepted: impersonation, authorization, NodeRestriction, escalation and DRA status checks. Reads
// only: nothing is sent to the cluster.
export const POST = withApiErrors(async (req: Request) => {
  await requireAction(req, 'create simulations');
  return jsonResponse(await simulate(await readJsonBody(req, 128 * 1024)));
});
