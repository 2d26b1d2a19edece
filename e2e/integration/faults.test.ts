// Faults of issue #25 item 4 against a real kube-apiserver (e2e/kube/control-plane.ts): a viewer
// whose RBAC forbids some kinds gets a report marked `partial`, and the checks that need those
// kinds are "unknown" rather than silently passing (R7 of /work/shared/reference/reliability-security.md);
// an API server down at start and a rejected token (R8) give /api/v1/report a 503 with the reason,
// answered from memory instead of dialling the server on every request.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG, type CheckId } from '../../lib/analysis/catalog';
import type { Report } from '../../lib/analysis/types';
import { buildReport } from '../../lib/report/build-report';
import { collectLiveCluster, readableKinds } from '../../server/kube/collect-cluster';
import { LiveCluster } from '../../server/sources/live-cluster';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { startFaultProxy, type FaultProxy } from '../kube/fault-proxy';
import { readManifests, seedObjects } from '../kube/seed-manifests';

const DEMO = join(import.meta.dirname, '..', '..', 'demo', 'manifests');
const V1_DISCOVERY = { draVersion: 'v1', draServedVersions: ['v1'], warnings: [] };
/** What the viewer may not list: namespaced RBAC, as when a team's RBAC is hidden from a reader. */
const HIDDEN = new Set(['Role', 'RoleBinding']);

let cp: ControlPlane;
let proxy: FaultProxy;

