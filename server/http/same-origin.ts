import 'server-only';
import { ApiError } from './api-errors';
import { crossOriginReason, gateConfigFromEnv } from './request-gate';

/**
 * Mutating routes accept only same-origin browser requests: an Origin equal to the request's own
 * origin or the --public-url (`Origin: null` and cross-site fetch metadata are refused), so another
 * site cannot drive them. proxy.ts already refuses these for every route (request-gate.ts); routes
 * that change state check again so that they stay safe if the proxy is ever skipped.
 */
export function assertSameOrigin(request: Request): void {
  const reason = crossOriginReason(request.headers, gateConfigFromEnv().publicOrigins);
  if (reason) throw new ApiError('forbidden', reason);
}
