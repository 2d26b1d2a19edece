// Issue 25 item 1 on a real kube-apiserver: `serve --auth kubernetes` learns who a viewer is with a
// TokenReview and decides each action with a SubjectAccessReview on dra-posture.io, using the
// ClusterRoles of deploy/ and, for the server itself, only deploy's reviewer role. The users come from
// the API server's static token file (e2e/kube/control-plane.ts IDENTITIES). Every request goes
// through proxy.ts (the one gate) and, for writes, the route handler's own check.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessForRequest } from '@/lib/api/dashboard-actions';
import type { ViewerResponse } from '@/lib/api/dto';
import type { DecisionResponse, RoleBuildResponse } from '@/lib/role-builder/dto';
import { proxy } from '@/proxy';
import { GET as getReportRoute } from '@/app/api/v1/report/route';
import { POST as buildRoute } from '@/app/api/v1/role-builder/build/route';
import { GET as historyRoute, POST as decideRoute } from '@/app/api/v1/role-builder/approvals/route';
import { DELETE as signOutRoute, GET as getSessionRoute, POST as signInRoute } from '@/app/api/v1/session/route';
import { clearAuthCaches } from '@/server/auth/authenticate';
import { resetAuthClient } from '@/server/auth/kube-reviews';
import { closeStores } from '@/server/store/get-store';
import { appPages, appRoutes } from '../api/app-routes';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { clusterRoleBinding, createAsAdmin, grantDashboardUsers } from '../kube/dashboard-users';

const HOST = '127.0.0.1:3999';
const ORIGIN = `http://${HOST}`;
const env = { ...process.env };
let cp: ControlPlane;
let dir: string;

beforeAll(async () => {
  cp = await startControlPlane({ controllers: false });
  await grantDashboardUsers(cp);
  dir = mkdtempSync(join(tmpdir(), 'dra-serve-auth-'));
  process.env.DRA_POSTURE_AUTH = 'kubernetes';
  process.env.DRA_POSTURE_AUTH_KUBECONFIG = cp.kubeconfigs.dashboard!;
  process.env.DRA_POSTURE_SOURCE = 'demo';
  process.env.DRA_POSTURE_SNAPSHOT = '';
  process.env.DRA_POSTURE_STORE = join(dir, 'store.sqlite');
  resetAuthClient();
  clearAuthCaches();
}, 300_000);

