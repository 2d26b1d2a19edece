import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { decideRole, listApprovals } from '@/server/role-builder/role-builder-service';

export const dynamic = 'force-dynamic';

// GET /api/v1/role-builder/approvals – the decision history, newest first.
export const GET = withApiErrors(async () => jsonResponse(await listApprovals()));

// POST /api/v1/role-builder/approvals – body: {build, yamlSha256, decision, approver, comment}. Same-origin only.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  return jsonResponse(await decideRole(await readJsonBody(request)), 201);
});
