import { describe, expect, it } from 'vitest';
import { createRandom } from '@/scripts/bench/prng';
import { buildClusterState } from './build-cluster-state';
import { normalizeResourceClaim } from './normalize-dra';
import { isNormalResourceClaim } from './normalize-fast-claim';
import { isNormalPod } from './normalize-fast-pod';
import { resetPath, type RawObject } from './normalize-helpers';
import { normalizeObject, normalizePod } from './normalize-object';

// The fast path (isNormalPod, isNormalResourceClaim) may answer true only when the plain normaliser
// hands the object back unchanged; normalizeObject must then give what the plain normaliser gives,
// objects and errors alike. Checked on random edits of objects that use every field the fast path
// knows, and on what it must refuse.

/** A pod using every field and shape the fast path accepts, each valid. */
function fullPod(): RawObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'train-0',
      namespace: 'tenant-a',
      uid: 'uid-1',
      generateName: 'train-',
      creationTimestamp: '2026-01-01T00:00:00Z',
      resourceVersion: '42',
      labels: { app: 'train', 'kubernetes.io/name': '' },
      annotations: { note: 'x' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs-1', uid: 'rs-uid', controller: true }],
    },
    spec: {
      nodeName: 'node-1',
      serviceAccountName: 'sa-1',
      serviceAccount: 'sa-1',
      hostPID: false,
      hostNetwork: true,
      hostIPC: false,
      initContainers: [{ name: 'init', image: 'busybox', command: ['sh'], args: ['-c', 'true'], securityContext: { privileged: true } }],
      containers: [
        {
          name: 'main',
          image: 'registry.example.com/app:1.0',
          command: ['/app'],
          args: ['--flag'],
          securityContext: {
            privileged: false,
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            runAsNonRoot: true,
            runAsUser: 1000,
            capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] },
            seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' },
          },
          volumeMounts: [
            { name: 'plugins', mountPath: '/var/lib/kubelet/plugins', readOnly: true, mountPropagation: 'Bidirectional' },
            { name: 'cfg', mountPath: '/etc/cfg' },
          ],
          resources: { claims: [{ name: 'gpu', request: 'gpu' }, { name: 'nic' }] },
        },
      ],
      ephemeralContainers: [{ name: 'debug', image: 'busybox' }],
      volumes: [
        { name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins', type: 'DirectoryOrCreate' } },
        { name: 'cfg', configMap: { name: 'cfg' } },
        { name: 'token', secret: { secretName: 'tok' } },
        { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'empty', configMap: {} },
      ],
      imagePullSecrets: [{ name: 'pull' }],
      securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      resourceClaims: [
        { name: 'gpu', resourceClaimName: 'claim-1' },
        { name: 'nic', resourceClaimTemplateName: 'nic-template' },
      ],
    },
    status: { phase: 'Running', resourceClaimStatuses: [{ name: 'nic', resourceClaimName: 'train-0-nic-x' }, { name: 'other' }] },
  };
}

/** A pod of the bench cluster's tenant shape. */
function benchPod(): RawObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'pod-2177',
      namespace: 'ns-2177',
      uid: 'uid-pod-2177',
      labels: { app: 'app-177' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs-2177', uid: 'rs-uid-2177', controller: true }],
    },
    spec: {
      nodeName: 'node-8571',
      serviceAccountName: 'sa-22177',
      containers: [
        {
          name: 'main',
          image: 'registry.example.com/app:1.0',
          resources: { claims: [{ name: 'gpu' }] },
          securityContext: { runAsNonRoot: true, allowPrivilegeEscalation: false },
        },
      ],
      resourceClaims: [{ name: 'gpu', resourceClaimName: 'claim-2177' }],
    },
    status: { phase: 'Running' },
  };
}

/** A v1 claim using every field and shape the fast path accepts, each valid. */
function fullClaim(): RawObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'claim-1', namespace: 'tenant-a', uid: 'u', labels: { team: 'ml' }, annotations: { 'resource.kubernetes.io/pod-claim-name': 'gpu' } },
    spec: {
      devices: {
        requests: [
          {
            name: 'gpu',
            exactly: {
              deviceClassName: 'gpu.example.com',
              allocationMode: 'ExactCount',
              count: 2,
              adminAccess: false,
              selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }, {}],
            },
          },
        ],
      },
    },
    status: {
      allocation: {
        devices: {
          results: [
            { request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-0', adminAccess: false, shareID: 's' },
            { request: 'gpu', driver: 'gpu.example.com', pool: 'node-1', device: 'gpu-1' },
          ],
        },
        nodeSelector: {
          nodeSelectorTerms: [
            { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] },
            { matchExpressions: [{ key: 'zone', operator: 'Exists' }] },
          ],
        },
        allocationTimestamp: '2026-01-01T00:00:00Z',
      },
      reservedFor: [{ resource: 'pods', name: 'train-0', uid: 'uid-1', apiGroup: '' }],
    },
  };
}

