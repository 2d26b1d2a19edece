import { describe, expect, it } from 'vitest';

import { normalizeObject } from './normalize-object';
import { SnapshotError } from './snapshot-error';
import type {
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  Deployment,
  Node,
  Pod,
  ResourceQuota,
  Role,
  ServiceAccount,
  ValidatingAdmissionPolicy,
} from './types';

const CANARY = 'CANARY-9f2';

/** A Pod as `kubectl get pod -o json` prints it, with every field that must not survive. */
function kubectlPod(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'gpu-driver-x7k2p',
      generateName: 'gpu-driver-',
      namespace: 'gpu-operator',
      uid: '7c0e2a4b-3333-4f5e-8a9b-1c2d3e4f5a6b',
      resourceVersion: '90817',
      creationTimestamp: '2026-07-01T10:00:00Z',
      labels: { app: 'nvidia-dra-driver-gpu-kubelet-plugin', 'controller-revision-hash': '6b9f' },
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': `{"spec":{"containers":[{"env":[{"name":"TOKEN","value":"${CANARY}"}]}]}}`,
        'kubectl.kubernetes.io/restartedAt': '2026-07-01T09:59:00Z',
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'gpu-driver', uid: 'ds-1', controller: true, blockOwnerDeletion: true }],
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { [`f:${CANARY}`]: {} } }],
    },
    spec: {
      nodeName: 'gpu-h100-01',
      serviceAccountName: 'gpu-driver',
      serviceAccount: 'gpu-driver',
      hostPID: true,
      dnsPolicy: 'ClusterFirst',
      tolerations: [{ operator: 'Exists' }],
      containers: [
        {
          name: 'plugin',
          image: 'nvcr.io/nvidia/k8s-dra-driver-gpu:v25.8.0',
          imagePullPolicy: 'IfNotPresent',
          command: ['gpu-kubelet-plugin'],
          args: ['--v=4'],
          env: [
            { name: 'API_TOKEN', value: CANARY },
            { name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
            { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: true } } },
          ],
          envFrom: [{ secretRef: { name: 'driver-secrets' }, prefix: 'X_' }],
          resources: { limits: { memory: '512Mi' } },
          securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] }, seLinuxOptions: { level: 's0' } },
          volumeMounts: [
            { name: 'plugins', mountPath: '/var/lib/kubelet/plugins', mountPropagation: 'Bidirectional' },
            { name: 'token', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
          ],
          terminationMessagePath: '/dev/termination-log',
        },
      ],
      volumes: [
        { name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins', type: 'DirectoryOrCreate' } },
        {
          name: 'token',
          projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { downwardAPI: { items: [] } }] },
        },
        { name: 'scratch', emptyDir: {} },
      ],
    },
    status: {
      phase: 'Running',
      podIP: '10.244.1.7',
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'plugin', ready: true, image: CANARY }],
    },
  };
}

const expectedPod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'gpu-driver-x7k2p',
    namespace: 'gpu-operator',
    uid: '7c0e2a4b-3333-4f5e-8a9b-1c2d3e4f5a6b',
    labels: { app: 'nvidia-dra-driver-gpu-kubelet-plugin', 'controller-revision-hash': '6b9f' },
    annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-07-01T09:59:00Z' },
    ownerReferences: [{ kind: 'DaemonSet', name: 'gpu-driver', apiVersion: 'apps/v1', uid: 'ds-1', controller: true }],
    generateName: 'gpu-driver-',
    creationTimestamp: '2026-07-01T10:00:00Z',
    resourceVersion: '90817',
  },
  spec: {
    containers: [
      {
        name: 'plugin',
        image: 'nvcr.io/nvidia/k8s-dra-driver-gpu:v25.8.0',
        command: ['gpu-kubelet-plugin'],
        args: ['--v=4'],
        env: [
          { name: 'API_TOKEN' },
          { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
        ],
        envFrom: [{ secretRef: { name: 'driver-secrets' } }],
        securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } },
        volumeMounts: [
          { name: 'plugins', mountPath: '/var/lib/kubelet/plugins', mountPropagation: 'Bidirectional' },
          { name: 'token', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
        ],
      },
    ],
    nodeName: 'gpu-h100-01',
    serviceAccountName: 'gpu-driver',
    serviceAccount: 'gpu-driver',
    hostPID: true,
    volumes: [
      { name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins', type: 'DirectoryOrCreate' } },
      { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }, {}] } },
      { name: 'scratch' },
    ],
  },
  status: { phase: 'Running' },
};

