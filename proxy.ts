import { NextResponse, type NextRequest } from 'next/server';
import { gateConfigFromEnv, gateRefusal, gateRefusalResponse } from '@/server/http/request-gate';
import { getsGzipLabel, gzipped } from '@/server/http/serialized-body';
import { decideAccess } from '@/server/auth/authorize-request';
import { refusalResponse } from '@/server/auth/refusal-response';

// Every request passes the request gate first (Host allowlist against DNS rebinding; Origin and
// Sec-Fetch-Site on writes): here it covers pages, API routes and server actions, so a new route
// cannot forget it (request-gate.test.ts walks every route against the matcher). Under
// `serve --auth kubernetes` the viewer's action is authorized next (dashboard-actions.ts maps every
// request to one; routes that change state or record who acted check again themselves, so a skipped
// proxy, as in CVE-2025-29927, opens nothing). Then pages get a per-request Content-Security-Policy
// with a fresh nonce (Next 16 proxy, formerly middleware). Next.js reads the nonce from the request's
// CSP header and puts it on its own scripts. Static headers for every route live in next.config.js.

function buildCsp(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // React Flow and Recharts position elements with inline style attributes (also in server HTML),
    // which nonces cannot cover; inline styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const gate = gateConfigFromEnv();

export async function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  const refused = await refusedResponse(request, path);
  // next.config.js labels this path's answers gzip for gzip clients (serialized-body.ts).
  if (refused) return getsGzipLabel(request, path) ? gzipped(refused) : refused;
  // API answers carry their own headers (api-errors.ts); prefetches need no nonce (Next.js CSP guide).
  if (path === '/api' || path.startsWith('/api/') || isPrefetch(request.headers)) return NextResponse.next();

  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const nonce = btoa(String.fromCharCode(...bytes));
  const csp = buildCsp(nonce, process.env.NODE_ENV === 'development');

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('x-nonce', nonce);
  requestHeaders.set('Content-Security-Policy', csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', csp);
  // Pages show cluster data: never store them.
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** The gate's refusal, else (under --auth kubernetes) the viewer's, else undefined: the request may pass. */
async function refusedResponse(request: NextRequest, path: string): Promise<Response | undefined> {
  const refusal = gateRefusal(request, gate);
  if (refusal) return gateRefusalResponse(refusal);
  const access = await decideAccess(request.method, path, request.headers);
  return access.pass ? undefined : refusalResponse(request.nextUrl, access, request.headers.get('host'));
}

function isPrefetch(headers: Headers): boolean {
  return headers.has('next-router-prefetch') || headers.get('purpose') === 'prefetch';
}

// Everything but the build's static files (same bytes for everyone, no cluster data).
export const config = {
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
