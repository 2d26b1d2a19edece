import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { decideRole, listApprovals } from '@/server/role-builder/role-builder-service';
import { requireAction } from '@/server/auth/require-action';

export const dynamic = 'force-dynamic';

// GET /api/v1/role-builder/approvals – the decision history, newest first.
export const GET = withApiErrors(async () => jsonResponse(await listApprovals()));

// POST /api/v1/role-builder/approvals – body: {build, yamlSha256, decision, approver, comment}. Same-origin only.
// Signed in (serve --auth kubernetes), the approver is the authenticated user and `approver` is ignored.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  const signedIn = await requireAction(request, 'create approvals');
  return jsonResponse(await decideRole(await readJsonBody(request), signedIn), 201);
});
