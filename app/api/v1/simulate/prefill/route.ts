import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { getExplorerSetup } from '@/server/services/explorer-setup';

export const dynamic = 'force-dynamic';

// GET /api/v1/simulate/prefill?mode=who-can&verb=…&resource=…&simKind=…&simName=…[&simNamespace=…] –
// the simulator's write for a who-can row, as the explorer page would open with it (the source's own
// opening write when the row's write cannot be built). "Simulate this write" fetches this in place.
export const GET = withApiErrors(async (req: Request) => jsonResponse((await getExplorerSetup(new URL(req.url).searchParams)).prefill));
