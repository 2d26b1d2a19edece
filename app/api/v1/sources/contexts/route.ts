import { jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { listKubeContexts } from '@/server/services/kube-contexts';

// GET /api/v1/sources/contexts – names and API server hosts of the server's kubeconfig contexts.
export const GET = withApiErrors(async () => jsonResponse({ contexts: listKubeContexts() }));
