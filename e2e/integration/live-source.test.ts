// The live source against a real kube-apiserver (e2e/kube/control-plane.ts), through the
// fault-injecting proxy (e2e/kube/fault-proxy.ts): the demo cluster read back identically, the
// request log (no Secrets, read-only, paginated), per-viewer RBAC, the deploy/ manifests, DRA
// discovery variants, and the reliability behaviours R2/R3/R4/R5/R6/R7/R9 of
// /work/shared/reference/reliability-security.md.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterState } from '../../lib/k8s/cluster-state';
import { buildReport } from '../../lib/report/build-report';
import { collectLiveCluster, readableKinds, type LiveCollection } from '../../server/kube/collect-cluster';
import { loadSnapshot } from '../../server/sources/snapshot-source';
import { loadLiveCluster } from '../../server/sources/live-source';
import { PAGE_LIMIT } from '../../server/kube/list-kind';
import { RBAC_KINDS } from '../../lib/authz/kinds-for-question';
import { createAuthzEngine } from '../../lib/authz/authz-engine';
import { readStaticKubeconfig } from '../../server/kube/static-kubeconfig';
import { LiveCluster } from '../../server/sources/live-cluster';
import { LiveAnalysis } from '../../server/services/live-analysis';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';
import { startFaultProxy, type FaultProxy, type ProxyLogEntry } from '../kube/fault-proxy';
import { readManifests, seedObjects } from '../kube/seed-manifests';

const ROOT = join(import.meta.dirname, '..', '..');
const DEMO = join(ROOT, 'demo', 'manifests');
const DEPLOY = join(ROOT, 'deploy');
const V1_DISCOVERY = { draVersion: 'v1', draServedVersions: ['v1'], warnings: [] };
const READ_VERBS = ['get', 'list', 'watch'];

let cp: ControlPlane;
let proxy: FaultProxy;
/** Object keys present before the demo was seeded (bootstrap RBAC, system namespaces). */
let baseline: Set<string>;
const figures: Record<string, string> = {};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [k: string]: unknown }; [k: string]: unknown };

function collections(state: ClusterState): [string, { metadata: { name: string; namespace?: string; uid?: string } }[]][] {
  return Object.entries(state).filter(([k, v]) => k !== 'warnings' && Array.isArray(v)) as never;
}

/** collection/namespace/name (and uid) of every object. */
function keysOf(state: ClusterState, withUid = false): Set<string> {
  const out = new Set<string>();
  for (const [c, list] of collections(state))
    for (const o of list) out.add(`${c}/${o.metadata.namespace ?? ''}/${o.metadata.name}${withUid ? `/${o.metadata.uid}` : ''}`);
  return out;
}

const minus = (a: Set<string>, b: Set<string>) => [...a].filter((k) => !b.has(k)).sort();

function byKey<T extends { metadata: { name: string; namespace?: string } }>(list: T[]): Map<string, T> {
  return new Map(list.map((o) => [`${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));
}

async function direct(): Promise<LiveCollection> {
  return collectLiveCluster({ kubeconfig: cp.kubeconfigPath });
}

async function until<T>(
  what: string,
  timeoutMs: number,
  fn: () => Promise<T | undefined> | T | undefined,
  everyMs = 100,
  explain?: () => unknown,
): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  for (;;) {
    const value = await fn();
    if (value !== undefined && value !== false) return { value, ms: performance.now() - t0 };
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${explain ? `: ${JSON.stringify(explain()).slice(0, 1500)}` : ''}`);
    await sleep(everyMs);
  }
}

/** POSTs as admin, `concurrency` at a time; 409 (already there) is fine. */
async function createAll(items: { path: string; body: unknown }[], concurrency = 8): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        const r = await cp.request('admin', job.path, { method: 'POST', body: job.body });
        if (r.status >= 300 && r.status !== 409) throw new Error(`POST ${job.path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      }
    }),
  );
}

const sa = (ns: string, name: string) => ({
  path: `/api/v1/namespaces/${ns}/serviceaccounts`,
  body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
});
const ns = (name: string) => ({ path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
const role = (namespace: string, name: string) => ({
  path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`,
  body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
});

/** GETs the live source sends that are not discovery: they must all be paginated lists. */
const DISCOVERY = /^\/(version|api|apis|apis\/[^/]+|apis\/[^/]+\/[^/]+|api\/v1)$/;

function sinceMark(mark: number): ProxyLogEntry[] {
  return proxy.log.slice(mark);
}

/** List starts (first pages) for a collection path since `mark`. */
function listStarts(mark: number, pathname: string): ProxyLogEntry[] {
  return sinceMark(mark).filter((e) => e.method === 'GET' && !e.watch && e.pathname === pathname && !e.query.has('continue'));
}

beforeAll(async () => {
  const t0 = performance.now();
  cp = await startControlPlane();
  figures['control plane start'] =
    `${Math.round(performance.now() - t0)} ms (apiserver /readyz ${cp.timings.apiserverReadyMs} ms, controllers ${cp.timings.controllersReadyMs} ms)`;
  proxy = await startFaultProxy(cp.url);
  baseline = keysOf((await direct()).state);
  const t1 = performance.now();
  await seedObjects(cp, readManifests(DEMO));
  figures['demo seed'] = `${Math.round(performance.now() - t1)} ms`;
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await cp?.stop();
  console.log(
    `live-source figures:\n${Object.entries(figures)
      .map(([k, v]) => `  ${k}: ${v}`)
      .join('\n')}`,
  );
}, 60_000);

