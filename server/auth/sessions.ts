import 'server-only';
import { randomBytes } from 'node:crypto';
import { ExpiringCache } from './expiring-cache';

// Signed-in browsers: the pasted token stays on the server, the browser holds only a random session
// ID in an HttpOnly, SameSite=Strict, __Host- cookie (no script can read it, no other site can send
// it, no subdomain can set it). In memory only: a restart signs everyone out, and no token is ever
// written to disk. On globalThis: the proxy and the route handlers are separate bundles.

export const SESSION_COOKIE = '__Host-dra-posture-session';
/** A session lasts a working day; the token's own expiry still applies (every review re-checks it). */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
const MAX_SESSIONS = 10_000;

// Every session lives as long, so the entry the cache drops when full (the oldest) is also the first to expire.
const KEY = Symbol.for('dra-posture.sessions');
const sessions = ((globalThis as unknown as Record<symbol, ExpiringCache<string> | undefined>)[KEY] ??= new ExpiringCache(MAX_SESSIONS));

export function createSession(token: string): string {
  const id = randomBytes(32).toString('base64url');
  sessions.set(id, token, SESSION_LIFETIME_MS);
  return id;
}

/** The token a session ID stands for, or undefined for an unknown or expired session. */
export function sessionToken(id: string): string | undefined {
  return sessions.get(id);
}

export function endSession(id: string): void {
  sessions.delete(id);
}

/** The Set-Cookie value that starts a session (Secure is required by the __Host- prefix). */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=${SESSION_LIFETIME_MS / 1000}`;
}

/** The Set-Cookie value that ends it in the browser. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`;
}

/** The session ID a Cookie header carries, if any. */
export function sessionIdFromCookies(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
