import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { whoCan } from '@/server/services/access';

export const dynamic = 'force-dynamic';

// GET /api/v1/who-can?verb=&resource=&subresource=&namespace=&name= – every subject allowed, with the binding and role.
export const GET = withApiErrors(async (req: Request) => jsonResponse(await whoCan(queryObject(req.url))));
