// Real DRA traffic against the test control plane: pod-bound service-account tokens (they carry the
// node name), claims allocated to one node in the strict single-node form, driver status writes.
import type { ControlPlane } from './control-plane';
import { kubeRequest, type KubeResponse } from './http';

/** A pod of `sa` scheduled to `node`, and a token bound to that pod. */
export async function createNodeBoundToken(cp: ControlPlane, namespace: string, sa: string, node: string): Promise<string> {
  const name = `${sa}-on-${node}`.slice(0, 60);
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { serviceAccountName: sa, nodeName: node, containers: [{ name: 'c', image: 'registry.invalid/pause:1' }] },
  };
  let created = await cp.request('admin', `/api/v1/namespaces/${namespace}/pods`, { method: 'POST', body: pod });
  // A second token for the same pod: reuse it.
  if (created.status === 409) created = await cp.request('admin', `/api/v1/namespaces/${namespace}/pods/${name}`);
  if (created.status !== 201 && created.status !== 200) throw new Error(`pod ${name}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const res = await cp.request('admin', `/api/v1/namespaces/${namespace}/serviceaccounts/${sa}/token`, {
    method: 'POST',
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: [], expirationSeconds: 3600, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name, uid: created.body.metadata.uid } },
    },
  });
  if (res.status !== 201) throw new Error(`token for ${namespace}/${sa}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.status.token as string;
}

/** A claim created and allocated by admin to one device of `driver` on `node`. */
export async function createAllocatedClaim(cp: ControlPlane, namespace: string, name: string, driver: string, node: string): Promise<any> {
  const base = `/apis/resource.k8s.io/v1/namespaces/${namespace}/resourceclaims`;
  const created = await cp.request('admin', base, {
    method: 'POST',
    body: {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name, namespace },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: driver } }] } },
    },
  });
  if (created.status !== 201) throw new Error(`claim ${name}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const status = {
    allocation: {
      devices: { results: [{ request: 'gpu', driver, pool: node, device: 'gpu-0' }] },
      nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
    },
  };
  const res = await cp.request('admin', `${base}/${name}/status`, { method: 'PUT', body: { ...created.body, status } });
  if (res.status !== 200) throw new Error(`allocate ${name}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** What a kubelet plugin does after preparing a device: GET the claim, PUT status.devices for its driver. */
export async function writeDeviceStatus(
  cp: ControlPlane,
  token: string,
  namespace: string,
  name: string,
  driver: string,
): Promise<{ get: KubeResponse; put: KubeResponse }> {
  const path = `/apis/resource.k8s.io/v1/namespaces/${namespace}/resourceclaims/${name}`;
  const get = await kubeRequest(cp.url, token, path);
  if (get.status !== 200) return { get, put: get };
  const claim = get.body;
  const pool = claim.status?.allocation?.devices?.results?.[0]?.pool ?? 'pool';
  const devices = [
    {
      driver,
      pool,
      device: 'gpu-0',
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Prepared', message: 'audit test', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
      ],
    },
  ];
  const put = await kubeRequest(cp.url, token, `${path}/status`, { method: 'PUT', body: { ...claim, status: { ...claim.status, devices } } });
  return { get, put };
}