/** A claim of the bench cluster's shape. */
function benchClaim(): RawObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'claim-33416', namespace: 'ns-13416', uid: '00000000-0000-4000-8000-0000000336f6' },
    spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', count: 1 } }] } },
    status: {
      allocation: {
        devices: { results: [{ request: 'gpu', driver: 'gpu.nvidia.com', pool: 'node-5762', device: 'gpu-2' }] },
        nodeSelector: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-5762'] }] }] },
      },
      reservedFor: [{ resource: 'pods', name: 'pod-33416', uid: 'uid-pod-33416' }],
    },
  };
}

// Keys and values edits draw from: the fields of both kinds (so valid structures move around), keys
// the plain normaliser drops or refuses, and values of every JSON type.
const KNOWN_KEYS = [
  ...new Set(
    [fullPod(), fullClaim()].flatMap(function keysOf(v: unknown): string[] {
      if (Array.isArray(v)) return v.flatMap(keysOf);
      if (typeof v !== 'object' || v === null) return [];
      return Object.entries(v).flatMap(([k, x]) => [k, ...keysOf(x)]);
    }),
  ),
];
const OTHER_KEYS = [
  'env',
  'envFrom',
  'valueFrom',
  'value',
  'defaultMode',
  'blockOwnerDeletion',
  'managedFields',
  'firstAvailable',
  'tolerations',
  'config',
  'constraints',
  'devices',
  'projected',
  'csi',
  'ephemeral',
  'finalizers',
  'kubectl.kubernetes.io/last-applied-configuration',
  'priorityClassName',
  'restartPolicy',
  'imagePullPolicy',
  'nodeSelector',
  'requests',
  'limits',
  'status',
  'spec',
  'kind',
  'apiVersion',
  'constructor',
  '__proto__',
  'prototype',
];
const VALUES: unknown[] = [
  null,
  0,
  1.5,
  -1,
  '',
  'x',
  'Pod',
  'ResourceClaim',
  'v1',
  'resource.k8s.io/v1',
  'resource.k8s.io/v1beta1',
  true,
  false,
  [],
  ['a'],
  [1],
  [null],
  [{}],
  {},
  { name: 'n' },
  { a: 'b' },
  { a: 1 },
];

type Random = ReturnType<typeof createRandom>;
type Part = RawObject | unknown[];
type IsNormal = (o: RawObject, apiVersion: string) => boolean;
type Plain = (o: RawObject, apiVersion: string) => unknown;

/** Every object and array in `v`, in a fixed order (so the same index names the same part of a copy). */
function parts(v: unknown, out: Part[] = []): Part[] {
  if (typeof v !== 'object' || v === null) return out;
  out.push(v as Part);
  for (const x of Object.values(v)) parts(x, out);
  return out;
}

/** Sets an own property even for `__proto__`, as JSON.parse makes it. */
function setOwn(target: RawObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function randomValue(r: Random, root: unknown): unknown {
  // Often a copy of some part of the object: a valid structure in a new place.
  return structuredClone(r.chance(0.4) ? r.pick(parts(root)) : r.pick(VALUES));
}

/** One random edit somewhere in `root` (never replacing the root itself). */
function edit(r: Random, root: RawObject): void {
  const target = r.pick(parts(root));
  if (Array.isArray(target)) {
    const op = r.int(3);
    if (op === 0 && target.length > 0) target.splice(r.int(target.length), 1);
    else if (op === 1 && target.length > 0) target[r.int(target.length)] = randomValue(r, root);
    else target.push(target.length > 0 && r.chance(0.5) ? structuredClone(r.pick(target)) : randomValue(r, root));
    return;
  }
  const keys = Object.keys(target);
  const op = r.int(3);
  if (op === 0 && keys.length > 0) delete target[r.pick(keys)];
  else if (op === 1 && keys.length > 0) target[r.pick(keys)] = randomValue(r, root);
  else {
    // Often a sibling's value, so that a map gains an entry of its own type.
    const value = keys.length > 0 && r.chance(0.5) ? structuredClone(target[r.pick(keys)]) : randomValue(r, root);
    setOwn(target, r.pick(r.chance(0.5) ? KNOWN_KEYS : OTHER_KEYS), value);
  }
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: String(error), path: (error as { path?: unknown }).path };
  }
}

