import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthzEngine, type AuthzEngine } from '../../lib/authz/authz-engine';
import { simulateWrite, type WriteSimulation } from '../../lib/authz/simulate-write';
import type { UserInfo } from '../../lib/authz/types';
import { res } from '../../lib/authz/__fixtures__/builders';
import { nodeUser, serviceAccountUser } from '../../lib/authz/user-info';
import { collectLiveCluster } from '../../server/kube/collect-cluster';
import { createRandom } from '../../scripts/bench/prng';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';

// Issue 16: random writes simulated by the engine and sent for real (dryRun=All) to a real
// kube-apiserver v1.36: RBAC objects created by users holding random subsets of permissions, claim
// status updates by pod-bound service-account tokens on random nodes, node identities writing their
// own and other nodes' objects. The server's answer and the engine's must agree on every one.

const RBAC = 'rbac.authorization.k8s.io';
const NS = 'sim';
const NODES = ['n1', 'n2', 'n3'];
const DRIVERS = ['d1.example.com', 'd2.example.com', 'd3.example.com'];
const PERMS = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['update'] },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'], verbs: ['create', 'delete'] },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['s1'] },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['create'] },
  { apiGroups: [''], resources: ['services'], verbs: ['*'] },
];
const USERS = Array.from({ length: 10 }, (_, i) => `u${i}`);
const SAS = ['plugin', 'controller', 'allocator', 'status-only', 'tenant'];
const rnd = createRandom(1606);
const statusRule = { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update', 'patch'] };

let cp: ControlPlane;
let engine: AuthzEngine;
const disagreements: string[] = [];
const counts = { rbac: 0, claimStatus: 0, node: 0, allowed: 0, denied: 0 };
/** Per kind of write and outcome (allowed, or the step that refused), to show every step was exercised. */
const outcomes: Record<string, number> = {};

async function admin(path: string, method: string, body?: unknown) {
  const res = await cp.request('admin', path, { method, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}
const role = (name: string, rules: unknown[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, roleName: string, subjects: unknown[]) => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  metadata: kind === 'RoleBinding' ? { name, namespace: NS } : { name },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  subjects,
});
const userSubject = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });
const saSubject = (name: string) => ({ kind: 'ServiceAccount', name, namespace: NS });

/** Impersonation headers for an identity (admin sends them; the request is decided as that identity). */
function headersFor(user: UserInfo): Record<string, string> {
  const h: Record<string, string> = { 'Impersonate-User': user.name };
  const groups = user.groups.filter((g) => g !== 'system:authenticated');
  if (groups.length > 0) h['Impersonate-Group'] = groups.join(', ');
  for (const [k, values] of Object.entries(user.extra ?? {})) h[`Impersonate-Extra-${encodeURIComponent(k)}`] = values.join(', ');
  return h;
}

