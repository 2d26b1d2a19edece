import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { createRandom } from './prng';
import { writeDiverseRbac } from './diverse-rbac';

// The large bench cluster: the demo's platform layer (bootstrap RBAC, three DRA drivers, node
// reporters, policies, the control plane and its deliberate mistakes) at the scale of a big
// multi-tenant GPU cluster, with tenant RBAC shaped the way platform teams stamp it out: a few
// ClusterRoles bound per namespace, a namespaced Role copied by a chart into some namespaces, and
// a small number of copies that went wrong. Same seed, same bytes. The diverse shape keeps
// everything but the tenant RBAC, which diverse-rbac.ts writes instead (issue #23).

export interface ClusterSize {
  namespaces: number;
  nodes: number;
  /** Two per tenant namespace: the app's and the batch runner's. */
  serviceAccounts: number;
  pods: number;
  resourceClaims: number;
}

/** stamped: a few ClusterRoles bound per namespace (the README's figures); diverse: thousands of distinct roles and bindings. */
export type RbacShape = 'stamped' | 'diverse';

export const LARGE: ClusterSize = {
  namespaces: 20_000,
  nodes: 10_000,
  serviceAccounts: 40_000,
  pods: 200_000,
  resourceClaims: 100_000,
};

export const ns = (i: number) => `ns-${i}`;
export const nodeName = (i: number) => `node-${i}`;
/** Service account i lives in namespace i % namespaces (sa-i is the app's, sa-(i+namespaces) the runner's). */
export const saName = (i: number) => `sa-${i}`;

const RBAC = 'rbac.authorization.k8s.io';
const TEAMS = 500;

/** Node pools by node index: which driver publishes the node's devices and which DaemonSets run there. */
interface Pool {
  driver: string;
  classes: string[];
  labels: Record<string, string>;
  daemonSets: string[];
}
const NVIDIA: Pool = {
  driver: 'gpu.nvidia.com',
  classes: ['gpu.nvidia.com', 'gpu.nvidia.com', 'gpu.nvidia.com', 'h100-isolated.nvidia.com'],
  labels: { 'nvidia.com/gpu.present': 'true', 'nvidia.com/gpu.product': 'NVIDIA-H100-80GB-HBM3' },
  daemonSets: ['gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin', 'kube-system/gpu-driver-reporter', 'platform/dcgm-exporter'],
};
const INTEL: Pool = {
  driver: 'gpu.intel.com',
  classes: ['gpu.intel.com'],
  labels: { 'intel.feature.node.kubernetes.io/gpu': 'true' },
  daemonSets: ['intel-gpu-resource-driver/intel-gpu-resource-driver-kubelet-plugin', 'kube-system/intel-reporter'],
};
const EXAMPLE: Pool = {
  driver: 'gpu.example.com',
  classes: ['gpu.example.com'],
  labels: { 'node-pool': 'dev' },
  daemonSets: ['dra-example-driver/dra-example-driver-kubeletplugin'],
};
const poolOf = (node: number): Pool => (node % 10 < 5 ? NVIDIA : node % 10 < 8 ? INTEL : EXAMPLE);
const EVERY_NODE_DAEMONSETS = ['kube-system/kube-proxy'];

type Obj = Record<string, unknown> & { kind: string; metadata: { name: string; namespace?: string; [k: string]: unknown } };

/** The demo's objects, except its sample tenants (the generated ones replace them). */
function demoPlatformObjects(): Obj[] {
  const dir = join(process.cwd(), 'demo', 'manifests');
  const out: Obj[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!file.endsWith('.yaml') || file.startsWith('42-')) continue;
    for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
      const o = doc.toJS() as Obj | null;
      if (o && typeof o === 'object' && o.kind) out.push(o);
    }
  }
  return out;
}

