import 'server-only';

// The one gate every request passes (proxy.ts runs it for pages, API routes and server actions alike,
// so a new route cannot forget it). Two checks:
// - Host allowlist, against DNS rebinding: a page at http://attacker.example:PORT/ whose name the
//   attacker re-points at 127.0.0.1 is same-origin with itself, so the browser lets it read our
//   answers; only the Host header tells us the browser thinks it talks to another site. Allowed:
//   loopback names, IP literals (a page reached by IP has that IP as its own origin, so no foreign
//   name is involved), `serve --host NAME` and the host of `serve --public-url URL`.
// - Origin / Sec-Fetch-Site on every request that is not GET/HEAD/OPTIONS, against cross-site writes:
//   `Origin: null` and cross-site fetch metadata count as cross-site.

/** `serve` hands its --host and --public-url to the Next.js process through these. */
export const GATE_HOST_ENV = 'DRA_POSTURE_HOST';
export const GATE_PUBLIC_URL_ENV = 'DRA_POSTURE_PUBLIC_URL';

export interface GateConfig {
  /** Host names (lower case, IPv6 in brackets, no port) a request may address besides loopback and IP literals. */
  hostnames: ReadonlySet<string>;
  /** Origins (scheme://host[:port]) that may send writes besides the request's own Host. */
  publicOrigins: ReadonlySet<string>;
}

export interface GateRefusal {
  status: 403 | 421;
  message: string;
}

const LOOPBACK_NAMES = ['localhost', 'localhost.localdomain', 'ip6-localhost', 'ip6-loopback'];
/** Bind addresses that mean "every interface": not a name any browser addresses. */
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function gateConfig(host: string | undefined, publicUrl: string | undefined): GateConfig {
  const hostnames = new Set(LOOPBACK_NAMES);
  const publicOrigins = new Set<string>();
  const bind = host?.trim().toLowerCase();
  if (bind && !WILDCARD_BINDS.has(bind)) {
    const name = hostnameOf(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
    if (name) hostnames.add(name);
  }
  if (publicUrl) {
    const url = new URL(publicUrl);
    hostnames.add(url.hostname.toLowerCase());
    publicOrigins.add(url.origin.toLowerCase());
  }
  return { hostnames, publicOrigins };
}

/** The gate's configuration in the running server (set by `serve`; `next start` alone gets loopback only). */
export function gateConfigFromEnv(env: Record<string, string | undefined> = process.env): GateConfig {
  return gateConfig(env[GATE_HOST_ENV], env[GATE_PUBLIC_URL_ENV] || undefined);
}

/** Why this request is refused, or undefined when it may pass. */
export function gateRefusal(request: { method: string; headers: Headers }, config: GateConfig): GateRefusal | undefined {
  const host = request.headers.get('host');
  const hostname = host ? hostnameOf(host) : undefined;
  if (!hostname || !isAllowedHostname(hostname, config)) {
    return { status: 421, message: 'this server does not answer to that host name (start it with --public-url to allow one)' };
  }
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined;
  const reason = crossOriginReason(request.headers, config.publicOrigins);
  return reason ? { status: 403, message: reason } : undefined;
}

/** The refusal as the API's error envelope (DESIGN §5), inert if opened as a document. */
export function gateRefusalResponse(refusal: GateRefusal): Response {
  return Response.json(
    { error: { code: 'forbidden', message: refusal.message } },
    {
      status: refusal.status,
      headers: {
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      },
    },
  );
}

/**
 * Why a write is not same-origin, or undefined when it is: an Origin equal to the request's own
 * Host (or a --public-url origin), or no Origin with `Sec-Fetch-Site: same-origin`.
 */
export function crossOriginReason(headers: Headers, publicOrigins: ReadonlySet<string> = new Set()): string | undefined {
  const origin = headers.get('origin');
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return 'cross-site request refused';
  if (!origin) return site === 'same-origin' ? undefined : 'request without an Origin header refused';
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return 'cross-origin request refused';
  }
  if (publicOrigins.has(parsed.origin.toLowerCase())) return undefined;
  const host = headers.get('host');
  return host && parsed.host.toLowerCase() === host.toLowerCase() ? undefined : 'cross-origin request refused';
}

function isAllowedHostname(hostname: string, config: GateConfig): boolean {
  return config.hostnames.has(hostname) || isIpLiteral(hostname);
}

/** URL parsing normalises IPv4 spellings (0x7f000001, 127.1) to dotted quads and keeps IPv6 in brackets. */
function isIpLiteral(hostname: string): boolean {
  return hostname.startsWith('[') || /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname);
}

function hostnameOf(host: string): string | undefined {
  if (/[/?#@\\\s]/.test(host)) return undefined;
  try {
    const name = new URL(`http://${host}`).hostname.toLowerCase();
    // A trailing dot names the same host (localhost. = localhost).
    return name.endsWith('.') ? name.slice(0, -1) : name;
  } catch {
    return undefined;
  }
}
