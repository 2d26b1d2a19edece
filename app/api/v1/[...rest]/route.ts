import { errorResponse } from '@/server/http/api-errors';

export const dynamic = 'force-dynamic';

// Any other /api/v1 path: a JSON 404 (not the HTML not-found page).
export function GET() {
  return errorResponse('not_found', 'no such API endpoint');
}