/**
 * Whether the fast path keeps `x`. Either way normalizeObject (what the state builder calls) must
 * give what the plain normaliser gives, objects and errors alike; and an object the fast path keeps
 * must be one the plain normaliser returns itself, unchanged.
 */
function agrees(x: RawObject, kind: string, isNormal: IsNormal, plain: Plain, apiVersion: string): boolean {
  const text = JSON.stringify(x);
  const fresh = () => JSON.parse(text) as RawObject;
  const plainOutcome = outcome(() => {
    resetPath();
    return plain(fresh(), apiVersion);
  });
  const fastOutcome = outcome(() => normalizeObject(fresh(), kind, apiVersion));
  // Compared as text first (which also holds the key order); the matcher runs to report a difference.
  if (JSON.stringify(fastOutcome) !== JSON.stringify(plainOutcome)) expect(fastOutcome, text).toEqual(plainOutcome);
  const y = fresh();
  if (!isNormal(y, apiVersion)) return false;
  resetPath();
  expect(plain(y, apiVersion) === y, text).toBe(true);
  if (JSON.stringify(y) !== text) expect(y, text).toStrictEqual(fresh());
  return true;
}

/** Each single edit of `base`: every key of every part removed, every key set to each kind of value, every array element removed and one of each kind added. */
function singleEdits(base: () => RawObject): ((x: RawObject) => void)[] {
  const edits: ((x: RawObject) => void)[] = [];
  const values: unknown[] = ['s', 1, true, null, {}, ['s']];
  parts(base()).forEach((part, p) => {
    if (Array.isArray(part)) {
      part.forEach((_, i) => edits.push((x) => (parts(x)[p] as unknown[]).splice(i, 1)));
      for (const value of values) edits.push((x) => (parts(x)[p] as unknown[]).push(structuredClone(value)));
      return;
    }
    for (const key of Object.keys(part)) edits.push((x) => delete (parts(x)[p] as RawObject)[key]);
    for (const key of [...KNOWN_KEYS, ...OTHER_KEYS]) {
      for (const value of values) edits.push((x) => setOwn(parts(x)[p] as RawObject, key, structuredClone(value)));
    }
  });
  return edits;
}

function checkSingleEdits(base: () => RawObject, kind: string, isNormal: IsNormal, plain: Plain, apiVersion: string): number {
  let kept = 0;
  for (const apply of singleEdits(base)) {
    const x = base();
    apply(x);
    if (agrees(x, kind, isNormal, plain, apiVersion)) kept++;
  }
  return kept;
}

function checkRandomEdits(
  r: Random,
  bases: (() => RawObject)[],
  kind: string,
  isNormal: IsNormal,
  plain: Plain,
  runs: number,
): { kept: number; other: number } {
  let kept = 0;
  let other = 0;
  for (let i = 0; i < runs; i++) {
    const x = r.pick(bases)();
    const edits = r.int(4);
    for (let e = 0; e < edits; e++) edit(r, x);
    const apiVersion = r.chance(0.8) && typeof x.apiVersion === 'string' ? x.apiVersion : r.pick(API_VERSIONS);
    if (agrees(x, kind, isNormal, plain, apiVersion)) kept++;
    else other++;
  }
  return { kept, other };
}

const API_VERSIONS = ['v1', 'resource.k8s.io/v1', 'resource.k8s.io/v1beta2'];

const podPlain: Plain = (o, apiVersion) => normalizePod(o, apiVersion);
const claimIsNormal: IsNormal = (o) => isNormalResourceClaim(o);
const claimPlain: Plain = (o) => normalizeResourceClaim(o);

