import { ApiError, jsonResponse, withApiErrors } from '@/server/http/api-errors';
import { readJsonBody } from '@/server/http/read-json-body';
import { assertSameOrigin } from '@/server/http/same-origin';
import { currentViewer, signIn, signOut } from '@/server/auth/viewer-service';

export const dynamic = 'force-dynamic';

// GET /api/v1/session – who is signed in and what they may do ({auth: 'none'} without sign-in).
export const GET = withApiErrors(async (request: Request) => {
  const viewer = await currentViewer(request.headers);
  if (!viewer) throw new ApiError('unauthenticated', 'nobody is signed in');
  return jsonResponse(viewer);
});

// POST /api/v1/session – body {token}: sign in; the token stays on the server, the browser gets a session cookie.
export const POST = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  const { viewer, setCookie } = await signIn(await readJsonBody(request, 32 * 1024));
  return jsonResponse(viewer, 201, { 'Set-Cookie': setCookie });
});

// DELETE /api/v1/session – sign out.
export const DELETE = withApiErrors(async (request: Request) => {
  assertSameOrigin(request);
  return jsonResponse({ signedOut: true }, 200, { 'Set-Cookie': signOut(request.headers) });
});
