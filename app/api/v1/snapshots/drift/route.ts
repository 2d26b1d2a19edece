import { z } from 'zod';
import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { TAKE_ID } from '@/lib/compliance/snapshot-api';
import { SNAPSHOT_ID } from '@/server/compliance/snapshot-store';
import { snapshotDrift } from '@/server/services/snapshots';

export const dynamic = 'force-dynamic';

const id = z.string().refine((v) => SNAPSHOT_ID.test(v) || TAKE_ID.test(v), 'expected a snapshot id (snap-…) or a take id (take-…)');
const Query = z.object({ from: id, to: id });

// GET /api/v1/snapshots/drift?from=ID&to=ID – what changed between two snapshots, stored or being taken.
export const GET = withApiErrors(async (request: Request) => {
  const sp = new URL(request.url).searchParams;
  const { from, to } = Query.parse({ from: sp.get('from') ?? undefined, to: sp.get('to') ?? undefined });
  return jsonResponse(snapshotDrift(from, to));
});
