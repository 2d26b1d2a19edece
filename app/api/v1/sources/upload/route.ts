import { isSnapshotError } from '@/lib/k8s/snapshot-error';
import { ApiError, jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readBodyBytes } from '@/server/http/read-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { withUploadSlot } from '@/server/http/upload-slots';
import { maxUploadBytes, useUploadedSnapshot } from '@/server/services/uploaded-source';
import { requireAction } from '@/server/auth/require-action';

// POST /api/v1/sources/upload?name=FILE – body: the snapshot file's bytes (JSON or YAML). It becomes
// the current source when all of it loads; otherwise nothing changes and the error names the problem.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  await requireAction(request, 'create sources');
  const limit = maxUploadBytes();
  const name = (new URL(request.url).searchParams.get('name') ?? 'upload').replace(/[^\w.\-]+/g, '_').slice(0, 100) || 'upload';
  return withUploadSlot('snapshot', async () => {
    const bytes = await readBodyBytes(request, limit, 'snapshot');
    if (bytes.byteLength === 0) throw new ApiError('bad_request', 'the uploaded file is empty');
    try {
      const state = await useUploadedSnapshot(bytes, name);
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
});
