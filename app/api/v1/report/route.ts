import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { getAnalysis } from '@/server/services/get-report';

export const dynamic = 'force-dynamic';

// GET /api/v1/report – the posture report of the current source (same JSON as `report -o json`);
// the header says when the server computed it (the pages show the same analysis).
export const GET = withApiErrors(async () => {
  const { report, computedAt } = await getAnalysis();
  return jsonResponse(report, 200, { 'x-dra-posture-analysed-at': computedAt });
});
