import 'server-only';
import type { DashboardAction } from '@/lib/api/dashboard-actions';
import { ApiError } from '@/server/http/api-errors';
import { authModeFromEnv } from './auth-config';
import { decideAction } from './authorize-request';
import type { AuthenticatedUser } from './kube-reviews';

/**
 * A route's own check of its action (the proxy checked it already; routes that change state or
 * record who acted check again, so they stay closed if the proxy is ever skipped). Returns the
 * signed-in user, or undefined under `--auth none`.
 */
export async function requireAction(request: Request, action: DashboardAction): Promise<AuthenticatedUser | undefined> {
  if (authModeFromEnv() !== 'kubernetes') return undefined;
  const decision = await decideAction(request.headers, action);
  if (!decision.pass) throw new ApiError(decision.code, decision.message);
  return decision.auth?.status === 'signed-in' ? decision.auth.user : undefined;
}
