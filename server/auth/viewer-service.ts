import 'server-only';
import { z } from 'zod';
import type { ViewerResponse } from '@/lib/api/dto';
import { ApiError } from '@/server/http/api-errors';
import { authModeFromEnv } from './auth-config';
import { allowedActions, authenticate, unavailableReason, type Authentication } from './authenticate';
import { clearedSessionCookie, createSession, endSession, SESSION_COOKIE, sessionCookie, sessionIdFromCookies } from './sessions';

const SignInSchema = z.object({ token: z.string().trim().min(1, 'paste a token').max(16_384, 'that is not a token (over 16 KiB)') }).strict();

async function describeViewer(auth: Extract<Authentication, { status: 'signed-in' }>): Promise<ViewerResponse> {
  let allowed;
  try {
    allowed = await allowedActions(auth);
  } catch (e) {
    throw new ApiError('auth_unavailable', unavailableReason(e));
  }
  return { auth: 'kubernetes', username: auth.user.username, groups: auth.user.groups, via: auth.via, allowed };
}

/** Who is looking (for the shell and GET /api/v1/session); undefined when signed-in is required but nobody is. */
export async function currentViewer(headers: Headers): Promise<ViewerResponse | undefined> {
  if (authModeFromEnv() !== 'kubernetes') return { auth: 'none' };
  const auth = await authenticate(headers);
  if (auth.status === 'unavailable') throw new ApiError('auth_unavailable', auth.reason);
  return auth.status === 'signed-in' ? describeViewer(auth) : undefined;
}

/** Signs in with a pasted token: the API server must accept it (TokenReview); the token stays here. */
export async function signIn(body: unknown): Promise<{ viewer: ViewerResponse; setCookie: string }> {
  if (authModeFromEnv() !== 'kubernetes') throw new ApiError('bad_request', 'sign-in is off: this server runs with --auth none');
  const { token } = SignInSchema.parse(body);
  const id = createSession(token);
  const auth = await authenticate(new Headers({ cookie: `${SESSION_COOKIE}=${id}` }));
  if (auth.status !== 'signed-in') {
    endSession(id);
    if (auth.status === 'unavailable') throw new ApiError('auth_unavailable', auth.reason);
    throw new ApiError('unauthenticated', 'the Kubernetes API server did not accept that token (wrong, expired or revoked)');
  }
  return { viewer: await describeViewer(auth), setCookie: sessionCookie(id) };
}

/** Ends the browser's session (the token is forgotten); the cookie is cleared either way. */
export function signOut(headers: Headers): string {
  const id = sessionIdFromCookies(headers.get('cookie'));
  if (id) endSession(id);
  return clearedSessionCookie();
}
