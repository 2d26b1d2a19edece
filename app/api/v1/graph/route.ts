import { jsonResponse, queryObject, withApiErrors } from '@/server/http/api-errors';
import { getGraphView } from '@/server/services/graph';

export const dynamic = 'force-dynamic';

// GET /api/v1/graph?focus=&expand=&all=1&risky=1&path=ISSUE&view=overview&show=TIER:N&draw=N&confirmAbove=N – the identity graph view, collapsed and
// laid out (default: the top risks' attack paths; path: an issue's attack path highlighted; above the box threshold only the count, until draw=N agrees).
export const GET = withApiErrors(async (req: Request) => jsonResponse(await getGraphView(queryObject(req.url, ['expand', 'show']))));
