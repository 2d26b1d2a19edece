import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { parseFindingFilters } from '@/lib/view/findings-view';
import { getFindingsPage } from '@/server/services/findings-list';

// GET /api/v1/findings?severity=&check=&namespace=&subject=&q=&sort= – one page of the filtered,
// sorted findings (without evidence), with counts and filter values over all findings. The query is
// user input: parseFindingFilters keeps known severities, well-formed check ids, and clipped strings.
export const GET = withApiErrors(async (request: Request) => jsonResponse(await getFindingsPage(parseFindingFilters(new URL(request.url).searchParams))));
