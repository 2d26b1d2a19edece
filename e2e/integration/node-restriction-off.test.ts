import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthzEngine } from '../../lib/authz/authz-engine';
import { simulateWrite } from '../../lib/authz/simulate-write';
import { res } from '../../lib/authz/__fixtures__/builders';
import { nodeUser } from '../../lib/authz/user-info';
import { collectLiveCluster } from '../../server/kube/collect-cluster';
import { startControlPlane, type ControlPlane } from '../kube/control-plane';

// A real kube-apiserver v1.36 started WITHOUT NodeRestriction admission (as the demo's): a kubelet
// identity's writes to another node are accepted, and the engine, told so (`--node-restriction off`,
// since a live cluster without a kube-apiserver pod shows no flags), agrees. With NodeRestriction on
// (the harness default, e2e/integration/simulate.test.ts) the same writes are refused by admission.

let cp: ControlPlane;

async function admin(path: string, method: string, body?: unknown) {
  const r = await cp.request('admin', path, { method, body });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
}

/** As system:node:<me> (admin impersonates it), for real with dryRun. */
async function asNode(me: string, path: string, method: string, body: unknown) {
  const headers = { 'Impersonate-User': `system:node:${me}`, 'Impersonate-Group': 'system:nodes' };
  return cp.request('admin', `${path}?dryRun=All`, { method, body, headers });
}

beforeAll(async () => {
  // Replaces the harness's --enable-admission-plugins=NodeRestriction.
  cp = await startControlPlane({ controllers: false, extraApiserverArgs: ['--enable-admission-plugins=NamespaceLifecycle'] });
  for (const n of ['n1', 'n2'])
    await admin('/api/v1/nodes', 'POST', { apiVersion: 'v1', kind: 'Node', metadata: { name: n, labels: { 'kubernetes.io/hostname': n } } });
}, 600_000);

afterAll(async () => {
  await cp?.stop();
});

describe('kube-apiserver without NodeRestriction', () => {
  it('accepts a kubelet writing another node’s status and labels; the engine with NodeRestriction off agrees, with it on refuses', async () => {
    const state = (await collectLiveCluster({ kubeconfig: cp.kubeconfigPath })).state;
    const off = createAuthzEngine(state, { overrides: { nodeRestriction: false } });
    const on = createAuthzEngine(state);
    expect(on.config.nodeRestriction).toEqual({ enabled: true, source: 'assumed' });

    const old = await admin('/api/v1/nodes/n2', 'GET');
    const status = structuredClone(old);
    status.status = {
      ...status.status,
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
    const labels = structuredClone(old);
    labels.metadata.labels = { ...labels.metadata.labels, 'example.com/pool': 'x' };

    for (const [what, subresource, next] of [
      ['status', 'status', status],
      ['labels', '', labels],
    ] as const) {
      const server = await asNode('n1', `/api/v1/nodes/n2${subresource ? '/status' : ''}`, 'PUT', next);
      expect(server.status, `${what}: ${JSON.stringify(server.body).slice(0, 300)}`).toBe(200);
      const sim = { user: nodeUser('n1'), attributes: res('update', '', 'nodes', { name: 'n2', subresource }), object: next, oldObject: old };
      expect(simulateWrite(off, sim).allowed, what).toBe(true);
      expect(simulateWrite(on, sim).refusedBy, what).toBe('admission:node-restriction');
    }

    const slice = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: 'foreign' },
      spec: { nodeName: 'n2', driver: 'd.example.com', pool: { name: 'n2', generation: 1, resourceSliceCount: 1 }, devices: [] },
    };
    expect((await asNode('n1', '/apis/resource.k8s.io/v1/resourceslices', 'POST', slice)).status).toBe(201);
    const create = { user: nodeUser('n1'), attributes: res('create', 'resource.k8s.io', 'resourceslices'), object: slice };
    expect(simulateWrite(off, create).allowed).toBe(true);
    expect(simulateWrite(on, create).refusedBy).toBe('admission:node-restriction');
  }, 300_000);
});