async function post(path: string, body: unknown): Promise<void> {
  const r = await cp.request('admin', path, { method: 'POST', body });
  if (r.status >= 300 && r.status !== 409) throw new Error(`POST ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}

/** Finding IDs per check. */
function findingsByCheck(report: Report): Map<CheckId, string> {
  const out = new Map<CheckId, string[]>();
  for (const f of report.findings) out.set(f.check, [...(out.get(f.check) ?? []), f.id]);
  return new Map([...out].map(([k, ids]) => [k, ids.sort().join(',')]));
}

beforeAll(async () => {
  cp = await startControlPlane({ controllers: false });
  await seedObjects(cp, readManifests(DEMO));
  // The viewer reads every kind the live source reads, except Roles and RoleBindings.
  const byGroup = new Map<string, string[]>();
  for (const { kind } of readableKinds(V1_DISCOVERY)) if (!HIDDEN.has(kind.kind)) byGroup.set(kind.group, [...(byGroup.get(kind.group) ?? []), kind.resource]);
  await post('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'faults-reader-without-roles' },
    rules: [...byGroup].map(([g, resources]) => ({ apiGroups: [g], resources, verbs: ['get', 'list', 'watch'] })),
  });
  await post('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'faults-reader-without-roles' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'faults-reader-without-roles' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer' }],
  });
  proxy = await startFaultProxy(cp.url);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await cp?.stop();
}, 60_000);

describe('403 on Roles and RoleBindings (real RBAC)', () => {
  let full: Report;
  beforeAll(async () => {
    full = buildReport((await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state);
  }, 60_000);

  it('admin reads everything: the report is not partial', () => {
    expect(full.partial).toBeUndefined();
    expect(full.checksUnknown).toBeUndefined();
    expect(full.findings.length).toBeGreaterThan(0);
  });

  /** The partial report must cover every check whose findings the forbidden kinds changed. */
  function expectPartial(report: Report): void {
    expect(report.partial).toBe(true);
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        'cannot list roles.rbac.authorization.k8s.io: forbidden by RBAC; results that depend on them are incomplete',
        'cannot list rolebindings.rbac.authorization.k8s.io: forbidden by RBAC; results that depend on them are incomplete',
      ]),
    );
    const unknown = new Set(report.checksUnknown!.map((c) => c.id));
    const before = findingsByCheck(full);
    const after = findingsByCheck(report);
    const changed = (Object.keys(CATALOG) as CheckId[]).filter((id) => before.get(id) !== after.get(id));
    // The demo's findings do depend on namespaced RBAC, so the comparison is not vacuous.
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.filter((id) => !unknown.has(id))).toEqual([]);
    for (const c of report.checksUnknown!) expect(c.kinds.every((k) => HIDDEN.has(k))).toBe(true);
  }

  it('one read (CLI): partial, the affected checks unknown', async () => {
    const got = await collectLiveCluster({ kubeconfig: cp.kubeconfigs.viewer });
    expect(got.state.source.unreadKinds?.map((u) => u.kind)).toEqual(['Role', 'RoleBinding']);
    expect(got.state.roles).toEqual([]);
    expect(got.state.clusterRoleBindings.length).toBeGreaterThan(0);
    expectPartial(buildReport(got.state));
  }, 60_000);

  it('the dashboard source (reflectors): partial, the affected checks unknown', async () => {
    const live = new LiveCluster({ kubeconfig: cp.kubeconfigs.viewer, probeIntervalMs: 60_000 });
    try {
      await live.start();
      const state = live.getState();
      expect(state.source.unreadKinds?.map((u) => u.kind)).toEqual(['Role', 'RoleBinding']);
      expectPartial(buildReport(state));
    } finally {
      live.stop();
    }
  }, 60_000);
});

describe('GET /api/v1/report when the live source fails', () => {
  const env = { ...process.env };
  afterAll(() => {
    process.env = env;
  });
  /** The report route, in-process, with the dashboard's live source read from `kubeconfig`. */
  async function getReport(
    kubeconfig: string,
  ): Promise<{ status: number; body: { error?: { code: string; message: string }; partial?: boolean }; ms: number }> {
    process.env.DRA_POSTURE_KUBECONFIG = kubeconfig;
    delete process.env.DRA_POSTURE_SNAPSHOT;
    delete process.env.DRA_POSTURE_SOURCE;
    const { GET } = await import('@/app/api/v1/report/route');
    const t0 = performance.now();
    const res = await GET(new Request('http://127.0.0.1:3999/api/v1/report', { headers: { host: '127.0.0.1:3999' } }), undefined);
    return { status: res.status, body: JSON.parse(await res.text()), ms: performance.now() - t0 };
  }

  it('API server down at start: 503 with the reason, and the next request does not dial it again', async () => {
    // Accepts each TLS connection and drops it at once: a server that is not answering.
    let connections = 0;
    const dead: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    try {
      const port = (dead.address() as { port: number }).port;
      const kc = proxy.kubeconfig('down-at-start', cp.tokens.admin);
      writeFileSync(kc, readFileSync(kc, 'utf8').replace(proxy.url, `https://127.0.0.1:${port}`));
      const first = await getReport(kc);
      expect(first.status).toBe(503);
      expect(first.body.error?.code).toBe('source_unavailable');
      expect(first.body.error?.message).toMatch(/^the cluster source could not be read: /);
      expect(connections).toBeGreaterThan(0);
      const dialled = connections;
      const second = await getReport(kc);
      expect(second.status).toBe(503);
      expect(second.body.error?.message).toBe(first.body.error?.message);
      expect(connections).toBe(dialled);
      expect(second.ms).toBeLessThan(500);
    } finally {
      await new Promise((r) => dead.close(r));
    }
  }, 60_000);

  it('401: "credentials rejected", no further requests until the credentials change, then the report (partial for this viewer)', async () => {
    const kc = proxy.kubeconfig('revoked', 'not-a-valid-token');
    const mark = proxy.log.length;
    const first = await getReport(kc);
    expect(first.status).toBe(503);
    expect(first.body.error?.message).toContain('credentials rejected');
    const sent = proxy.log.length - mark;
    expect(sent).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect((await getReport(kc)).body.error?.message).toContain('credentials rejected');
    expect(proxy.log.length - mark).toBe(sent);

    // New credentials in the same file: the next request reads the cluster again.
    copyFileSync(proxy.kubeconfig('revoked-fixed', cp.tokens.viewer), kc);
    const fixed = await getReport(kc);
    expect(fixed.status).toBe(200);
    expect(fixed.body.partial).toBe(true);
  }, 60_000);

  it('token revoked mid-session: the first 401 stops every request, the data is labelled, new credentials start again (R8)', async () => {
    const kc = proxy.kubeconfig('mid-session', cp.tokens.admin);
    expect((await getReport(kc)).status).toBe(200);
    const { getLiveStatus } = await import('@/server/services/current-cluster');
    expect((await getLiveStatus())?.credentialsRejected).toBeUndefined();

    const revoked = proxy.addRule({ name: '401 revoked', status: 401, match: () => true });
    try {
      // Watches reconnect (as after a server-side timeout) and meet the 401; the probe meets it within 3 s.
      const t0 = performance.now();
      for (;;) {
        proxy.endWatches(() => true);
        const status = await getLiveStatus();
        if (status?.credentialsRejected && status.kinds.every((k) => k.credentialsRejected)) break;
        if (performance.now() - t0 > 15_000)
          throw new Error(`not rejected: ${JSON.stringify(status?.kinds.filter((k) => !k.credentialsRejected)).slice(0, 1500)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const status = (await getLiveStatus())!;
      expect(status.stale).toBe(true);
      expect(status.staleReason).toContain('credentials rejected');
      const mark = proxy.log.length;
      await new Promise((r) => setTimeout(r, 4000)); // longer than the 3 s probe interval
      expect(proxy.log.slice(mark).map((e) => e.path)).toEqual([]);
      // The last data is still served.
      expect((await getReport(kc)).status).toBe(200);
    } finally {
      revoked.remove();
    }
    copyFileSync(proxy.kubeconfig('mid-session-fixed', cp.tokens.viewer), kc);
    const fixed = await getReport(kc);
    expect(fixed.status).toBe(200);
    expect(fixed.body.partial).toBe(true);
    expect((await getLiveStatus())?.credentialsRejected).toBeUndefined();
  }, 60_000);
});
