/** Headers for every response (pages, API, static files); the per-request CSP is set in proxy.ts. */
const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), usb=(), payment=(), clipboard-write=(self)' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  { key: 'Cross-Origin-Resource-Policy', value: 'same-origin' },
];

/**
 * /api/v1/report sends gzip bytes it compressed once per analysis (server/http/serialized-body.ts).
 * Next.js drops Content-Encoding from a route handler's Response (its send-response.js), and gzips
 * every response again on its own unless one is set, so the label is set here, for exactly the
 * requests the route compresses for: same pattern as GZIP_ACCEPTED there (a test compares them).
 */
const REPORT_GZIP_HEADERS = {
  source: '/api/v1/report',
  has: [{ type: 'header', key: 'accept-encoding', value: '.*\\bgzip\\b.*' }],
  headers: [{ key: 'Content-Encoding', value: 'gzip' }],
};

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The packed package ships its dashboard build in dist/dashboard (scripts/build/build-dashboard.mjs);
  // `serve` points Next at it. A checkout builds into .next as usual.
  distDir: process.env.DRA_POSTURE_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  serverExternalPackages: ['@kubernetes/client-node'],
  // scripts/test-all.sh type-checks the whole project (tsc --noEmit) before it builds; it sets this so
  // the build does not do the same work again. Any other build still type-checks.
  typescript: { ignoreBuildErrors: process.env.DRA_POSTURE_BUILD_SKIP_TYPECHECK === '1' },
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }, REPORT_GZIP_HEADERS];
  },
};

export { REPORT_GZIP_HEADERS };
export default nextConfig;
