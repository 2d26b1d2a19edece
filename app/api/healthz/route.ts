// GET /api/healthz – liveness of the dashboard process (no cluster access).
export function GET() {
  return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } });
}
