import { isSnapshotError } from '@/lib/k8s/snapshot-error';
import { ApiError, jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { assertSameOrigin } from '@/server/http/same-origin';
import { maxUploadBytes, useUploadedSnapshot } from '@/server/services/uploaded-source';

// POST /api/v1/sources/upload?name=FILE – body: the snapshot file's bytes (JSON or YAML). It becomes
// the current source when all of it loads; otherwise nothing changes and the error names the problem.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  const limit = maxUploadBytes();
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw new ApiError('too_large', `snapshot too large: ${declared} bytes, the limit is ${limit}`);
  const name = (new URL(request.url).searchParams.get('name') ?? 'upload').replace(/[^\w.\-]+/g, '_').slice(0, 100) || 'upload';
  const bytes = await readCapped(request, limit);
  if (bytes.byteLength === 0) throw new ApiError('bad_request', 'the uploaded file is empty');
  try {
    const state = useUploadedSnapshot(bytes, name);
    const objects =
      state.nodes.length +
      state.pods.length +
      state.roles.length +
      state.clusterRoles.length +
      state.roleBindings.length +
      state.clusterRoleBindings.length +
      state.resourceClaims.length;
    return jsonResponse({ source: state.source, objects, warnings: state.warnings });
  } catch (e) {
    if (isSnapshotError(e)) throw new ApiError('invalid_snapshot', e.message);
    throw e;
  }
});

async function readCapped(request: Request, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new ApiError('too_large', `snapshot too large: more than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
