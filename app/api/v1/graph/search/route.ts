import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { searchIdentityGraph } from '@/server/services/graph';

export const dynamic = 'force-dynamic';

// GET /api/v1/graph/search?q= – identities, bindings, roles and resources whose name matches.
export const GET = withApiErrors(async (req: Request) => jsonResponse(await searchIdentityGraph(queryObject(req.url))));
