import 'server-only';
import { escapeHtml } from '@/lib/report/render-html';
import { errorResponse } from '@/server/http/api-errors';
import { gateConfigFromEnv } from '@/server/http/request-gate';
import type { AccessDecision } from './authorize-request';

type Refusal = Extract<AccessDecision, { pass: false }>;

/**
 * The answer to a refused request: the API's JSON envelope for API paths; for pages, a redirect to
 * the sign-in page when nobody (or an expired session) is signed in, else a small self-contained page
 * that says who is signed in and what is missing (no scripts, so no CSP nonce needed).
 */
export function refusalResponse(url: URL, refusal: Refusal, host: string | null): Response {
  const path = url.pathname;
  if (path === '/api' || path.startsWith('/api/')) return errorResponse(refusal.code, refusal.message);
  if (refusal.status === 401) {
    // On the Host the browser used (the request gate allowed it): Next's URL says localhost for
    // 127.0.0.1, and a browser sent there would not carry the cookies of 127.0.0.1.
    // Behind a TLS-terminating proxy the --public-url says https where this server sees http.
    const publicOrigin = host ? [...gateConfigFromEnv().publicOrigins].find((o) => new URL(o).host === host.toLowerCase()) : undefined;
    const signIn = new URL('/sign-in', publicOrigin ?? (host ? `${url.protocol}//${host}` : url));
    signIn.searchParams.set('next', `${path}${url.search}`);
    // A fixed word, not the message: the sign-in page must not show text a link can choose.
    if (refusal.credentialsRejected) signIn.searchParams.set('reason', 'ended');
    // Absolute, as Next's proxy requires.
    return new Response(null, { status: 303, headers: { Location: signIn.toString(), 'Cache-Control': 'no-store' } });
  }
  const title = refusal.status === 403 ? 'Not allowed' : 'Cannot check your access';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · dra-posture</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#0f172a}h1{font-size:1.25rem}p{line-height:1.5}a{color:#0f766e}</style></head>
<body><main><h1>${title}</h1><p>${escapeHtml(refusal.message)}</p>
<p><a href="/">Back to the overview</a> · <a href="/sign-in">Sign in as someone else</a></p></main></body></html>`;
  return new Response(html, {
    status: refusal.status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
    },
  });
}
