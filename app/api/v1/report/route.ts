import { API_HEADERS, withApiErrors } from '@/server/http/api-errors';
import { serializedBody, serializedBodyResponse, withGzipLabel } from '@/server/http/serialized-body';
import { getAnalysis } from '@/server/services/get-report';
import { reportJsonTextChunks } from '@/lib/report/report-json';

export const dynamic = 'force-dynamic';

// GET /api/v1/report – the posture report of the current source (same JSON as `report -o json`);
// the header says when the server computed it (the pages show the same analysis). The bytes are
// serialized and gzipped once per analysis (keyed by the report object, which a new analysis
// replaces) and answered with a strong ETag: 304 to If-None-Match. next.config.js labels the gzip
// answers (REPORT_GZIP_HEADERS; see serialized-body.ts for why there).
export const GET = withGzipLabel(
  withApiErrors(async (request: Request) => {
    const { report, computedAt } = await getAnalysis();
    const body = serializedBody(report, () => reportJsonTextChunks(report));
    return serializedBodyResponse(request, body, {
      ...API_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'x-dra-posture-analysed-at': computedAt,
    });
  }),
);