function errorOf(fn: () => unknown): SnapshotError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SnapshotError) return e;
    throw e;
  }
  throw new Error('expected a SnapshotError');
}

describe('normalizeObject: Pod', () => {
  it('keeps only the declared fields of a kubectl Pod', () => {
    const pod = normalizeObject(kubectlPod(), 'Pod', 'v1');
    expect(pod).toStrictEqual(expectedPod);
    expect(JSON.stringify(pod)).not.toContain(CANARY);
  });

  it('gives the same result for an already minimal Pod (reused, not copied)', () => {
    const minimal = JSON.parse(JSON.stringify(expectedPod));
    const out = normalizeObject(minimal, 'Pod', 'v1');
    expect(out).toStrictEqual(expectedPod);
    expect(out).toBe(minimal);
  });

  it('copies class instances and objects with undefined fields instead of reusing them', () => {
    class V1ObjectMeta {
      name = 'p';
      namespace: string | undefined = undefined;
    }
    const raw = { apiVersion: 'v1', kind: 'Pod', metadata: new V1ObjectMeta(), spec: { containers: [{ name: 'c', image: undefined }] } };
    const out = normalizeObject(raw, 'Pod', 'v1') as Pod;
    expect(out.metadata).toStrictEqual({ name: 'p' });
    expect(Object.getPrototypeOf(out.metadata)).toBe(Object.prototype);
    expect(out.spec.containers[0]).toStrictEqual({ name: 'c' });
  });

  it('is idempotent', () => {
    const once = normalizeObject(kubectlPod(), 'Pod', 'v1');
    expect(normalizeObject(JSON.parse(JSON.stringify(once)), 'Pod', 'v1')).toStrictEqual(once);
  });

  it('takes kind and apiVersion from the caller when a typed-list item omits them', () => {
    const raw = kubectlPod();
    delete raw.kind;
    delete raw.apiVersion;
    const out = normalizeObject(raw, 'Pod', 'v1') as Pod;
    expect([out.apiVersion, out.kind, Object.keys(out)[0]]).toEqual(['v1', 'Pod', 'apiVersion']);
  });

  it.each([
    [
      'spec.containers[0].securityContext.privileged',
      (p: any) => (p.spec.containers[0].securityContext.privileged = 'true'),
      'expected a boolean (got a string)',
    ],
    ['spec.containers[0].env[1].name', (p: any) => (p.spec.containers[0].env[1].name = 7), 'expected a string (got a number)'],
    ['spec.containers', (p: any) => delete p.spec.containers, 'missing (expected an array)'],
    ['spec.volumes[0].hostPath.path', (p: any) => delete p.spec.volumes[0].hostPath.path, 'missing (expected a string)'],
    ['metadata.name', (p: any) => delete p.metadata.name, 'missing (expected a string)'],
    ['metadata', (p: any) => (p.metadata = []), 'expected an object (got an array)'],
    ['metadata.labels.tier', (p: any) => (p.metadata.labels.tier = true), 'expected a string (got a boolean)'],
    ['metadata.labels["app.kubernetes.io/name"]', (p: any) => (p.metadata.labels['app.kubernetes.io/name'] = 1), 'expected a string (got a number)'],
    ['spec.containers[0].args', (p: any) => (p.spec.containers[0].args = ['--v', 4]), 'expected an array of strings (item 1 is a number)'],
    ['spec.containers[0].volumeMounts[1]', (p: any) => (p.spec.containers[0].volumeMounts[1] = 'token'), 'expected an object (got a string)'],
    ['spec', (p: any) => delete p.spec, 'missing (expected an object)'],
  ])('reports %s', (path, mutate, reason) => {
    const raw = kubectlPod();
    mutate(raw);
    const error = errorOf(() => normalizeObject(raw, 'Pod', 'v1'));
    expect([error.path, error.reason]).toEqual([path, reason]);
    expect(error.message).toBe(`${path}: ${reason}`);
  });

  it('null optional fields read as absent', () => {
    const raw = kubectlPod() as any;
    raw.spec.nodeName = null;
    raw.metadata.labels = null;
    raw.spec.containers[0].securityContext = null;
    const out = normalizeObject(raw, 'Pod', 'v1') as Pod;
    expect(['nodeName' in out.spec, 'labels' in out.metadata, 'securityContext' in out.spec.containers[0]]).toEqual([false, false, false]);
  });

  it('refuses a __proto__ label key without touching Object.prototype', () => {
    const raw = kubectlPod() as any;
    raw.metadata.labels = JSON.parse('{"app": "x", "__proto__": {"polluted": "yes"}}');
    const error = errorOf(() => normalizeObject(raw, 'Pod', 'v1'));
    expect(error.message).toBe('metadata.labels: forbidden key "__proto__"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('drops an undeclared __proto__ key on a copied object', () => {
    const raw = kubectlPod() as any;
    raw.spec.containers[0] = JSON.parse('{"name": "c", "__proto__": {"polluted": "yes"}}');
    const out = normalizeObject(raw, 'Pod', 'v1') as Pod;
    expect(out.spec.containers[0]).toStrictEqual({ name: 'c' });
    expect(Object.getPrototypeOf(out.spec.containers[0])).toBe(Object.prototype);
  });
});

describe('normalizeObject: other kinds', () => {
  it('ConfigMap keeps only the keys of data and binaryData', () => {
    const raw = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt', namespace: 'x' },
      data: { 'ca.crt': CANARY, 'app.yaml': CANARY },
      binaryData: { blob: 'AAA=' },
    };
    const out = normalizeObject(raw, 'ConfigMap', 'v1');
    expect(out).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'kube-root-ca.crt', namespace: 'x' },
      dataKeys: ['ca.crt', 'app.yaml', 'blob'],
    } satisfies ConfigMap);
  });

  it('ConfigMap without data has no dataKeys; an exported one keeps them', () => {
    expect(normalizeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, 'ConfigMap', 'v1')).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a' },
    });
    expect(normalizeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, dataKeys: ['k'] }, 'ConfigMap', 'v1')).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a' },
      dataKeys: ['k'],
    });
  });

  it('ClusterRole: rules, aggregation selectors; null rules read as absent', () => {
    const raw = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'dra-admin', labels: { 'rbac.example.com/aggregate-to-dra': 'true' } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-dra': 'true' } }] },
      rules: null,
    };
    const out = normalizeObject(raw, 'ClusterRole', 'rbac.authorization.k8s.io/v1');
    expect(out).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'dra-admin', labels: { 'rbac.example.com/aggregate-to-dra': 'true' } },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-dra': 'true' } }] },
    } satisfies ClusterRole);
  });

  it('Role rules keep every rule field', () => {
    const raw = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'self-service', namespace: 'tenant-c' },
      rules: [
        { apiGroups: [''], resources: ['namespaces'], resourceNames: ['tenant-c'], verbs: ['get', 'patch'] },
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      ],
    };
    expect(normalizeObject(raw, 'Role', 'rbac.authorization.k8s.io/v1')).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'self-service', namespace: 'tenant-c' },
      rules: [
        { apiGroups: [''], resources: ['namespaces'], resourceNames: ['tenant-c'], verbs: ['get', 'patch'] },
        { nonResourceURLs: ['/healthz'], verbs: ['get'] },
      ],
    } satisfies Role);
  });

  it('a rule without verbs names the rule', () => {
    const raw = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'x' },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: 'create' }],
    };
    expect(errorOf(() => normalizeObject(raw, 'ClusterRole', 'rbac.authorization.k8s.io/v1')).message).toBe(
      'rules[0].verbs: expected an array of strings (got a string)',
    );
  });

  it('ClusterRoleBinding: subjects null reads as [], roleRef required', () => {
    const raw = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: null,
    };
    expect(normalizeObject(raw, 'ClusterRoleBinding', 'rbac.authorization.k8s.io/v1')).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'b' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [],
    } satisfies ClusterRoleBinding);
    const noRef = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'b' } };
    expect(errorOf(() => normalizeObject(noRef, 'ClusterRoleBinding', 'rbac.authorization.k8s.io/v1')).message).toBe('roleRef: missing (expected an object)');
  });

  it('RoleBinding subjects keep kind, name, namespace and apiGroup only', () => {
    const raw = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'n' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'ServiceAccount', name: 'sa', namespace: 'n', extra: 1 },
        { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
      ],
    };
    const out = normalizeObject(raw, 'RoleBinding', 'rbac.authorization.k8s.io/v1') as ClusterRoleBinding;
    expect(out.subjects).toStrictEqual([
      { kind: 'ServiceAccount', name: 'sa', namespace: 'n' },
      { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
    ]);
  });

  it('Deployment keeps replicas, selector and the pod template (env values stripped)', () => {
    const raw = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'tenant-a', generation: 3 },
      spec: {
        replicas: 2,
        strategy: { type: 'RollingUpdate' },
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', env: [{ name: 'K', value: CANARY }] }] } },
      },
      status: { replicas: 2 },
    };
    const out = normalizeObject(raw, 'Deployment', 'apps/v1');
    expect(out).toStrictEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'tenant-a' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { spec: { containers: [{ name: 'web', env: [{ name: 'K' }] }] }, metadata: { labels: { app: 'web' } } },
      },
    } satisfies Deployment);
  });

  it('DaemonSet requires a template, ReplicaSet does not', () => {
    const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'd' }, spec: { selector: {} } };
    expect(errorOf(() => normalizeObject(ds, 'DaemonSet', 'apps/v1')).message).toBe('spec.template: missing (expected an object)');
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, spec: { replicas: 0 } };
    expect(normalizeObject(rs, 'ReplicaSet', 'apps/v1')).toStrictEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'r' },
      spec: { replicas: 0 },
    });
  });

  it('Node keeps taints, unschedulable, conditions and kubeletVersion', () => {
    const raw = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'gpu-h100-02', labels: { 'node-pool': 'gpu-workloads' } },
      spec: { podCIDR: '10.244.2.0/24', taints: [{ key: 'readiness.k8s.io/gpu-driver', effect: 'NoSchedule', timeAdded: null }], unschedulable: false },
      status: {
        conditions: [{ type: 'gpu.nvidia.com/DriverReady', status: 'False', reason: 'EndpointNotReady', lastHeartbeatTime: 'x' }],
        nodeInfo: { kubeletVersion: 'v1.36.3', osImage: 'Ubuntu' },
        images: [{ names: ['a'], sizeBytes: 1 }],
      },
    };
    expect(normalizeObject(raw, 'Node', 'v1')).toStrictEqual({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'gpu-h100-02', labels: { 'node-pool': 'gpu-workloads' } },
      spec: { taints: [{ key: 'readiness.k8s.io/gpu-driver', effect: 'NoSchedule' }], unschedulable: false },
      status: { conditions: [{ type: 'gpu.nvidia.com/DriverReady', status: 'False', reason: 'EndpointNotReady' }], nodeInfo: { kubeletVersion: 'v1.36.3' } },
    } satisfies Node);
  });

  it('ServiceAccount keeps secret and pull-secret names', () => {
    const raw = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'gpu-driver', namespace: 'gpu-operator' },
      secrets: [{ name: 'tok', namespace: 'gpu-operator', kind: 'Secret' }],
      automountServiceAccountToken: false,
    };
    expect(normalizeObject(raw, 'ServiceAccount', 'v1')).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'gpu-driver', namespace: 'gpu-operator' },
      secrets: [{ name: 'tok' }],
    } satisfies ServiceAccount);
  });

  it('ResourceQuota reads YAML numbers as quantity strings', () => {
    const raw = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'dra', namespace: 'tenant-a' },
      spec: { hard: { 'count/resourceclaims.resource.k8s.io': 10, 'gpu.nvidia.com.deviceclass.resource.k8s.io/devices': '8' } },
      status: { hard: { 'count/resourceclaims.resource.k8s.io': '10' }, used: { 'count/resourceclaims.resource.k8s.io': '3' } },
    };
    expect(normalizeObject(raw, 'ResourceQuota', 'v1')).toStrictEqual({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'dra', namespace: 'tenant-a' },
      spec: { hard: { 'count/resourceclaims.resource.k8s.io': '10', 'gpu.nvidia.com.deviceclass.resource.k8s.io/devices': '8' } },
      status: { hard: { 'count/resourceclaims.resource.k8s.io': '10' }, used: { 'count/resourceclaims.resource.k8s.io': '3' } },
    } satisfies ResourceQuota);
    const bad = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { pods: true } } };
    expect(errorOf(() => normalizeObject(bad, 'ResourceQuota', 'v1')).message).toBe('spec.hard.pods: expected a quantity string (got a boolean)');
  });

  it('ValidatingAdmissionPolicy keeps declared fields and copies variables/paramKind', () => {
    const raw = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'deny-admin-access' },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['*'], operations: ['CREATE'], resources: ['resourceclaims'] }],
          matchPolicy: 'Equivalent',
        },
        variables: [{ name: 'admin', expression: 'object.spec.devices.requests.exists(r, r.exactly.adminAccess)' }],
        validations: [{ expression: '!variables.admin', message: 'no admin access' }],
      },
    };
    expect(normalizeObject(raw, 'ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/v1')).toStrictEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'deny-admin-access' },
      spec: {
        failurePolicy: 'Fail',
        // matchPolicy is kept: Exact and Equivalent match different requests (lib/admission).
        matchConstraints: {
          resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['*'], operations: ['CREATE'], resources: ['resourceclaims'] }],
          matchPolicy: 'Equivalent',
        },
        validations: [{ expression: '!variables.admin', message: 'no admin access' }],
        variables: [{ name: 'admin', expression: 'object.spec.devices.requests.exists(r, r.exactly.adminAccess)' }],
      },
    } satisfies ValidatingAdmissionPolicy);
  });

  it('ValidatingAdmissionPolicy lists are copied: the parsed ones stay as they were, errors name the element', () => {
    const conditions = [{ name: 'only-claims', expression: 'true', extra: 1 }];
    const raw = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: { matchConditions: conditions, validations: [{ message: 'm', expression: 'false' }] },
    };
    const vap = normalizeObject(raw, 'ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/v1') as ValidatingAdmissionPolicy;
    expect(vap.spec?.matchConditions).toStrictEqual([{ name: 'only-claims', expression: 'true' }]);
    expect(vap.spec?.matchConditions).not.toBe(conditions);
    expect(conditions[0]).toStrictEqual({ name: 'only-claims', expression: 'true', extra: 1 });
    expect(vap.spec?.validations).toStrictEqual([{ expression: 'false', message: 'm' }]);
    const bad = (spec: object) => errorOf(() => normalizeObject({ ...raw, spec }, 'ValidatingAdmissionPolicy', 'admissionregistration.k8s.io/v1')).message;
    expect(bad({ matchConditions: [{ expression: 'true' }] })).toBe('spec.matchConditions[0].name: missing (expected a string)');
    expect(bad({ validations: [{ expression: 'true' }, { message: 'm' }] })).toBe('spec.validations[1].expression: missing (expected a string)');
    expect(bad({ matchConstraints: { resourceRules: ['x'] } })).toBe('spec.matchConstraints.resourceRules[0]: expected an object (got a string)');
  });

  it('refuses a kind it does not read', () => {
    expect(errorOf(() => normalizeObject({ metadata: { name: 'x' } }, 'Service', 'v1')).message).toBe('kind: kind "Service" is not read by dra-posture');
  });

  it('refuses a document that is not an object', () => {
    expect(errorOf(() => normalizeObject(['a'], 'Pod', 'v1')).message).toBe('expected an object (got an array)');
  });
});
