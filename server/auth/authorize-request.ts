import 'server-only';
import { accessForRequest, describeAction, type DashboardAction } from '@/lib/api/dashboard-actions';
import type { ApiErrorCode } from '@/lib/api/dto';
import { authModeFromEnv } from './auth-config';
import { authenticate, mayDo, unavailableReason, type Authentication } from './authenticate';

export type AccessDecision =
  | { pass: true; auth?: Authentication }
  | {
      pass: false;
      status: 401 | 403 | 503;
      code: ApiErrorCode;
      message: string;
      /** Credentials were presented and refused (an ended session, a revoked token), not just missing. */
      credentialsRejected?: boolean;
    };

/**
 * Whether a request may reach its page or route under `serve --auth kubernetes`: public paths pass,
 * every other request needs a viewer the API server accepts (TokenReview) and allows to do the
 * request's action (SubjectAccessReview on dra-posture.io). Under `--auth none`, everything passes.
 */
export async function decideAccess(method: string, pathname: string, headers: Headers): Promise<AccessDecision> {
  if (authModeFromEnv() !== 'kubernetes') return { pass: true };
  const access = accessForRequest(method, pathname);
  if (access.kind === 'public') return { pass: true };
  if (access.kind === 'refused') return { pass: false, status: 403, code: 'forbidden', message: access.reason };
  return decideAction(headers, access.action);
}

/** Whether the request's viewer may do this action (TokenReview, then SubjectAccessReview; both cached). */
export async function decideAction(headers: Headers, action: DashboardAction): Promise<AccessDecision> {
  const auth = await authenticate(headers);
  switch (auth.status) {
    case 'anonymous':
      return { pass: false, status: 401, code: 'unauthenticated', message: 'sign in with a Kubernetes token (or send it as Authorization: Bearer)' };
    case 'rejected':
      return { pass: false, status: 401, code: 'unauthenticated', message: auth.reason, credentialsRejected: true };
    case 'unavailable':
      return { pass: false, status: 503, code: 'auth_unavailable', message: auth.reason };
  }
  let allowed: boolean;
  try {
    allowed = await mayDo(auth, action);
  } catch (e) {
    return { pass: false, status: 503, code: 'auth_unavailable', message: unavailableReason(e) };
  }
  if (!allowed) {
    return {
      pass: false,
      status: 403,
      code: 'forbidden',
      message: `${auth.user.username} may not do this: it needs ${describeAction(action)} (ask a cluster admin to bind a dra-posture ClusterRole)`,
    };
  }
  return { pass: true, auth };
}