/** A pod of a DaemonSet on one node: the template's security-relevant parts (what POD checks read). */
function daemonPod(ds: Obj, node: string): Obj {
  const template = (ds.spec as { template: { metadata?: { labels?: Record<string, string> }; spec: Record<string, unknown> } }).template;
  const { containers, initContainers, volumes, serviceAccountName, hostNetwork, hostPID, hostIPC } = template.spec as Record<string, unknown>;
  const slim = (list: unknown) =>
    (list as Record<string, unknown>[] | undefined)?.map((c) => ({
      name: c.name,
      image: c.image,
      ...(c.securityContext ? { securityContext: c.securityContext } : {}),
      ...(c.volumeMounts ? { volumeMounts: c.volumeMounts } : {}),
    }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${ds.metadata.name}-${node}`,
      namespace: ds.metadata.namespace,
      labels: template.metadata?.labels ?? {},
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: ds.metadata.name, uid: `uid-ds-${ds.metadata.name}`, controller: true }],
    },
    spec: {
      nodeName: node,
      serviceAccountName,
      ...(hostNetwork ? { hostNetwork } : {}),
      ...(hostPID ? { hostPID } : {}),
      ...(hostIPC ? { hostIPC } : {}),
      ...(initContainers ? { initContainers: slim(initContainers) } : {}),
      containers: slim(containers),
      ...(volumes ? { volumes } : {}),
    },
    status: { phase: 'Running' },
  };
}

const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, namespace: string | undefined, roleRef: [string, string], subjects: object[]) => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: RBAC, kind: roleRef[0], name: roleRef[1] },
  subjects,
});
const group = (name: string) => ({ kind: 'Group', apiGroup: RBAC, name });
const user = (name: string) => ({ kind: 'User', apiGroup: RBAC, name });
const sa = (name: string, namespace: string) => ({ kind: 'ServiceAccount', name, namespace });

const CLAIM_USER_RULES = [
  {
    apiGroups: ['resource.k8s.io'],
    resources: ['resourceclaims', 'resourceclaimtemplates'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
  },
  { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['get'] },
  { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
];
// A later version of the same chart lets the app write claim status (breaks on 1.36: DRA006).
const CLAIM_USER_RULES_V2 = [...CLAIM_USER_RULES, { apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'], verbs: ['update', 'patch'] }];

/** A tenant namespace's stamped RBAC: the team's edit, the app's claim-user grant, and the chart's copies and mistakes. */
async function writeStampedTenantRbac(write: (o: Record<string, unknown>) => Promise<void>, size: ClusterSize, i: number): Promise<void> {
  const name = ns(i);
  const team = `team-${i % TEAMS}-devs`;
  const app = saName(i);
  const runner = saName(i + size.namespaces);
  await write(binding('RoleBinding', 'team-edit', name, ['ClusterRole', 'edit'], [group(team)]));
  if (i % 10 === 3) await write(binding('RoleBinding', 'auditors-view', name, ['ClusterRole', 'view'], [group('auditors')]));
  // One namespace in eight uses the chart that ships a namespaced copy of the claim-user Role; half
  // of those have its later version.
  if (i % 8 === 0) {
    const rules = i % 16 === 8 ? CLAIM_USER_RULES_V2 : CLAIM_USER_RULES;
    await write({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'dra-claim-user', namespace: name }, rules });
    await write(binding('RoleBinding', 'app-claims', name, ['Role', 'dra-claim-user'], [sa(app, name), sa(runner, name)]));
  } else {
    await write(binding('RoleBinding', 'app-claims', name, ['ClusterRole', 'tenant-claim-user'], [sa(app, name), sa(runner, name)]));
  }
  // 2% run their own queue controller with the demo's tenant-claim-allocator grant (DRA006).
  if (i % 50 === 11)
    await write(binding('RoleBinding', 'queue-controller-claim-allocator', name, ['ClusterRole', 'tenant-claim-allocator'], [sa(runner, name)]));
  // A handful let the team relabel its own namespace (CLAIM003).
  if (i % 1000 === 17) {
    await write({
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'self-ns-labeler', namespace: name },
      rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'patch'], resourceNames: [name] }],
    });
    await write(binding('RoleBinding', 'self-ns-labeler', name, ['Role', 'self-ns-labeler'], [group(team)]));
  }
}

/**
 * Writes a `kind: List` JSON snapshot of the large bench cluster, streaming. Tenant namespace i has
 * service accounts sa-i and sa-(i+namespaces); claim j and pod j (j < claims) live in namespace
 * j % namespaces, the pod on the node the claim is allocated to.
 */
export async function generateCluster(path: string, size: ClusterSize, seed = 42, rbac: RbacShape = 'stamped'): Promise<void> {
  const rnd = createRandom(seed);
  const out = createWriteStream(path);
  let buffer = '';
  let first = true;
  let uid = 0;
  const write = async (obj: Obj | Record<string, unknown>) => {
    const o = obj as Obj;
    if (o.metadata && o.metadata.uid === undefined) o.metadata.uid = `00000000-0000-4000-8000-${(++uid).toString(16).padStart(12, '0')}`;
    buffer += (first ? '' : ',\n') + JSON.stringify(o);
    first = false;
    if (buffer.length > 1 << 20) {
      const chunk = buffer;
      buffer = '';
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  };

  out.write('{"apiVersion":"v1","kind":"List","metadata":{},"items":[\n');
  await write({ apiVersion: 'dra-posture.io/v1', kind: 'ClusterInfo', name: 'bench-large', kubernetesVersion: 'v1.36.3' });

  // The platform layer, from the demo.
  const platform = demoPlatformObjects();
  const daemonSets = new Map<string, Obj>();
  for (const o of platform) {
    await write(o);
    if (o.kind === 'DaemonSet') daemonSets.set(`${o.metadata.namespace}/${o.metadata.name}`, o);
  }

  // Nodes, one ResourceSlice each, and the DaemonSet pods that run there.
  let daemonPods = 0;
  for (let i = 0; i < size.nodes; i++) {
    const pool = poolOf(i);
    const name = nodeName(i);
    await write({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...pool.labels } },
      spec: { taints: pool === NVIDIA ? [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }] : [] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kubeletVersion: 'v1.36.3' } },
    });
    await write({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: `${name}-${pool.driver}` },
      spec: {
        driver: pool.driver,
        nodeName: name,
        pool: { name, generation: 1, resourceSliceCount: 1 },
        devices: Array.from({ length: 8 }, (_, d) => ({
          name: `gpu-${d}`,
          attributes: { type: { string: 'gpu' }, index: { int: d } },
          capacity: { memory: { value: '80Gi' } },
        })),
      },
    });
    for (const key of [...pool.daemonSets, ...EVERY_NODE_DAEMONSETS]) {
      const ds = daemonSets.get(key);
      if (!ds) throw new Error(`the demo has no DaemonSet ${key}`);
      await write(daemonPod(ds, name));
      daemonPods++;
    }
  }

  // Claims first in memory (small), so each namespace's quota can name the classes it uses.
  const claimNode = new Int32Array(size.resourceClaims);
  const claimClass: string[] = new Array(size.resourceClaims);
  const classesOf = new Map<number, Set<string>>();
  for (let j = 0; j < size.resourceClaims; j++) {
    const node = rnd.int(size.nodes);
    claimNode[j] = node;
    claimClass[j] = rnd.pick(poolOf(node).classes);
    const n = j % size.namespaces;
    let set = classesOf.get(n);
    if (!set) classesOf.set(n, (set = new Set()));
    set.add(claimClass[j]);
  }

  await write({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'tenant-claim-user' }, rules: CLAIM_USER_RULES });
  // Operators: read-only ClusterRoles, each bound to its controller's service account.
  await write({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'operators', labels: { 'kubernetes.io/metadata.name': 'operators', 'dra-posture.io/role': 'platform' } },
  });
  for (let k = 0; k < 100; k++) {
    const name = `operator-${k}`;
    await write({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'operators' } });
    await write({
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRole',
      metadata: { name },
      rules: [
        { apiGroups: [''], resources: ['pods', 'services', 'configmaps', 'events'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['apps'], resources: ['deployments', 'statefulsets'], verbs: ['get', 'list', 'watch'] },
        ...(k % 10 === 0 ? [{ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims', 'resourceslices'], verbs: ['get', 'list', 'watch'] }] : []),
      ],
    });
    await write(binding('ClusterRoleBinding', name, undefined, ['ClusterRole', name], [sa(name, 'operators')]));
  }
  for (let k = 0; k < 20; k++) await write(binding('ClusterRoleBinding', `sre-view-${k}`, undefined, ['ClusterRole', 'view'], [user(`sre-${k}`)]));

  // Tenants.
  for (let i = 0; i < size.namespaces; i++) {
    const name = ns(i);
    const labels: Record<string, string> = {
      'kubernetes.io/metadata.name': name,
      'dra-posture.io/role': 'tenant',
      tenant: `t${i % TEAMS}`,
      'pod-security.kubernetes.io/warn': 'baseline',
    };
    // A few namespaces were opened to DRA admin access by hand (CLAIM001).
    if (i % 2000 === 7) labels['resource.kubernetes.io/admin-access'] = 'true';
    await write({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
    const app = saName(i);
    const runner = saName(i + size.namespaces);
    await write({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: app, namespace: name } });
    await write({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: runner, namespace: name } });
    if (rbac === 'stamped') await writeStampedTenantRbac(write, size, i);
    // Three namespaces in four have a DRA quota naming every class they use (the rest: QUOTA001/002).
    if (i % 4 !== 0) {
      const hard: Record<string, string> = { 'count/resourceclaims.resource.k8s.io': '20' };
      for (const c of [...(classesOf.get(i) ?? [])].sort()) hard[`${c}.deviceclass.resource.k8s.io/devices`] = '16';
      await write({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'dra', namespace: name }, spec: { hard } });
    }
  }
  if (rbac === 'diverse') await writeDiverseRbac(write, size, { ns, saName }, seed);

  for (let j = 0; j < size.resourceClaims; j++) {
    const node = nodeName(claimNode[j]);
    await write({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `claim-${j}`, namespace: ns(j % size.namespaces) },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: claimClass[j], count: 1 } }] } },
      status: {
        allocation: {
          devices: { results: [{ request: 'gpu', driver: poolOf(claimNode[j]).driver, pool: node, device: `gpu-${rnd.int(8)}` }] },
          nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] },
        },
        reservedFor: [{ resource: 'pods', name: `pod-${j}`, uid: `uid-pod-${j}` }],
      },
    });
  }
  const tenantPods = Math.max(0, size.pods - daemonPods);
  for (let j = 0; j < tenantPods; j++) {
    const n = j % size.namespaces;
    const hasClaim = j < size.resourceClaims;
    await write({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `pod-${j}`,
        namespace: ns(n),
        uid: `uid-pod-${j}`,
        labels: { app: `app-${j % 1000}` },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `rs-${j % 5000}`, uid: `rs-uid-${j % 5000}`, controller: true }],
      },
      spec: {
        nodeName: nodeName(hasClaim ? claimNode[j] : rnd.int(size.nodes)),
        serviceAccountName: saName(n + size.namespaces * rnd.int(2)),
        containers: [
          {
            name: 'main',
            image: 'registry.example.com/app:1.0',
            ...(hasClaim ? { resources: { claims: [{ name: 'gpu' }] } } : {}),
            securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false },
          },
        ],
        ...(hasClaim ? { resourceClaims: [{ name: 'gpu', resourceClaimName: `claim-${j}` }] } : {}),
      },
      status: { phase: 'Running' },
    });
  }
  buffer += '\n]}\n';
  out.write(buffer);
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}
