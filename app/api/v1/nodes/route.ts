import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { searchNodes } from '@/server/services/nodes-view';

export const dynamic = 'force-dynamic';

// GET /api/v1/nodes?q=&limit= – node names containing q (the Nodes page's picker), names starting with it first.
export const GET = withApiErrors(async (req: Request) => jsonResponse(await searchNodes(queryObject(req.url))));
