import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { getWriterGroupPage } from '@/server/services/nodes-view';

export const dynamic = 'force-dynamic';

// GET /api/v1/node-writers?group=<mode>/<reach>&offset=&q= – one page of the identities that write
// nodes/status in that way (the Nodes page's grouped matrix), filtered by name.
export const GET = withApiErrors(async (req: Request) => jsonResponse(await getWriterGroupPage(queryObject(req.url))));
