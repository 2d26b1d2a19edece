import 'server-only';
import { ApiError } from './api-errors';

/**
 * Mutating routes accept only same-origin browser requests: an Origin equal to the request's own
 * origin (`Origin: null` and cross-site fetch metadata are refused), so another site cannot drive them.
 */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') throw new ApiError('forbidden', 'cross-site request refused');
  if (!origin) {
    if (site === 'same-origin') return;
    throw new ApiError('forbidden', 'request without an Origin header refused');
  }
  const host = request.headers.get('host');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ApiError('forbidden', 'cross-origin request refused');
  }
  if (!host || originHost !== host) throw new ApiError('forbidden', 'cross-origin request refused');
}
