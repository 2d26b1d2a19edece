import { createWriteStream } from 'node:fs';
import { createRandom } from './prng';

export interface ClusterSize {
  namespaces: number;
  nodes: number;
  serviceAccounts: number;
  roleBindings: number;
  clusterRoleBindings: number;
  roles: number;
  clusterRoles: number;
  pods: number;
  resourceClaims: number;
}

export const LARGE: ClusterSize = {
  namespaces: 10_000,
  nodes: 5_000,
  serviceAccounts: 20_000,
  roleBindings: 15_000,
  clusterRoleBindings: 2_000,
  roles: 5_000,
  clusterRoles: 1_500,
  pods: 100_000,
  resourceClaims: 50_000,
};

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
const RESOURCES: [string, string][] = [
  ['', 'pods'],
  ['', 'configmaps'],
  ['', 'secrets'],
  ['', 'services'],
  ['', 'nodes'],
  ['', 'nodes/status'],
  ['', 'serviceaccounts'],
  ['apps', 'deployments'],
  ['apps', 'daemonsets'],
  ['batch', 'jobs'],
  ['resource.k8s.io', 'resourceclaims'],
  ['resource.k8s.io', 'resourceclaims/status'],
  ['resource.k8s.io', 'resourceclaimtemplates'],
  ['resource.k8s.io', 'resourceslices'],
  ['resource.k8s.io', 'deviceclasses'],
  ['resource.k8s.io', 'resourceclaims/driver'],
];
const DRIVERS = ['gpu.nvidia.com', 'gpu.intel.com', 'gpu.example.com'];

export const ns = (i: number) => `ns-${i}`;
export const nodeName = (i: number) => `node-${i}`;
export const saName = (i: number) => `sa-${i}`;

/**
 * Writes a `kind: List` JSON snapshot of a large synthetic DRA cluster, streaming, and returns the
 * names the questions can be drawn from. Same seed, same bytes.
 */