/** Sends the write for real (dry run) and compares with the engine's simulation. */
async function check(kind: keyof typeof counts, sim: WriteSimulation, method: string, path: string, body: unknown) {
  const sep = path.includes('?') ? '&' : '?';
  const res = await cp.request('admin', `${path}${sep}dryRun=All`, { method, body, headers: headersFor(sim.user) });
  const message = String((res.body as { message?: string } | undefined)?.message ?? '');
  let server: boolean;
  if (res.status >= 200 && res.status < 300) server = true;
  else if (res.status === 403 || (res.status === 422 && /requires resource="resourceclaims\//.test(message))) server = false;
  else throw new Error(`${method} ${path} as ${sim.user.name}: unexpected ${res.status} ${message.slice(0, 300)}`);
  const simulated = simulateWrite(engine, sim);
  counts[kind]++;
  const outcome = `${kind} ${simulated.refusedBy ?? 'allowed'}`;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  counts[server ? 'allowed' : 'denied']++;
  if (simulated.allowed !== server)
    disagreements.push(
      `${method} ${path} as ${sim.user.name} ${JSON.stringify(sim.user.extra ?? {})}: server ${server ? 'allowed' : `denied (${message.slice(0, 200)})`}, engine ${
        simulated.allowed ? 'allowed' : `denied by ${simulated.refusedBy}: ${simulated.steps.at(-1)?.reason}`
      }`,
    );
}

const pick = <T>(list: readonly T[]) => rnd.pick(list);
const subset = <T>(list: readonly T[], p: number) => list.filter(() => rnd.chance(p));

beforeAll(async () => {
  cp = await startControlPlane({ controllers: false });
  await admin('/api/v1/namespaces', 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  for (const n of NODES)
    await admin('/api/v1/nodes', 'POST', { apiVersion: 'v1', kind: 'Node', metadata: { name: n, labels: { 'kubernetes.io/hostname': n } } });
  for (const sa of SAS) await admin(`/api/v1/namespaces/${NS}/serviceaccounts`, 'POST', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } });
  const post = (o: { kind: string; metadata: { name: string; namespace?: string } }) =>
    admin(
      o.kind === 'ClusterRole'
        ? `/apis/${RBAC}/v1/clusterroles`
        : o.kind === 'ClusterRoleBinding'
          ? `/apis/${RBAC}/v1/clusterrolebindings`
          : `/apis/${RBAC}/v1/namespaces/${NS}/rolebindings`,
      'POST',
      o,
    );
  // RBAC: permissions handed out at random; every user may write Roles and RoleBindings in the namespace.
  for (const [i, rule] of PERMS.entries()) await post(role(`perm-${i}`, [rule]));
  await post(role('rbac-writer', [{ apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: ['create', 'update'] }]));
  for (const u of USERS) {
    await post(binding('RoleBinding', `${u}-rbac-writer`, 'rbac-writer', [userSubject(u)]));
    for (const [i] of PERMS.entries()) {
      if (!rnd.chance(0.45)) continue;
      if (rnd.chance(0.3)) await post(binding('ClusterRoleBinding', `${u}-perm-${i}`, `perm-${i}`, [userSubject(u)]));
      else await post(binding('RoleBinding', `${u}-perm-${i}`, `perm-${i}`, [userSubject(u)]));
    }
    if (rnd.chance(0.3)) {
      const may = subset(
        PERMS.map((_, i) => `perm-${i}`),
        0.4,
      );
      if (may.length > 0) {
        await post(role(`${u}-binder`, [{ apiGroups: [RBAC], resources: ['clusterroles'], verbs: ['bind'], resourceNames: may }]));
        await post(binding('RoleBinding', `${u}-binder`, `${u}-binder`, [userSubject(u)]));
      }
    }
    if (rnd.chance(0.15)) {
      await post(role(`${u}-escalator`, [{ apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate'] }]));
      await post(binding('RoleBinding', `${u}-escalator`, `${u}-escalator`, [userSubject(u)]));
    }
  }
  // DRA: a node-local plugin (associated-node, two drivers), a controller (arbitrary-node, one driver),
  // an allocator (binding), a status-only writer and a tenant with nothing.
  await post(
    role('sim-plugin', [
      statusRule,
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['associated-node:update'], resourceNames: DRIVERS.slice(0, 2) },
    ]),
  );
  await post(
    role('sim-controller', [
      statusRule,
      { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/driver'], verbs: ['arbitrary-node:update'], resourceNames: [DRIVERS[2]] },
    ]),
  );
  await post(role('sim-allocator', [statusRule, { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'], verbs: ['update'] }]));
  await post(role('sim-status-only', [statusRule]));
  for (const [sa, r] of [
    ['plugin', 'sim-plugin'],
    ['controller', 'sim-controller'],
    ['allocator', 'sim-allocator'],
    ['status-only', 'sim-status-only'],
  ])
    await post(binding('ClusterRoleBinding', `sim-${sa}`, r, [saSubject(sa)]));
  await admin('/apis/resource.k8s.io/v1/deviceclasses', 'POST', {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: 'sim-gpu' },
    spec: {},
  });
  for (let i = 0; i < 8; i++) {
    const node = NODES[i % NODES.length];
    const base = `/apis/resource.k8s.io/v1/namespaces/${NS}/resourceclaims`;
    const created = await admin(base, 'POST', {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `c${i}` },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'sim-gpu' } }] } },
    });
    const status = {
      allocation: {
        devices: { results: DRIVERS.map((driver) => ({ request: 'gpu', driver, pool: node, device: 'gpu-0' })) },
        nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
      },
    };
    await admin(`${base}/c${i}/status`, 'PUT', { ...created, status });
  }
  engine = createAuthzEngine((await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state);
}, 600_000);

afterAll(async () => {
  await cp?.stop();
});

describe('write simulations against the real kube-apiserver (dryRun=All)', () => {
  it('RBAC: Roles and RoleBindings created by users holding random permissions (escalation prevention)', async () => {
    for (let i = 0; i < 130; i++) {
      const user: UserInfo = { name: pick(USERS), groups: ['system:authenticated'] };
      if (rnd.chance(0.55)) {
        const rules = subset(PERMS, 0.3);
        if (rules.length === 0) rules.push(pick(PERMS));
        const object = { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: `r${i}`, namespace: NS }, rules };
        await check(
          'rbac',
          { user, attributes: res('create', RBAC, 'roles', { namespace: NS }), object },
          'POST',
          `/apis/${RBAC}/v1/namespaces/${NS}/roles`,
          object,
        );
      } else {
        const object = binding('RoleBinding', `b${i}`, `perm-${rnd.int(PERMS.length)}`, [userSubject('someone')]);
        await check(
          'rbac',
          { user, attributes: res('create', RBAC, 'rolebindings', { namespace: NS }), object },
          'POST',
          `/apis/${RBAC}/v1/namespaces/${NS}/rolebindings`,
          object,
        );
      }
    }
  }, 300_000);

  it('claim status: pod-bound tokens on random nodes change device entries of random drivers and/or the reservation', async () => {
    for (let i = 0; i < 120; i++) {
      const name = `c${rnd.int(8)}`;
      const path = `/apis/resource.k8s.io/v1/namespaces/${NS}/resourceclaims/${name}/status`;
      const old = await admin(`/apis/resource.k8s.io/v1/namespaces/${NS}/resourceclaims/${name}`, 'GET');
      const next = structuredClone(old);
      const pool = old.status.allocation.devices.results[0].pool;
      const drivers = subset(DRIVERS, 0.4);
      next.status.devices = drivers.map((driver: string) => ({
        driver,
        pool,
        device: 'gpu-0',
        conditions: [{ type: 'Ready', status: 'True', reason: 'Prepared', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
      }));
      if (drivers.length === 0 || rnd.chance(0.3))
        next.status.reservedFor = [{ resource: 'pods', name: `p${i}`, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }];
      const node = rnd.chance(0.85) ? pick(NODES) : undefined;
      const user = serviceAccountUser(NS, pick(SAS), node);
      await check(
        'claimStatus',
        {
          user,
          attributes: res('update', 'resource.k8s.io', 'resourceclaims', { namespace: NS, name, subresource: 'status' }),
          object: next,
          oldObject: old,
        },
        'PUT',
        path,
        next,
      );
    }
  }, 300_000);

  it('node identities: their own and other nodes’ slices, status and labels (Node authorizer, NodeRestriction)', async () => {
    const labels = [
      'example.com/pool',
      'node-role.kubernetes.io/gpu',
      'topology.kubernetes.io/zone',
      'node-restriction.kubernetes.io/pool',
      'feature.node.kubernetes.io/gpu',
    ];
    for (let i = 0; i < 90; i++) {
      const me = pick(NODES);
      const target = pick(NODES);
      const user = nodeUser(me);
      const k = rnd.int(3);
      if (k === 0) {
        const object = {
          apiVersion: 'resource.k8s.io/v1',
          kind: 'ResourceSlice',
          metadata: { name: `s${i}` },
          spec: { nodeName: target, driver: pick(DRIVERS), pool: { name: target, generation: 1, resourceSliceCount: 1 }, devices: [] },
        };
        await check(
          'node',
          { user, attributes: res('create', 'resource.k8s.io', 'resourceslices'), object },
          'POST',
          '/apis/resource.k8s.io/v1/resourceslices',
          object,
        );
      } else {
        const old = await admin(`/api/v1/nodes/${target}`, 'GET');
        const next = structuredClone(old);
        const status = k === 1;
        if (status)
          next.status = {
            ...next.status,
            conditions: [
              {
                type: 'example.com/Ready',
                status: 'True',
                reason: 'Sim',
                message: '',
                lastTransitionTime: '2026-01-01T00:00:00Z',
                lastHeartbeatTime: '2026-01-01T00:00:00Z',
              },
            ],
          };
        else next.metadata.labels = { ...next.metadata.labels, [pick(labels)]: 'x' };
        const sub = status ? 'status' : '';
        await check(
          'node',
          { user, attributes: res('update', '', 'nodes', { name: target, subresource: sub }), object: next, oldObject: old },
          'PUT',
          `/api/v1/nodes/${target}${status ? '/status' : ''}`,
          next,
        );
      }
    }
  }, 300_000);

  it('agree on every one, with both answers well represented', () => {
    console.log(`simulate: ${JSON.stringify(counts)}, ${disagreements.length} disagreements; outcomes ${JSON.stringify(outcomes)}`);
    expect(disagreements).toEqual([]);
    expect(counts.rbac + counts.claimStatus + counts.node).toBeGreaterThanOrEqual(300);
    expect(counts.allowed).toBeGreaterThan(50);
    expect(counts.denied).toBeGreaterThan(50);
    for (const o of [
      'rbac allowed',
      'rbac admission:rbac-escalation',
      'claimStatus allowed',
      'claimStatus admission:dra-status',
      'claimStatus authorization',
      'node allowed',
      'node admission:node-restriction',
    ])
      expect(outcomes[o] ?? 0, o).toBeGreaterThan(3);
  });
});
