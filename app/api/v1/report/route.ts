import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { getReport } from '@/server/services/get-report';

export const dynamic = 'force-dynamic';

// GET /api/v1/report – the posture report of the current source (same JSON as `report -o json`).
export const GET = withApiErrors(async () => jsonResponse(await getReport()));
