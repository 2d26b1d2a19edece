import 'server-only';
import { DASHBOARD_ACTION_NAMES, type DashboardAction } from '@/lib/api/dashboard-actions';
import { nodeSha256 } from '@/server/compliance/node-sha256';
import { isKubeError } from '@/server/kube/kube-errors';
import { ExpiringCache } from './expiring-cache';
import { reviewAccess, reviewToken, type AuthenticatedUser, type TokenReviewResult } from './kube-reviews';
import { endSession, sessionIdFromCookies, sessionToken } from './sessions';

export type Authentication =
  | { status: 'signed-in'; user: AuthenticatedUser; via: 'session' | 'bearer'; tokenKey: string }
  /** No credentials presented. */
  | { status: 'anonymous' }
  /** Credentials presented but not accepted: an expired session, a token the API server rejects. */
  | { status: 'rejected'; reason: string }
  /** The API server could not be asked. */
  | { status: 'unavailable'; reason: string };

// Accepted tokens are trusted for a minute, rejected ones for ten seconds, access answers for thirty:
// a page's dozen requests cost one review each, and revocation takes effect within those times.
const ACCEPTED_TTL_MS = 60_000;
const REJECTED_TTL_MS = 10_000;
const ACCESS_TTL_MS = 30_000;

const MAX_REVIEWS_IN_FLIGHT = 16;
const REVIEWING_KEY = Symbol.for('dra-posture.auth-reviewing');
const reviewing = ((globalThis as unknown as Record<symbol, { count: number } | undefined>)[REVIEWING_KEY] ??= { count: 0 });

interface Caches {
  tokens: ExpiringCache<TokenReviewResult>;
  access: ExpiringCache<boolean>;
}
const KEY = Symbol.for('dra-posture.auth-caches');
const caches = ((globalThis as unknown as Record<symbol, Caches | undefined>)[KEY] ??= {
  tokens: new ExpiringCache(10_000),
  access: new ExpiringCache(50_000),
});

// Caches are keyed by the token's digest, so no map holds a token as a key.
function tokenKeyOf(token: string): string {
  const h = nodeSha256();
  h.update(new TextEncoder().encode(token));
  return h.digestHex();
}

/** The bearer token a reverse proxy (oauth2-proxy) forwards, if any. */
function bearerToken(headers: Headers): string | undefined {
  const value = headers.get('authorization');
  const match = value ? /^Bearer\s+(\S+)\s*$/i.exec(value) : null;
  return match ? match[1] : undefined;
}

/** Who sent this request: a forwarded bearer token first, else the session cookie. */
export async function authenticate(headers: Headers): Promise<Authentication> {
  const bearer = bearerToken(headers);
  const sessionId = bearer ? undefined : sessionIdFromCookies(headers.get('cookie'));
  const token = bearer ?? (sessionId ? sessionToken(sessionId) : undefined);
  if (!token) return sessionId ? { status: 'rejected', reason: 'your session has ended; sign in again' } : { status: 'anonymous' };
  const tokenKey = tokenKeyOf(token);
  let review = caches.tokens.get(tokenKey);
  if (!review) {
    // Anyone can send a token, and each new one costs a TokenReview: past a few at once, answer
    // "busy" rather than queue the API server's work behind a flood of made-up tokens.
    if (reviewing.count >= MAX_REVIEWS_IN_FLIGHT) return { status: 'unavailable', reason: 'too many sign-in checks at once; try again in a moment' };
    reviewing.count++;
    try {
      review = await reviewToken(token);
    } catch (e) {
      return { status: 'unavailable', reason: unavailableReason(e) };
    } finally {
      reviewing.count--;
    }
    caches.tokens.set(tokenKey, review, review.authenticated ? ACCEPTED_TTL_MS : REJECTED_TTL_MS);
  }
  if (!review.authenticated) {
    // A session whose token stopped working is over: the browser must sign in with a new token.
    if (sessionId) endSession(sessionId);
    return { status: 'rejected', reason: review.reason };
  }
  return { status: 'signed-in', user: review.user, via: bearer ? 'bearer' : 'session', tokenKey };
}

/** Whether a signed-in viewer may do an action; throws KubeError when the API server cannot answer. */
export async function mayDo(auth: Extract<Authentication, { status: 'signed-in' }>, action: DashboardAction): Promise<boolean> {
  const key = `${auth.tokenKey}\0${action}`;
  const cached = caches.access.get(key);
  if (cached !== undefined) return cached;
  const allowed = await reviewAccess(auth.user, action);
  caches.access.set(key, allowed, ACCESS_TTL_MS);
  return allowed;
}

/** Every action the viewer may do (for the UI, which hides the others). */
export async function allowedActions(auth: Extract<Authentication, { status: 'signed-in' }>): Promise<DashboardAction[]> {
  const answers = await Promise.all(DASHBOARD_ACTION_NAMES.map((a) => mayDo(auth, a)));
  return DASHBOARD_ACTION_NAMES.filter((_, i) => answers[i]);
}

export function unavailableReason(e: unknown): string {
  const detail = isKubeError(e) ? e.message : 'unexpected error';
  return `cannot check your credentials with the Kubernetes API server (${detail})`;
}

/** Forgets every cached review (tests; a credentials change). */
export function clearAuthCaches(): void {
  caches.tokens.clear();
  caches.access.clear();
}