describe('live source against the real kube-apiserver', () => {
  it('a question’s read: RBAC kinds only, no resource.k8s.io discovery, pages of 500, and one TLS connection per request in flight, not per request (issue 15)', async () => {
    const kubeconfig = proxy.kubeconfig('admin', cp.tokens.admin);
    const mark = proxy.log.length;
    const before = proxy.connectionsOpened;
    const state = await loadLiveCluster({ kubeconfig, kinds: RBAC_KINDS });
    const requests = sinceMark(mark);
    const opened = proxy.connectionsOpened - before;
    expect(state.clusterRoles.length).toBeGreaterThan(10);
    // No pods but the API server's (its flags configure every answer), read from kube-system alone.
    expect(state.pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(['kube-system/kube-apiserver-cp-01']);
    expect(requests.map((e) => e.pathname).filter((p) => p.endsWith('/pods'))).toEqual(['/api/v1/namespaces/kube-system/pods']);
    expect(requests.map((e) => e.pathname).filter((p) => p.startsWith('/apis/resource.k8s.io'))).toEqual([]);
    const lists = requests.filter((e) => e.pathname.startsWith('/apis/rbac.authorization.k8s.io/'));
    expect(lists.length).toBeGreaterThanOrEqual(4);
    for (const e of lists) expect(e.query.get('limit')).toBe(String(PAGE_LIMIT));
    // /version and the four lists (more pages where needed), at most four in flight; client-node's agent per request opened one connection each.
    expect(requests.length).toBeGreaterThanOrEqual(5);
    expect(opened).toBeLessThanOrEqual(4);
    expect(opened).toBeLessThan(requests.length);
  });

  it('a question asked in one namespace lists Roles and RoleBindings there alone; its who-can and can-i answers equal a whole read’s (issue 15)', async () => {
    const kubeconfig = proxy.kubeconfig('admin', cp.tokens.admin);
    const whole = createAuthzEngine((await direct()).state);
    for (const namespace of ['tenant-a', 'tenant-c']) {
      const mark = proxy.log.length;
      const scoped = createAuthzEngine(await loadLiveCluster({ kubeconfig, kinds: RBAC_KINDS, rbacNamespaces: new Set([namespace]) }));
      const paths = sinceMark(mark).map((e) => e.pathname);
      expect(paths).toContain(`/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`);
      expect(paths).toContain(`/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`);
      expect(paths).not.toContain('/apis/rbac.authorization.k8s.io/v1/rolebindings');
      expect(paths).not.toContain('/apis/rbac.authorization.k8s.io/v1/roles');
      let viaRoleBinding = 0;
      for (const [group, resource, subresource] of [
        ['resource.k8s.io', 'resourceclaims', 'status'],
        ['resource.k8s.io', 'resourceclaims', ''],
        ['', 'pods', ''],
        ['', 'secrets', ''],
        ['', 'serviceaccounts', 'token'],
      ])
        for (const verb of ['get', 'create', 'update']) {
          const resourceAttributes = { verb, group, resource, subresource, namespace, name: '' };
          const expected = whole.whoCan({ resource: resourceAttributes });
          viaRoleBinding += expected.filter((e) => e.grants.some((g) => g.binding.kind === 'RoleBinding')).length;
          expect(scoped.whoCan({ resource: resourceAttributes }), JSON.stringify(resourceAttributes)).toEqual(expected);
          for (const e of expected.filter((x) => x.subject.kind === 'ServiceAccount')) {
            const user = { name: `system:serviceaccount:${e.subject.namespace}:${e.subject.name}`, groups: ['system:serviceaccounts', 'system:authenticated'] };
            expect(scoped.authorize({ user, resource: resourceAttributes }).allowed).toBe(whole.authorize({ user, resource: resourceAttributes }).allowed);
          }
        }
      expect(viaRoleBinding, `RoleBindings in ${namespace} must matter, or this proves little`).toBeGreaterThan(0);
    }
  });

  it('a kubeconfig that verifies the server (certificate-authority, tls-server-name) is read without client-node and answers; a wrong server name is refused clearly (issue 15)', async () => {
    const pki = join(cp.dir, 'pki', 'apiserver.crt');
    const write = (name: string, serverName?: string) => {
      const path = join(cp.dir, name);
      writeFileSync(
        path,
        stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'kas', cluster: { server: cp.url, 'certificate-authority': pki, ...(serverName ? { 'tls-server-name': serverName } : {}) } }],
          users: [{ name: 'admin', user: { token: cp.tokens.admin } }],
          contexts: [{ name: 'verified', context: { cluster: 'kas', user: 'admin' } }],
          'current-context': 'verified',
        }),
      );
      return path;
    };
    for (const [name, serverName] of [['verified.kubeconfig'], ['verified-sni.kubeconfig', 'kubernetes.default.svc']]) {
      const kubeconfig = write(name, serverName);
      expect(readStaticKubeconfig({ kubeconfig }), 'the static reader must take it on').toBeDefined();
      const state = await loadLiveCluster({ kubeconfig, kinds: RBAC_KINDS });
      expect(state.clusterRoles.some((r) => r.metadata.name === 'cluster-admin')).toBe(true);
    }
    // Not retried: a certificate that does not verify will not verify on the next attempt.
    const t0 = performance.now();
    await expect(loadLiveCluster({ kubeconfig: write('wrong-sni.kubeconfig', 'wrong.example'), kinds: RBAC_KINDS })).rejects.toMatchObject({
      code: 'untrusted_server',
      message: expect.stringMatching(/ERR_TLS_CERT_ALTNAME_INVALID .*wrong\.example/),
    });
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('reads the seeded demo back identically; the request log has no Secrets, only GETs, every LIST paginated (S9, S16, R10)', async () => {
    const mark = proxy.log.length;
    const live = await collectLiveCluster({ kubeconfig: proxy.kubeconfig('admin', cp.tokens.admin) });
    const snap = await loadSnapshot(DEMO);
    expect(live.state.warnings).toEqual([]);
    expect(snap.warnings).toEqual([]);

    // Same (kind, namespace, name) sets for every kind the demo has; the only extra objects are
    // those that existed before seeding and the `default` ServiceAccounts the controller adds.
    const liveKeys = keysOf(live.state);
    const snapKeys = keysOf(snap);
    expect(minus(snapKeys, liveKeys)).toEqual([]);
    const extra = minus(liveKeys, snapKeys).filter((k) => !baseline.has(k) && !/^serviceAccounts\/[^/]+\/default$/.test(k));
    expect(extra).toEqual([]);
    const demoCollections = collections(snap)
      .filter(([, list]) => list.length > 0)
      .map(([c]) => c);
    expect(demoCollections.length).toBeGreaterThanOrEqual(15);
    for (const c of demoCollections) {
      const want = [...snapKeys].filter((k) => k.startsWith(`${c}/`));
      expect(
        want.every((k) => liveKeys.has(k)),
        c,
      ).toBe(true);
    }

    // RBAC: identical rules, subjects and roleRefs. Aggregated ClusterRoles get their rules from the
    // controller, so for them only the aggregationRule is compared.
    const liveRoles = byKey(live.state.roles);
    for (const r of snap.roles) expect(liveRoles.get(`${r.metadata.namespace}/${r.metadata.name}`)?.rules, r.metadata.name).toEqual(r.rules);
    const liveClusterRoles = byKey(live.state.clusterRoles);
    let aggregated = 0;
    for (const r of snap.clusterRoles) {
      const l = liveClusterRoles.get(`/${r.metadata.name}`)!;
      expect(l.aggregationRule, r.metadata.name).toEqual(r.aggregationRule);
      if (r.aggregationRule) aggregated++;
      else expect(l.rules, r.metadata.name).toEqual(r.rules);
    }
    expect(aggregated).toBeGreaterThan(0);
    for (const [want, got] of [
      [snap.roleBindings, live.state.roleBindings],
      [snap.clusterRoleBindings, live.state.clusterRoleBindings],
    ] as const) {
      const m = byKey(got as { metadata: { name: string; namespace?: string } }[]);
      for (const b of want) {
        const l = m.get(`${b.metadata.namespace ?? ''}/${b.metadata.name}`) as typeof b;
        expect(l.subjects, b.metadata.name).toEqual(b.subjects);
        expect(l.roleRef, b.metadata.name).toEqual(b.roleRef);
      }
    }
    // ResourceClaims: identical spec and status.allocation.
    const liveClaims = byKey(live.state.resourceClaims);
    expect(snap.resourceClaims.length).toBeGreaterThan(10);
    let allocated = 0;
    for (const c of snap.resourceClaims) {
      const l = liveClaims.get(`${c.metadata.namespace}/${c.metadata.name}`)!;
      expect(l.spec, c.metadata.name).toEqual(c.spec);
      expect(l.status?.allocation, c.metadata.name).toEqual(c.status?.allocation);
      if (c.status?.allocation) allocated++;
    }
    expect(allocated).toBeGreaterThan(0);

    // The request log.
    const log = sinceMark(mark);
    expect(log.length).toBeGreaterThan(20);
    expect(log.filter((e) => /\/secrets(\/|\?|$)/.test(e.path))).toEqual([]);
    expect(log.filter((e) => /\/configmaps(\/|\?|$)/.test(e.path))).toEqual([]);
    expect(log.filter((e) => !(e.method === 'GET' || (e.method === 'POST' && /(accessreviews|rulesreviews)$/.test(e.pathname))))).toEqual([]);
    expect(log.every((e) => !('authorization' in e.headers))).toBe(true);
    const lists = log.filter((e) => e.method === 'GET' && !DISCOVERY.test(e.pathname));
    expect(lists.length).toBe(readableKinds(V1_DISCOVERY).length);
    for (const e of lists) {
      const limit = Number(e.query.get('limit'));
      expect(e.watch, e.path).toBe(false);
      expect(limit > 0 && limit <= 500, e.path).toBe(true);
    }
    figures['demo collection via proxy'] = `${live.stats.durationMs} ms, ${live.stats.listCalls} list calls, ${log.length} requests`;
  }, 60_000);

  it('deploy/: applies to the real server; the dashboard SA can list every kind read and cannot read secrets/configmaps or write (S16, T7, T8)', async () => {
    const docs = await applyDeploy();
    const kinds = readableKinds(V1_DISCOVERY).map(({ kind }) => kind);
    expect(kinds.some((k) => k.resource === 'configmaps' || k.resource === 'secrets')).toBe(false);

    // The ClusterRole names exactly the kinds the live source reads, get/list/watch only, no wildcards.
    const cr = docs.find((d) => d.kind === 'ClusterRole')! as Obj & {
      rules: { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[]; nonResourceURLs?: string[] }[];
    };
    const granted = new Set<string>();
    for (const r of cr.rules) {
      expect([...r.verbs].sort()).toEqual([...READ_VERBS].sort());
      expect(r.resourceNames ?? []).toEqual([]);
      expect(r.nonResourceURLs ?? []).toEqual([]);
      for (const g of r.apiGroups) for (const res of r.resources) granted.add(`${g}/${res}`);
    }
    expect(JSON.stringify(cr.rules)).not.toMatch(/\*|secrets|configmaps/);
    expect([...granted].sort()).toEqual(kinds.map((k) => `${k.group}/${k.resource}`).sort());

    // SubjectAccessReviews for the pod's identity, answered by the real RBAC authorizer.
    const user = 'system:serviceaccount:dra-posture:dra-posture';
    const groups = ['system:serviceaccounts', 'system:serviceaccounts:dra-posture', 'system:authenticated'];
    const ask = async (attrs: Record<string, string>) => {
      const r = await cp.request('admin', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups, resourceAttributes: attrs } },
      });
      expect(r.status).toBe(201);
      return !!r.body.status.allowed;
    };
    const denied: string[] = [];
    const allowed: string[] = [];
    for (const k of kinds) {
      for (const verb of READ_VERBS) if (!(await ask({ group: k.group, resource: k.resource, verb }))) denied.push(`${verb} ${k.resource}`);
      for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection'])
        if (await ask({ group: k.group, resource: k.resource, verb, namespace: k.namespaced ? 'tenant-a' : '' })) allowed.push(`${verb} ${k.resource}`);
    }
    expect(denied).toEqual([]);
    const forbidden: Record<string, string>[] = [];
    for (const namespace of ['', 'dra-posture', 'kube-system', 'tenant-a']) {
      for (const resource of ['secrets', 'configmaps']) for (const verb of ['get', 'list', 'watch']) forbidden.push({ group: '', resource, verb, namespace });
    }
    forbidden.push(
      { group: '', resource: 'pods', subresource: 'exec', verb: 'create', namespace: 'tenant-a' },
      { group: '', resource: 'nodes', subresource: 'proxy', verb: 'get' },
      { group: '', resource: 'serviceaccounts', subresource: 'token', verb: 'create', namespace: 'tenant-a' },
      { group: '', resource: 'users', verb: 'impersonate' },
      { group: '', resource: 'serviceaccounts', verb: 'impersonate', namespace: 'tenant-a' },
      { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'escalate' },
      { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'bind' },
      { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', verb: 'update', namespace: 'tenant-a' },
      { group: '', resource: 'nodes', subresource: 'status', verb: 'patch' },
      { group: 'authorization.k8s.io', resource: 'localsubjectaccessreviews', verb: 'create', namespace: 'tenant-a' },
      { group: 'authentication.k8s.io', resource: 'tokenreviews', verb: 'get' },
      { group: 'dra-posture.io', resource: 'reports', verb: 'get' },
    );
    for (const attrs of forbidden) if (await ask(attrs)) allowed.push(JSON.stringify(attrs));
    expect(allowed).toEqual([]);
    // serve --auth kubernetes asks who a viewer is and what they may do: the two reviews, nothing more.
    expect(await ask({ group: 'authentication.k8s.io', resource: 'tokenreviews', verb: 'create' })).toBe(true);
    expect(await ask({ group: 'authorization.k8s.io', resource: 'subjectaccessreviews', verb: 'create' })).toBe(true);

    // The Deployment's pod passes the namespace's enforced "restricted" Pod Security Standard.
    const deployment = docs.find((d) => d.kind === 'Deployment')! as Obj & { spec: { template: { metadata: unknown; spec: any } } };
    const podSpec = deployment.spec.template.spec;
    const dry = await cp.request('admin', '/api/v1/namespaces/dra-posture/pods?dryRun=All', {
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'dashboard-dry-run', labels: { 'app.kubernetes.io/name': 'dra-posture' } }, spec: podSpec },
    });
    expect(dry.status, JSON.stringify(dry.body).slice(0, 400)).toBe(201);
    expect(dry.headers.warning).toBeUndefined();
    const c = podSpec.containers[0];
    expect(podSpec.securityContext.runAsNonRoot).toBe(true);
    expect(podSpec.securityContext.seccompProfile.type).toBe('RuntimeDefault');
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(c.args.join(' ')).toContain('--host 0.0.0.0');
    const svc = (await cp.request('admin', '/api/v1/namespaces/dra-posture/services/dra-posture')).body;
    expect(svc.spec.type).toBe('ClusterIP');
    expect(svc.spec.ports.every((p: { nodePort?: number }) => p.nodePort === undefined)).toBe(true);
    expect(svc.spec.externalIPs ?? []).toEqual([]);

    // And the real thing: a token of that ServiceAccount collects everything, with no warnings.
    const tr = await cp.request('admin', '/api/v1/namespaces/dra-posture/serviceaccounts/dra-posture/token', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    });
    expect(tr.status).toBe(201);
    const asSa = await collectLiveCluster({ kubeconfig: proxy.kubeconfig('dashboard-sa', tr.body.status.token) });
    expect(asSa.state.warnings).toEqual([]);
    expect(minus(keysOf((await direct()).state), keysOf(asSa.state))).toEqual([]);

    // The posture report of a cluster running the dashboard has no finding about its own identity,
    // while the same report does have findings (the demo's): the check is not vacuous.
    const report = buildReport(asSa.state);
    expect(report.findings.length).toBeGreaterThan(10);
    const own = report.findings.filter((f) => f.subjects.some((x) => x.kind === 'ServiceAccount' && x.namespace === 'dra-posture'));
    expect(own).toEqual([]);
  }, 120_000);

  it('per-viewer RBAC: a one-namespace viewer gets that namespace plus warnings; a cluster-wide reader gets everything (S14, R7)', async () => {
    await applyDeploy();
    const namespace = 'tenant-a';
    const kinds = readableKinds(V1_DISCOVERY).map(({ kind }) => kind);
    const namespaced = kinds.filter((k) => k.namespaced);
    const byGroup = new Map<string, string[]>();
    for (const k of namespaced) byGroup.set(k.group, [...(byGroup.get(k.group) ?? []), k.resource]);
    await createAll([
      {
        path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles`,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'Role',
          metadata: { name: 'lt-ns-reader' },
          rules: [...byGroup].map(([g, resources]) => ({ apiGroups: [g], resources, verbs: READ_VERBS })),
        },
      },
      {
        path: `/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/rolebindings`,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'lt-ns-reader' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'lt-ns-reader' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'ns-viewer' }],
        },
      },
      {
        path: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'lt-viewer-reader' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'dra-posture-reader' },
          subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'viewer' }],
        },
      },
    ]);
    const admin = (await direct()).state;

    const nsView = await collectLiveCluster({ kubeconfig: proxy.kubeconfig('ns-viewer', cp.tokens['ns-viewer'], { namespace }) });
    for (const k of kinds) {
      const got = nsView.state[k.collection] as { metadata: { name: string; namespace?: string } }[];
      const label = `${k.resource}${k.group ? `.${k.group}` : ''}`;
      if (k.namespaced) {
        const want = (admin[k.collection] as typeof got)
          .filter((o) => o.metadata.namespace === namespace)
          .map((o) => o.metadata.name)
          .sort();
        expect(got.map((o) => o.metadata.name).sort(), label).toEqual(want);
        expect(
          got.every((o) => o.metadata.namespace === namespace),
          label,
        ).toBe(true);
        expect(nsView.state.warnings, label).toContain(`cannot list ${label} cluster-wide: read only in namespace ${namespace}`);
        expect(nsView.perNamespace.get(k.kind)).toEqual([namespace]);
      } else {
        expect(got, label).toEqual([]);
        expect(
          nsView.state.warnings.some((w) => w.startsWith(`cannot list ${label}: forbidden`)),
          label,
        ).toBe(true);
      }
    }
    expect(nsView.state.pods.length).toBeGreaterThan(0);
    expect(nsView.state.resourceClaims.length).toBeGreaterThan(0);
    expect(nsView.state.warnings.length).toBe(kinds.length);

    const clusterView = await collectLiveCluster({ kubeconfig: proxy.kubeconfig('viewer', cp.tokens.viewer) });
    expect(clusterView.state.warnings).toEqual([]);
    expect(minus(keysOf(admin, true), keysOf(clusterView.state, true))).toEqual([]);
    expect(minus(keysOf(clusterView.state, true), keysOf(admin, true))).toEqual([]);
  }, 60_000);

  it('403 on one kind (and on resource.k8s.io discovery): a warning, the rest loaded (R7, R9)', async () => {
    const rule = proxy.addRule({
      name: '403 rolebindings',
      status: 403,
      match: (r) => /^\/apis\/rbac\.authorization\.k8s\.io\/v1\/(namespaces\/[^/]+\/)?rolebindings$/.test(r.pathname),
    });
    try {
      const kc = proxy.kubeconfig('admin', cp.tokens.admin);
      const got = await collectLiveCluster({ kubeconfig: kc });
      const want = (await direct()).state;
      expect(rule.hits).toBe(1);
      expect(got.state.warnings).toEqual(['cannot list rolebindings.rbac.authorization.k8s.io: forbidden by RBAC; results that depend on them are incomplete']);
      expect(got.state.roleBindings).toEqual([]);
      const rest = (s: ClusterState) => new Set([...keysOf(s, true)].filter((k) => !k.startsWith('roleBindings/')));
      expect(minus(rest(want), rest(got.state))).toEqual([]);
      expect(want.roleBindings.length).toBeGreaterThan(0);

      rule.remove();
      const dra = proxy.addRule({ name: '403 DRA discovery', status: 403, match: (r) => r.pathname === '/apis/resource.k8s.io' });
      try {
        const noDra = await collectLiveCluster({ kubeconfig: kc });
        expect(dra.hits).toBe(1);
        expect(noDra.discovery.draVersion).toBeUndefined();
        expect(noDra.state.warnings.length).toBe(1);
        expect(noDra.state.warnings[0]).toMatch(/^cannot discover resource\.k8s\.io .*403/);
        expect(noDra.state.resourceClaims).toEqual([]);
        expect(noDra.state.pods.length).toBe(want.pods.length);
      } finally {
        dra.remove();
      }
    } finally {
      rule.remove();
    }
  }, 60_000);

  it('continue token expired at page 3 of a 1,600+ object list: restarts, final count equals the server, no duplicates (R5)', async () => {
    const t0 = performance.now();
    await createAll([ns('lt-bulk')]);
    await createAll(
      Array.from({ length: 1600 }, (_, i) => sa('lt-bulk', `bulk-${String(i).padStart(4, '0')}`)),
      8,
    );
    figures['seed 1,600 ServiceAccounts (8 in flight)'] = `${Math.round(performance.now() - t0)} ms`;
    const server = await cp.request('admin', '/api/v1/serviceaccounts');
    const serverNames = (server.body.items as Obj[]).map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort();
    expect(serverNames.length).toBeGreaterThan(1600);

    const mark = proxy.log.length;
    const rule = proxy.addRule({
      name: '410 continue',
      status: 410,
      reason: 'Expired',
      message: 'The provided continue parameter is too old',
      skip: 1,
      times: 1,
      match: (r) => r.pathname === '/api/v1/serviceaccounts' && r.query.has('continue'),
    });
    try {
      const got = await collectLiveCluster({ kubeconfig: proxy.kubeconfig('admin', cp.tokens.admin) });
      expect(rule.hits).toBe(1);
      expect(got.stats.restarts).toBe(1);
      const names = got.state.serviceAccounts.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort();
      expect(names).toEqual(serverNames);
      const uids = got.state.serviceAccounts.map((o) => o.metadata.uid);
      expect(new Set(uids).size).toBe(uids.length);
      // page 1, page 2, page 3 (410), then page 1..4 again.
      const saLog = sinceMark(mark).filter((e) => e.pathname === '/api/v1/serviceaccounts');
      expect(saLog.map((e) => (e.query.has('continue') ? 'c' : 'p1') + (e.status === 410 ? ':410' : ''))).toEqual(['p1', 'c', 'c:410', 'p1', 'c', 'c', 'c']);
      expect(saLog.every((e) => e.query.get('limit') === '500')).toBe(true);
    } finally {
      rule.remove();
    }
  }, 120_000);

  it('429 with Retry-After: 2 on 30% of LISTs: no retry sooner than 2 s, at most 4 in flight, the collection finishes (R6)', async () => {
    const mark = proxy.log.length;
    const rule = proxy.addRule({ name: '429', status: 429, retryAfter: 2, fraction: 0.3, seed: 42, match: (r) => r.list });
    const throttles: number[] = [];
    try {
      const got = await collectLiveCluster({ kubeconfig: proxy.kubeconfig('admin', cp.tokens.admin), http: { onThrottle: (s) => throttles.push(s) } });
      const want = (await direct()).state;
      expect(got.state.warnings).toEqual([]);
      expect(minus(keysOf(want, true), keysOf(got.state, true))).toEqual([]);
      const log = sinceMark(mark);
      const throttled = log.filter((e) => e.status === 429);
      const lists = log.filter((e) => e.method === 'GET' && !DISCOVERY.test(e.pathname));
      expect(throttled.length).toBe(rule.hits);
      expect(throttled.length).toBeGreaterThan(lists.length * 0.15);
      expect(throttles.length).toBe(throttled.length);
      expect(throttles.every((s) => s === 2)).toBe(true);
      let minGap = Infinity;
      for (const e of throttled) {
        const next = log.find((n) => n.id > e.id && n.path === e.path);
        expect(next, e.path).toBeDefined();
        minGap = Math.min(minGap, next!.t - e.t);
      }
      expect(minGap).toBeGreaterThanOrEqual(2000);
      expect(proxy.maxInFlight((e) => e.id > (log[0]?.id ?? 0) - 1)).toBeLessThanOrEqual(4);
      figures['429 collection'] =
        `${got.stats.durationMs} ms, ${throttled.length} of ${lists.length} LISTs throttled, shortest retry gap ${Math.round(minGap)} ms`;
    } finally {
      rule.remove();
    }
  }, 120_000);

  it('the dashboard’s live analysis, after 40 random changes on the server, converges to an analysis of a fresh read (issue 14)', async () => {
    const lc = new LiveCluster({ kubeconfig: cp.kubeconfigPath, probeIntervalMs: 1000 });
    await lc.start();
    const analysis = new LiveAnalysis(lc);
    try {
      const first = await analysis.current();
      const nodes = first.state.nodes.map((n) => n.metadata.name);
      const RBAC = 'rbac.authorization.k8s.io';
      await createAll([
        {
          path: `/apis/${RBAC}/v1/clusterroles`,
          body: {
            apiVersion: `${RBAC}/v1`,
            kind: 'ClusterRole',
            metadata: { name: 'lt-claim-status' },
            rules: [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] }],
          },
        },
      ]);
      let seed = 5;
      const r = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
      const pods: string[] = [];
      const bindings: string[] = [];
      for (let i = 0; i < 40; i++) {
        const op = r();
        const namespace = pick(['tenant-a', 'tenant-b', 'tenant-c']);
        if (op < 0.4) {
          const name = `lt-pod-${i}`;
          const res = await cp.request('admin', `/api/v1/namespaces/${namespace}/pods`, {
            method: 'POST',
            body: {
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name },
              spec: {
                nodeName: pick(nodes),
                serviceAccountName: 'default',
                containers: [{ name: 'c', image: 'registry.example/app:1', resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
              },
            },
          });
          expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
          pods.push(`${namespace}/${name}`);
        } else if (op < 0.7) {
          const name = `lt-rb-${i}`;
          const res = await cp.request('admin', `/apis/${RBAC}/v1/namespaces/${namespace}/rolebindings`, {
            method: 'POST',
            body: {
              apiVersion: `${RBAC}/v1`,
              kind: 'RoleBinding',
              metadata: { name },
              roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'lt-claim-status' },
              subjects: [{ kind: 'ServiceAccount', name: `lt-sa-${i}`, namespace }],
            },
          });
          expect(res.status).toBe(201);
          bindings.push(`${namespace}/${name}`);
        } else if (op < 0.85 && pods.length > 0) {
          const [podNs, name] = pods.splice(Math.floor(r() * pods.length), 1)[0].split('/');
          expect((await cp.request('admin', `/api/v1/namespaces/${podNs}/pods/${name}?gracePeriodSeconds=0`, { method: 'DELETE' })).status).toBe(200);
        } else if (bindings.length > 0) {
          const [bNs, name] = bindings.splice(Math.floor(r() * bindings.length), 1)[0].split('/');
          expect((await cp.request('admin', `/apis/${RBAC}/v1/namespaces/${bNs}/rolebindings/${name}`, { method: 'DELETE' })).status).toBe(200);
        }
        if (i % 8 === 0) await sleep(150);
      }
      // The watches and the analysis trail the server a little: they must reach the same report.
      const withoutSource = (report: object) => JSON.stringify({ ...report, source: undefined });
      let last = { served: '', fresh: '' };
      await until(
        'the live analysis to equal a fresh read’s',
        20_000,
        async () => {
          const fresh = buildReport((await direct()).state);
          const served = (await analysis.current()).build.report;
          last = { served: withoutSource(served), fresh: withoutSource(fresh) };
          return last.served === last.fresh;
        },
        300,
        () => ({ servedLength: last.served.length, freshLength: last.fresh.length }),
      );
      expect(analysis.runs).toBeGreaterThan(1);
      const finalReport = (await analysis.current()).build.report;
      // The bindings left make DRA006 findings: the changes reached the report.
      for (const b of bindings) {
        const [bNs, name] = b.split('/');
        const sa = `lt-sa-${name.slice('lt-rb-'.length)}`;
        expect(finalReport.findings.some((f) => f.subjects.some((x) => x.kind === 'ServiceAccount' && x.name === sa && x.namespace === bNs))).toBe(true);
      }
      expect(bindings.length).toBeGreaterThan(0);
    } finally {
      analysis.stop();
      lc.stop();
    }
  }, 90_000);

  it('watch 410 at start and in-stream: exactly one relist per 410, converges, bookmarks requested (R4)', async () => {
    await createAll([ns('lt-watch')]);
    const mark = proxy.log.length;
    const atStart = proxy.addRule({ name: '410 at watch start', status: 410, times: 1, match: (r) => r.watch && r.pathname === '/api/v1/serviceaccounts' });
    const lc = new LiveCluster({ kubeconfig: proxy.kubeconfig('admin', cp.tokens.admin), probeIntervalMs: 1000 });
    try {
      await lc.start();
      const kindStatus = (kind: string) => lc.status().kinds.find((k) => k.kind === kind)!;
      await until(
        'ServiceAccount relist after the 410',
        10_000,
        () => atStart.hits === 1 && kindStatus('ServiceAccount').relists === 1 && kindStatus('ServiceAccount').healthy,
      );
      await until('a ServiceAccount watch open again', 10_000, () => proxy.openWatches().some((p) => p.startsWith('/api/v1/serviceaccounts?')));
      // The initial list and exactly one relist.
      expect(listStarts(mark, '/api/v1/serviceaccounts').length).toBe(2);
      expect(kindStatus('ServiceAccount').relists).toBe(1);
      const watches = sinceMark(mark).filter((e) => e.watch);
      expect(watches.length).toBeGreaterThanOrEqual(readableKinds(V1_DISCOVERY).length);
      expect(watches.every((e) => e.query.get('allowWatchBookmarks') === 'true')).toBe(true);
      expect(watches.every((e) => e.query.has('resourceVersion'))).toBe(true);

      // In-stream ERROR 410 on the Role watch while objects change on the server.
      await until('a Role watch', 10_000, () => proxy.openWatches().some((p) => p.startsWith('/apis/rbac.authorization.k8s.io/v1/roles?')));
      const mark2 = proxy.log.length;
      const injected = proxy.injectWatchError((p) => p.startsWith('/apis/rbac.authorization.k8s.io/v1/roles?'), 410);
      expect(injected).toBe(1);
      const t0 = performance.now();
      await createAll([role('lt-watch', 'after-410-a'), role('lt-watch', 'after-410-b')]);
      await cp.request('admin', '/apis/rbac.authorization.k8s.io/v1/namespaces/lt-watch/roles/after-410-a', { method: 'DELETE' });
      const serverRoles = async () =>
        new Set(
          ((await cp.request('admin', '/apis/rbac.authorization.k8s.io/v1/roles')).body.items as Obj[]).map(
            (o) => `${o.metadata.namespace}/${o.metadata.name}/${o.metadata.uid}`,
          ),
        );
      const converged = await until('Role store equal to the server after the in-stream 410', 5_000, async () => {
        const mine = new Set(lc.getState().roles.map((o) => `${o.metadata.namespace}/${o.metadata.name}/${o.metadata.uid}`));
        const theirs = await serverRoles();
        return minus(mine, theirs).length === 0 && minus(theirs, mine).length === 0 && [...mine].some((k) => k.startsWith('lt-watch/after-410-b/'))
          ? true
          : undefined;
      });
      await sleep(1500);
      expect(listStarts(mark2, '/apis/rbac.authorization.k8s.io/v1/roles').length).toBe(1);
      expect(kindStatus('Role').relists).toBe(1);
      expect(kindStatus('Role').healthy).toBe(true);
      // No other kind relisted.
      expect(lc.status().kinds.filter((k) => k.kind !== 'Role' && k.kind !== 'ServiceAccount' && k.relists > 0)).toEqual([]);
      figures['in-stream 410 convergence'] = `${Math.round(converged.ms)} ms after the writes (${Math.round(performance.now() - t0)} ms incl. a 1.5 s settle)`;
    } finally {
      atStart.remove();
      lc.stop();
    }
  }, 60_000);

  it('API server killed and restarted mid-watch, three cycles, then a blackhole: stale ≤10 s, fresh ≤30 s, object set equals the server (R2, R3)', async () => {
    await createAll([ns('lt-live')]);
    const lc = new LiveCluster({ kubeconfig: proxy.kubeconfig('admin', cp.tokens.admin), probeIntervalMs: 1000 });
    let diff: unknown;
    const equalToServer = async () => {
      const want = keysOf((await direct()).state, true);
      const got = keysOf(lc.getState(), true);
      diff = { missing: minus(want, got).slice(0, 5), extra: minus(got, want).slice(0, 5) };
      return minus(want, got).length === 0 && minus(got, want).length === 0;
    };
    const explain = () => ({ ...lc.status(), kinds: lc.status().kinds.filter((k) => !k.healthy), diff });
    const rows: string[] = [];
    try {
      await lc.start();
      await until('fresh after start', 10_000, async () => (!lc.status().stale && (await equalToServer()) ? true : undefined), 250, explain);
      for (let cycle = 1; cycle <= 3; cycle++) {
        await proxy.down();
        const stale = await until(`stale (cycle ${cycle})`, 10_000, () => lc.status().stale, 50);
        const status = lc.status();
        expect(status.lastSyncAt).toBeDefined();
        expect(status.staleReason).toBeTruthy();
        // Keep serving the last snapshot while down.
        expect(lc.getState().namespaces.length).toBeGreaterThan(10);
        // Change the server behind the dashboard's back.
        await createAll([sa('lt-live', `made-while-down-${cycle}`), role('lt-live', `role-while-down-${cycle}`)]);
        if (cycle > 1) await cp.request('admin', `/api/v1/namespaces/lt-live/serviceaccounts/made-while-down-${cycle - 1}`, { method: 'DELETE' });
        await sleep(1500);
        expect(lc.status().stale).toBe(true);
        await proxy.up();
        const fresh = await until(
          `fresh again (cycle ${cycle})`,
          30_000,
          async () => (!lc.status().stale && (await equalToServer()) ? true : undefined),
          250,
          explain,
        );
        expect(lc.status().kinds.every((k) => k.healthy)).toBe(true);
        const names = lc
          .getState()
          .serviceAccounts.filter((s) => s.metadata.namespace === 'lt-live')
          .map((s) => s.metadata.name);
        expect(names).toContain(`made-while-down-${cycle}`);
        if (cycle > 1) expect(names).not.toContain(`made-while-down-${cycle - 1}`);
        rows.push(`cycle ${cycle}: stale after ${Math.round(stale.ms)} ms, fresh ${Math.round(fresh.ms)} ms after restart`);
      }
      // Blackhole: connections accepted, nothing answered; open watches freeze.
      proxy.setBlackhole(true);
      const stale = await until('stale in a blackhole', 10_000, () => lc.status().stale, 50);
      await cp.request('admin', '/api/v1/namespaces/lt-live/serviceaccounts', { method: 'POST', body: sa('lt-live', 'made-in-blackhole').body });
      await sleep(1000);
      proxy.setBlackhole(false);
      const fresh = await until(
        'fresh after the blackhole',
        30_000,
        async () => (!lc.status().stale && (await equalToServer()) ? true : undefined),
        250,
        explain,
      );
      rows.push(`blackhole: stale after ${Math.round(stale.ms)} ms, fresh ${Math.round(fresh.ms)} ms after it lifted`);
      figures['kill/restart'] = rows.join('; ');
    } finally {
      lc.stop();
      if (proxy.isDown) await proxy.up();
      proxy.setBlackhole(false);
    }
  }, 150_000);

  it('the whole run’s request log (collections, viewers, watches, faults): no Secrets/ConfigMaps, GET only, LISTs paginated, watches with bookmarks (S9, S16)', () => {
    const log = proxy.log;
    expect(log.length).toBeGreaterThan(300);
    expect(log.filter((e) => /\/(secrets|configmaps)(\/|\?|$)/.test(e.path)).map((e) => e.path)).toEqual([]);
    expect(log.filter((e) => e.method !== 'GET').map((e) => `${e.method} ${e.path}`)).toEqual([]);
    expect(log.filter((e) => 'authorization' in e.headers || 'cookie' in e.headers)).toEqual([]);
    const watches = log.filter((e) => e.watch);
    expect(watches.length).toBeGreaterThan(60);
    expect(watches.filter((e) => e.query.get('allowWatchBookmarks') !== 'true').map((e) => e.path)).toEqual([]);
    const unpaginated = log
      .filter((e) => e.method === 'GET' && !e.watch && !DISCOVERY.test(e.pathname))
      .filter((e) => {
        const limit = Number(e.query.get('limit'));
        return !(limit > 0 && limit <= 500);
      });
    expect(unpaginated.map((e) => e.path)).toEqual([]);
  });
});

describe('resource.k8s.io discovery variants (second control planes, no controllers) (R9)', () => {
  let noDra: ControlPlane;
  let beta: ControlPlane;
  let noDraProxy: FaultProxy;
  const rbacOnly = ['--authorization-mode=RBAC']; // the Node authorizer's informers need resource.k8s.io/v1

  beforeAll(async () => {
    const t0 = performance.now();
    [noDra, beta] = await Promise.all([
      startControlPlane({ controllers: false, runtimeConfig: 'resource.k8s.io/v1=false', extraApiserverArgs: rbacOnly }),
      startControlPlane({ controllers: false, runtimeConfig: 'resource.k8s.io/v1=false,resource.k8s.io/v1beta2=true', extraApiserverArgs: rbacOnly }),
    ]);
    figures['two DRA-variant control planes (parallel)'] = `${Math.round(performance.now() - t0)} ms`;
    noDraProxy = await startFaultProxy(noDra.url);
  }, 180_000);

  afterAll(async () => {
    await noDraProxy?.close();
    await Promise.all([noDra?.stop(), beta?.stop()]);
  }, 60_000);

  it('resource.k8s.io/v1=false: the collection succeeds, DRA collections are empty, a warning says it is not served', async () => {
    await noDra.request('admin', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'plain' } } });
    const got = await collectLiveCluster({ kubeconfig: noDraProxy.kubeconfig('admin', noDra.tokens.admin) });
    expect(got.discovery.draVersion).toBeUndefined();
    expect(got.discovery.draServedVersions).toEqual([]);
    expect(got.state.warnings).toHaveLength(1);
    expect(got.state.warnings[0]).toMatch(/^resource\.k8s\.io is not served by this cluster/);
    for (const c of ['resourceClaims', 'resourceClaimTemplates', 'resourceSlices', 'deviceClasses'] as const) expect(got.state[c]).toEqual([]);
    expect(got.state.namespaces.map((n) => n.metadata.name)).toContain('plain');
    expect(got.state.clusterRoles.length).toBeGreaterThan(20);
    // One discovery request to the unserved group, nothing else.
    expect(noDraProxy.log.filter((e) => e.pathname.startsWith('/apis/resource.k8s.io')).map((e) => e.pathname)).toEqual(['/apis/resource.k8s.io']);
  }, 60_000);

  it('resource.k8s.io/v1=false,v1beta2=true: DRA objects are read as v1beta2 and normalised to v1', async () => {
    const b = '/apis/resource.k8s.io/v1beta2';
    await beta.request('admin', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } } });
    const dc = await beta.request('admin', `${b}/deviceclasses`, {
      body: {
        apiVersion: 'resource.k8s.io/v1beta2',
        kind: 'DeviceClass',
        metadata: { name: 'gpu.example.com' },
        spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
      },
    });
    expect(dc.status).toBe(201);
    const claim = await beta.request('admin', `${b}/namespaces/team/resourceclaims`, {
      body: {
        apiVersion: 'resource.k8s.io/v1beta2',
        kind: 'ResourceClaim',
        metadata: { name: 'beta-claim' },
        spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 1 } }] } },
      },
    });
    expect(claim.status, JSON.stringify(claim.body).slice(0, 400)).toBe(201);
    const allocation = {
      devices: { results: [{ request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0' }] },
      nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] },
    };
    const st = await beta.request('admin', `${b}/namespaces/team/resourceclaims/beta-claim/status`, {
      method: 'PUT',
      body: { ...claim.body, status: { allocation } },
    });
    expect(st.status, JSON.stringify(st.body).slice(0, 400)).toBe(200);

    const got = await collectLiveCluster({ kubeconfig: beta.kubeconfigPath });
    expect(got.discovery.draVersion).toBe('v1beta2');
    expect(got.state.warnings).toEqual(['resource.k8s.io is read as v1beta2 (v1 is not served) and normalised to v1']);
    const c = got.state.resourceClaims.find((x) => x.metadata.name === 'beta-claim')!;
    expect(c).toBeDefined();
    expect(c.apiVersion).toBe('resource.k8s.io/v1');
    expect(c.metadata.namespace).toBe('team');
    expect(c.spec.devices?.requests?.[0]).toMatchObject({
      name: 'gpu',
      exactly: { deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 1 },
    });
    expect(c.status?.allocation).toMatchObject(allocation);
    expect(got.state.deviceClasses.map((d) => [d.apiVersion, d.metadata.name])).toEqual([['resource.k8s.io/v1', 'gpu.example.com']]);
  }, 60_000);
});

// ---------------------------------------------------------------------------

const DEPLOY_PATHS: Record<string, (o: Obj) => string> = {
  Namespace: () => '/api/v1/namespaces',
  ServiceAccount: (o) => `/api/v1/namespaces/${o.metadata.namespace}/serviceaccounts`,
  Service: (o) => `/api/v1/namespaces/${o.metadata.namespace}/services`,
  ClusterRole: () => '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  ClusterRoleBinding: () => '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  Deployment: (o) => `/apis/apps/v1/namespaces/${o.metadata.namespace}/deployments`,
};

let deployed: Promise<Obj[]> | undefined;

/** Creates every object of deploy/ (file order) on the main control plane, once. */
function applyDeploy(): Promise<Obj[]> {
  deployed ??= (async () => {
    const docs: Obj[] = [];
    for (const file of readdirSync(DEPLOY)
      .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
      .sort()) {
      for (const doc of parseAllDocuments(readFileSync(join(DEPLOY, file), 'utf8'))) {
        const o = doc.toJS() as Obj | null;
        if (o?.kind) docs.push(o);
      }
    }
    // The collector's reader role and the reviewer role for sign-in (bound to the dashboard), and the
    // four user roles of deploy/15-user-roles.yaml (bound by the cluster's admins, not here).
    expect(docs.map((d) => `${d.kind} ${d.metadata.name}`).sort()).toEqual([
      'ClusterRole dra-posture-approver',
      'ClusterRole dra-posture-auditor',
      'ClusterRole dra-posture-reader',
      'ClusterRole dra-posture-reviewer',
      'ClusterRole dra-posture-source-admin',
      'ClusterRole dra-posture-viewer',
      'ClusterRoleBinding dra-posture-reader',
      'ClusterRoleBinding dra-posture-reviewer',
      'Deployment dra-posture',
      'Namespace dra-posture',
      'Service dra-posture',
      'ServiceAccount dra-posture',
    ]);
    for (const o of docs) {
      const path = DEPLOY_PATHS[o.kind]?.(o);
      if (!path) throw new Error(`deploy/: unexpected kind ${o.kind}`);
      const r = await cp.request('admin', `${path}?fieldManager=dra-posture-test&fieldValidation=Strict`, { method: 'POST', body: o });
      if (r.status !== 201) throw new Error(`deploy/ ${o.kind} ${o.metadata.name}: ${r.status} ${JSON.stringify(r.body).slice(0, 400)}`);
      if (r.headers.warning) throw new Error(`deploy/ ${o.kind} ${o.metadata.name}: server warning ${r.headers.warning}`);
    }
    return docs;
  })();
  return deployed;
}