describe('normalisation fast path', () => {
  it('keeps the bench cluster shapes and fully populated objects as parsed', () => {
    for (const pod of [fullPod(), benchPod()]) {
      expect(isNormalPod(pod, 'v1')).toBe(true);
      expect(normalizeObject(pod, 'Pod', 'v1')).toBe(pod);
    }
    for (const claim of [fullClaim(), benchClaim()]) {
      expect(isNormalResourceClaim(claim)).toBe(true);
      expect(normalizeObject(claim, 'ResourceClaim', 'resource.k8s.io/v1')).toBe(claim);
    }
  });

  it('leaves to the plain normaliser what it would change or refuse', () => {
    const cases: [string, (o: RawObject) => void][] = [
      ['an env var with a value', (o) => ((o.spec as { containers: RawObject[] }).containers[0].env = [{ name: 'A', value: 'secret' }])],
      ['the last-applied annotation', (o) => ((o.metadata as RawObject).annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{}' })],
      ['a null field', (o) => ((o.spec as RawObject).nodeName = null)],
      ['resources without claims', (o) => ((o.spec as { containers: RawObject[] }).containers[0].resources = { limits: { cpu: '1' } })],
      ['another apiVersion', (o) => (o.apiVersion = 'v2')],
      ['a label that is not a string', (o) => ((o.metadata as RawObject).labels = { a: 1 })],
    ];
    for (const [what, change] of cases) {
      const pod = fullPod();
      change(pod);
      expect(isNormalPod(pod, 'v1'), what).toBe(false);
    }
    const beta = fullClaim();
    beta.apiVersion = 'resource.k8s.io/v1beta2';
    expect(isNormalResourceClaim(beta)).toBe(false);
    const flat = fullClaim();
    (flat.spec as { devices: { requests: RawObject[] } }).devices.requests[0] = { name: 'gpu', deviceClassName: 'gpu.example.com' };
    expect(isNormalResourceClaim(flat)).toBe(false);
  });

  it('answers as the plain normaliser for every single edit of a full pod and claim', () => {
    expect(checkSingleEdits(fullPod, 'Pod', isNormalPod, podPlain, 'v1')).toBeGreaterThan(50);
    expect(checkSingleEdits(fullClaim, 'ResourceClaim', claimIsNormal, claimPlain, 'resource.k8s.io/v1')).toBeGreaterThan(50);
  });

  it('answers as the plain normaliser on random edits of pods', () => {
    const counts = checkRandomEdits(createRandom(15), [fullPod, benchPod], 'Pod', isNormalPod, podPlain, 5000);
    // Both answers are exercised.
    expect(counts.kept).toBeGreaterThan(500);
    expect(counts.other).toBeGreaterThan(500);
  });

  it('answers as the plain normaliser on random edits of claims', () => {
    const counts = checkRandomEdits(createRandom(16), [fullClaim, benchClaim], 'ResourceClaim', claimIsNormal, claimPlain, 5000);
    expect(counts.kept).toBeGreaterThan(500);
    expect(counts.other).toBeGreaterThan(500);
  });

  it('builds the same state as the plain normalisers from a list of random pods and claims', () => {
    const r = createRandom(17);
    const items: RawObject[] = [];
    for (let i = 0; i < 1500; i++) {
      const x = r.pick([fullPod, benchPod, fullClaim, benchClaim])();
      for (let e = r.int(3); e > 0; e--) edit(r, x);
      // A few names, so that later copies replace earlier ones.
      if (typeof x.metadata === 'object' && x.metadata !== null && r.chance(0.5)) (x.metadata as RawObject).name = `n-${r.int(300)}`;
      items.push(x);
    }
    const text = JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
    const fast = buildClusterState([{ value: JSON.parse(text), origin: { file: 'list.json' } }], { kind: 'snapshot', name: 'test' }, { onInvalid: 'skip' });
    // The same objects each with a field the model drops: the fast path refuses every one of them,
    // so this state comes from the plain normalisers alone.
    const plainList = JSON.parse(text) as { items: RawObject[] };
    for (const item of plainList.items) {
      if (typeof item.metadata === 'object' && item.metadata !== null && !Array.isArray(item.metadata)) (item.metadata as RawObject).managedFields = [];
      expect(isNormalPod(item, 'v1') || isNormalResourceClaim(item)).toBe(false);
    }
    const plain = buildClusterState([{ value: plainList, origin: { file: 'list.json' } }], { kind: 'snapshot', name: 'test' }, { onInvalid: 'skip' });
    // Enough kept objects, some of them replacing an earlier copy, and some objects skipped as invalid.
    expect(fast.pods.length + fast.resourceClaims.length).toBeGreaterThan(300);
    expect(fast.warnings.some((w) => w.startsWith('duplicate'))).toBe(true);
    expect(fast.warnings.some((w) => w.startsWith('skipped invalid object'))).toBe(true);
    expect(fast).toStrictEqual(plain);
  });
});