afterAll(async () => {
  closeStores();
  process.env = env;
  resetAuthClient();
  clearAuthCaches();
  await cp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const bearer = (who: string) => ({ authorization: `Bearer ${cp.tokens[who]}` });

function send(path: string, method = 'GET', headers: Record<string, string> = {}) {
  return proxy(new NextRequest(`${ORIGIN}${path}`, { method, headers: { host: HOST, origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers } }));
}

const passed = (res: Response) => res.headers.get('x-middleware-next') === '1';
const apiRoutes = appRoutes.filter((r) => r.path !== '/api/v1/a/b');

function post(path: string, body: unknown, headers: Record<string, string>) {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { host: HOST, origin: ORIGIN, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('serve --auth kubernetes against a real API server', () => {
  it('a viewer reaches every page and read API, sees the report, and is told what it may do', async () => {
    const refused: string[] = [];
    for (const { path } of appPages) {
      const res = await send(path, 'GET', bearer('viewer'));
      const access = accessForRequest('GET', path);
      const expectPass = access.kind === 'public' || (access.kind === 'action' && (access.action === 'get reports' || access.action === 'create simulations'));
      if (passed(res) !== expectPass) refused.push(`${path} ${res.status}`);
    }
    expect(refused).toEqual([]);
    // The snapshot pages need get snapshots, which a viewer lacks: 403, not a sign-in loop.
    expect((await send('/snapshots', 'GET', bearer('viewer'))).status).toBe(403);

    const report = await getReportRoute(new Request(`${ORIGIN}/api/v1/report`, { headers: { host: HOST, ...bearer('viewer') } }), undefined);
    expect(report.status).toBe(200);
    expect(((await report.json()) as { findings: unknown[] }).findings.length).toBeGreaterThan(10);

    const session = (await (
      await getSessionRoute(new Request(`${ORIGIN}/api/v1/session`, { headers: { host: HOST, ...bearer('viewer') } }), undefined)
    ).json()) as ViewerResponse;
    expect(session).toMatchObject({ auth: 'kubernetes', username: 'viewer', via: 'bearer' });
    expect(session.auth === 'kubernetes' && [...session.allowed].sort()).toEqual(['create simulations', 'get reports']);
  }, 120_000);

  it('a user without grants gets 403 on every page and every API route', async () => {
    const answers: string[] = [];
    for (const { path } of appPages) {
      if (accessForRequest('GET', path).kind === 'public') continue;
      const res = await send(path, 'GET', bearer('nobody'));
      answers.push(`GET ${path} ${res.status}`);
      if (res.status === 403) expect(await res.text()).toContain('carol-nobody may not do this');
    }
    for (const r of apiRoutes) {
      for (const method of r.methods) {
        if (accessForRequest(method, r.path).kind === 'public') continue;
        const res = await send(r.path, method, bearer('nobody'));
        answers.push(`${method} ${r.path} ${res.status}`);
        if (res.status === 403) expect(((await res.json()) as { error: { code: string } }).error.code).toBe('forbidden');
      }
    }
    expect(answers.length).toBeGreaterThan(30);
    expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([]);
  }, 120_000);

  it("an approver's approval records the token's user and groups, not the name in the body; a viewer cannot approve", async () => {
    const build = (r: Request) => buildRoute(r, undefined);
    const decide = (r: Request) => decideRoute(r, undefined);
    const history = (r: Request) => historyRoute(r, undefined);
    const request = {
      persona: 'node-local-driver',
      identity: { kind: 'ServiceAccount', namespace: 'dra-example-driver', name: 'example-kubelet-plugin' },
      drivers: ['gpu.example.com'],
    };
    const built = await build(post('/api/v1/role-builder/build', request, bearer('approver')));
    expect(built.status).toBe(200);
    const review = (await built.json()) as RoleBuildResponse;
    const decision = { build: request, yamlSha256: review.yamlSha256, decision: 'approve', approver: 'mallory', comment: 'ok' };

    // The viewer: refused by the proxy and by the route itself.
    expect((await send('/api/v1/role-builder/approvals', 'POST', bearer('viewer'))).status).toBe(403);
    const refused = await decide(post('/api/v1/role-builder/approvals', decision, bearer('viewer')));
    expect(refused.status).toBe(403);

    expect(passed(await send('/api/v1/role-builder/approvals', 'POST', bearer('approver')))).toBe(true);
    const res = await decide(post('/api/v1/role-builder/approvals', decision, bearer('approver')));
    expect(res.status).toBe(201);
    const recorded = (await res.json()) as DecisionResponse;
    expect(recorded.record).toMatchObject({ approver: 'alice-approver', approverAuthenticated: true });
    expect(recorded.record.approverGroups).toEqual(expect.arrayContaining(['platform-leads', 'system:authenticated']));
    // "Could the approver apply it" is answered for that identity: alice has no RBAC rights in the demo cluster.
    expect(recorded.approverCheck?.allowed).toBe(false);
    const kept = (await (await history(new Request(`${ORIGIN}/api/v1/role-builder/approvals`, { headers: { host: HOST, ...bearer('approver') } }))).json()) as {
      approvals: { approver: string }[];
    };
    expect(kept.approvals.map((a) => a.approver)).toContain('alice-approver');
    expect(kept.approvals.map((a) => a.approver)).not.toContain('mallory');
  }, 180_000);

  it('an auditor may take and read snapshots but not approve or switch sources', async () => {
    expect(passed(await send('/snapshots', 'GET', bearer('auditor')))).toBe(true);
    expect(passed(await send('/api/v1/snapshots', 'POST', bearer('auditor')))).toBe(true);
    expect((await send('/api/v1/role-builder/approvals', 'POST', bearer('auditor'))).status).toBe(403);
    expect((await send('/api/v1/sources/select', 'POST', bearer('auditor'))).status).toBe(403);
    expect((await send('/api/v1/simulate', 'POST', bearer('auditor'))).status).toBe(403);
  });

  it('signs in with a pasted token into an HttpOnly, Secure, SameSite=Strict __Host- cookie, and signs out', async () => {
    const session = { POST: (r: Request) => signInRoute(r, undefined), DELETE: (r: Request) => signOutRoute(r, undefined) };
    const wrong = await session.POST(post('/api/v1/session', { token: 'not-a-token' }, {}));
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/did not accept that token/);

    const ok = await session.POST(post('/api/v1/session', { token: cp.tokens.approver }, {}));
    expect(ok.status).toBe(201);
    const setCookie = ok.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-dra-posture-session=[\w-]{40,};/);
    for (const attr of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']) expect(setCookie).toContain(attr);
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(setCookie).not.toContain(cp.tokens.approver!);
    expect(((await ok.json()) as ViewerResponse & { username: string }).username).toBe('alice-approver');
    const cookie = setCookie.split(';')[0]!;
    expect(passed(await send('/roles', 'GET', { cookie }))).toBe(true);

    const out = await session.DELETE(new Request(`${ORIGIN}/api/v1/session`, { method: 'DELETE', headers: { host: HOST, origin: ORIGIN, cookie } }));
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    const after = await send('/roles', 'GET', { cookie });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe(`${ORIGIN}/sign-in?next=%2Froles&reason=ended`);
  });

  it('a removed grant takes effect once the short cache expires', async () => {
    const grant = clusterRoleBinding('viewer-late', 'dra-posture-auditor', { kind: 'User', name: 'viewer' });
    expect((await send('/snapshots', 'GET', bearer('viewer'))).status).toBe(403);
    await createAsAdmin(cp, grant);
    clearAuthCaches(); // stands for the 30 s access cache expiring
    expect(passed(await send('/snapshots', 'GET', bearer('viewer')))).toBe(true);
    const del = await cp.request('admin', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/viewer-late', { method: 'DELETE' });
    expect(del.status).toBe(200);
    clearAuthCaches();
    expect((await send('/snapshots', 'GET', bearer('viewer'))).status).toBe(403);
  });

  it('a flood of made-up tokens gets "busy" past a few reviews at once, and real viewers still get in', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await send('/api/v1/report', 'GET', { authorization: `Bearer made-up-${i}-${Date.now()}` });
        return res.status === 503 ? (((await res.json()) as { error: { message: string } }).error.message as string) : String(res.status);
      }),
    );
    expect(answers.filter((a) => a === '401').length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => /too many sign-in checks/.test(a)).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a === '401' || /too many sign-in checks/.test(a))).toBe(true);
    expect(passed(await send('/findings', 'GET', bearer('approver')))).toBe(true);
  });

  it('says 503 (not 500, not a sign-in loop) when the API server cannot be asked', async () => {
    const unreachable = join(dir, 'unreachable.kubeconfig');
    writeFileSync(unreachable, readFileSync(cp.kubeconfigs.dashboard!, 'utf8').replace(/server: .*/, "server: 'https://127.0.0.1:9'"));
    process.env.DRA_POSTURE_AUTH_KUBECONFIG = unreachable;
    resetAuthClient();
    clearAuthCaches();
    try {
      const page = await send('/findings', 'GET', bearer('viewer'));
      expect(page.status).toBe(503);
      expect(await page.text()).toMatch(/cannot check your credentials with the Kubernetes API server/);
      const api = await send('/api/v1/report', 'GET', bearer('viewer'));
      expect(api.status).toBe(503);
      expect(((await api.json()) as { error: { code: string } }).error.code).toBe('auth_unavailable');
    } finally {
      process.env.DRA_POSTURE_AUTH_KUBECONFIG = cp.kubeconfigs.dashboard!;
      resetAuthClient();
      clearAuthCaches();
    }
  }, 60_000);
});