export async function generateCluster(path: string, size: ClusterSize, seed = 42): Promise<void> {
  const rnd = createRandom(seed);
  const out = createWriteStream(path);
  let buffer = '';
  let first = true;
  const write = async (obj: unknown) => {
    buffer += (first ? '' : ',\n') + JSON.stringify(obj);
    first = false;
    if (buffer.length > 1 << 20) {
      const chunk = buffer;
      buffer = '';
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  };
  const meta = (name: string, namespace?: string, extra: Record<string, unknown> = {}) => ({
    name,
    ...(namespace ? { namespace } : {}),
    uid: `${(rnd.next() * 1e16).toString(16)}-${name}`,
    creationTimestamp: '2026-10-01T00:00:00Z',
    ...extra,
  });
  const rule = () => {
    const [group, resource] = rnd.pick(RESOURCES);
    const r: Record<string, unknown> = {
      apiGroups: [rnd.chance(0.02) ? '*' : group],
      resources: [rnd.chance(0.02) ? '*' : resource],
      verbs: rnd.chance(0.03) ? ['*'] : VERBS.filter(() => rnd.chance(0.4)).concat('get'),
    };
    if (rnd.chance(0.1)) r.resourceNames = [resource.endsWith('driver') ? rnd.pick(DRIVERS) : `obj-${rnd.int(50)}`];
    return r;
  };
  const subject = (namespace?: string) => {
    const k = rnd.int(10);
    if (k < 6) return { kind: 'ServiceAccount', name: saName(rnd.int(size.serviceAccounts)), namespace: namespace ?? ns(rnd.int(size.namespaces)) };
    if (k < 8) return { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: `user-${rnd.int(5000)}` };
    return { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: `group-${rnd.int(500)}` };
  };

  out.write('{"apiVersion":"v1","kind":"List","metadata":{},"items":[\n');
  await write({ apiVersion: 'dra-posture.io/v1', kind: 'ClusterInfo', name: 'bench-large', kubernetesVersion: 'v1.36.3' });
  for (let i = 0; i < size.namespaces; i++) {
    await write({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta(ns(i), undefined, { labels: { 'kubernetes.io/metadata.name': ns(i), team: `t${i % 100}` } }),
    });
  }
  for (let i = 0; i < size.nodes; i++) {
    await write({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta(nodeName(i), undefined, { labels: { 'kubernetes.io/hostname': nodeName(i), 'node-pool': `pool-${i % 20}` } }),
      spec: { taints: i % 10 === 0 ? [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }] : [] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.36.3' } },
    });
    await write({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: meta(`${nodeName(i)}-gpu`),
      spec: {
        driver: DRIVERS[i % 3],
        nodeName: nodeName(i),
        pool: { name: nodeName(i), generation: 1, resourceSliceCount: 1 },
        devices: Array.from({ length: 4 }, (_, d) => ({ name: `gpu-${d}`, attributes: { index: { int: d } }, capacity: { memory: { value: '80Gi' } } })),
      },
    });
  }
  for (const d of DRIVERS)
    await write({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: meta(d),
      spec: { selectors: [{ cel: { expression: `device.driver == "${d}"` } }] },
    });
  for (let i = 0; i < size.serviceAccounts; i++) {
    await write({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(saName(i), ns(i % size.namespaces)) });
  }
  for (let i = 0; i < size.clusterRoles; i++) {
    const aggregated = i % 100 === 0 && i > 0;
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: meta(`cluster-role-${i}`, undefined, { labels: { [`aggregate-to-${i % 10}`]: 'true' } }),
      ...(aggregated ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`aggregate-to-${i % 10}`]: 'true' } }] } } : {}),
      rules: Array.from({ length: 1 + rnd.int(6) }, rule),
    });
  }
  for (let i = 0; i < size.roles; i++) {
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta(`role-${i}`, ns(i % size.namespaces)),
      rules: Array.from({ length: 1 + rnd.int(4) }, rule),
    });
  }
  for (let i = 0; i < size.clusterRoleBindings; i++) {
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: meta(`crb-${i}`),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: `cluster-role-${rnd.int(size.clusterRoles)}` },
      subjects: Array.from({ length: 1 + rnd.int(3) }, () => subject()),
    });
  }
  for (let i = 0; i < size.roleBindings; i++) {
    const namespace = ns(rnd.int(size.namespaces));
    const toRole = rnd.chance(0.5);
    await write({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(`rb-${i}`, namespace),
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: toRole ? 'Role' : 'ClusterRole',
        name: toRole ? `role-${rnd.int(size.roles)}` : `cluster-role-${rnd.int(size.clusterRoles)}`,
      },
      subjects: Array.from({ length: 1 + rnd.int(3) }, () => subject(namespace)),
    });
  }
  for (let i = 0; i < size.resourceClaims; i++) {
    const namespace = ns(i % size.namespaces);
    const node = nodeName(rnd.int(size.nodes));
    await write({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: meta(`claim-${i}`, namespace),
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: rnd.pick(DRIVERS), count: 1 + rnd.int(2) } }] } },
      status: {
        allocation: {
          devices: { results: [{ request: 'gpu', driver: rnd.pick(DRIVERS), pool: node, device: `gpu-${rnd.int(4)}` }] },
          nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
        },
        reservedFor: [{ resource: 'pods', name: `pod-${i}`, uid: `uid-pod-${i}` }],
      },
    });
  }
  for (let i = 0; i < size.pods; i++) {
    const nsIndex = i % size.namespaces;
    const namespace = ns(nsIndex);
    await write({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta(`pod-${i}`, namespace, {
        labels: { app: `app-${i % 1000}` },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${i % 5000}`, uid: `rs-uid-${i % 5000}`, controller: true }],
      }),
      spec: {
        nodeName: nodeName(rnd.int(size.nodes)),
        serviceAccountName: saName(nsIndex + size.namespaces * rnd.int(2)),
        containers: [
          {
            name: 'main',
            image: 'registry.example.com/app:1.0',
            env: [
              { name: 'MODE', value: 'prod' },
              { name: 'TOKEN', valueFrom: { secretKeyRef: { name: `secret-${i % 300}`, key: 'token' } } },
            ],
            volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
            resources: { claims: i < size.resourceClaims ? [{ name: 'gpu' }] : [] },
            securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false },
          },
        ],
        volumes: [{ name: 'config', configMap: { name: `config-${i % 200}` } }],
        ...(i < size.resourceClaims ? { resourceClaims: [{ name: 'gpu', resourceClaimName: `claim-${i}` }] } : {}),
      },
      status: { phase: 'Running' },
    });
  }
  buffer += '\n]}\n';
  out.write(buffer);
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}
