import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { getGraphView } from '@/server/services/graph';

export const dynamic = 'force-dynamic';

// GET /api/v1/graph?focus=&expand=&all=1&risky=1&path=ISSUE – the identity graph view, collapsed and laid out (path: an issue's attack path highlighted).
export const GET = withApiErrors(async (req: Request) => jsonResponse(await getGraphView(queryObject(req.url, ['expand']))));
