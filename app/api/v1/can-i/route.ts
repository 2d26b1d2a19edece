import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { canI } from '@/server/services/access';

export const dynamic = 'force-dynamic';

// GET /api/v1/can-i?verb=&resource=&subresource=&namespace=&name=&user=&groups=&node= – yes/no with the reason.
export const GET = withApiErrors(async (req: Request) => jsonResponse(await canI(queryObject(req.url, ['groups']))));
