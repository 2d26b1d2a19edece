import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { cappedBodyChunks } from '@/server/http/read-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { withUploadSlot } from '@/server/http/upload-slots';
import { clearUploadedAudit, useUploadedAudit } from '@/server/services/uploaded-audit';
import { maxAuditUploadBytes } from '@/server/sources/read-audit-upload';
import { parseAuditUpload } from '@/server/sources/parse-upload';
import { requireAction } from '@/server/auth/require-action';

// POST /api/v1/sources/audit?name=FILE – body: an audit log (JSON lines, EventList, gzip of either),
// parsed in a worker thread as it streams in. Its activity and AUDIT findings join the report of the
// current source. DELETE – forget it.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create sources');
  const limit = maxAuditUploadBytes();
  const name = (new URL(request.url).searchParams.get('name') ?? 'audit.log').replace(/[^\w.\-]+/g, '_').slice(0, 100) || 'audit.log';
  const aggregate = await withUploadSlot('audit log', () => parseAuditUpload(name, cappedBodyChunks(request, limit, 'audit log')));
  useUploadedAudit(aggregate, name);
  const a = aggregate.activity;
  return jsonResponse({ name, events: a.events, malformed: a.malformed.count, window: a.window, alerts: aggregate.alerts.length });
});

export const DELETE = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create sources');
  clearUploadedAudit();
  return jsonResponse({ ok: true });
});
