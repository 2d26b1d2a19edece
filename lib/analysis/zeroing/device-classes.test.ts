import { describe, expect, it } from 'vitest';
import { zero001, zero002 } from '@/lib/analysis/checks/zero-checks';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS, type AnalysisSettings } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { slice, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { DeviceClass, DeviceRequest, ResourceClaim, ResourceClaimTemplate } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { analyseDeviceClasses, classesOfSpec, deviceClassReports, driverFromSelectors } from './device-classes';

// DESIGN §4 zeroing indicators, dra-facts §9.

const dc = (name: string, spec: DeviceClass['spec'] = {}, annotations?: Record<string, string>): DeviceClass => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name, ...(annotations ? { annotations } : {}) },
  spec,
});
const sel = (expression: string) => ({ cel: { expression } });
const claim = (namespace: string, name: string, requests: DeviceRequest[], results?: { request: string; driver: string }[]): ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace },
  spec: { devices: { requests } },
  ...(results ? { status: { allocation: { devices: { results: results.map((r) => ({ ...r, pool: 'p', device: 'd' })) } } } } : {}),
});
const template = (namespace: string, name: string, requests: DeviceRequest[]): ResourceClaimTemplate => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name, namespace },
  spec: { spec: { devices: { requests } } },
});
const exact = (name: string, deviceClassName: string): DeviceRequest => ({ name, exactly: { deviceClassName } });

function fixture(): ClusterState {
  return stateOf({
    deviceClasses: [
      dc('gpu.example.com', { selectors: [sel("device.driver == 'gpu.example.com'")] }),
      dc(
        'h100-isolated.nvidia.com',
        { selectors: [sel('device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].type == "gpu"')] },
        { 'dra-posture.io/zero-on-release': 'true' },
      ),
      dc('opaque-zero', { config: [{ opaque: { driver: 'zeroing.platform.example.com', parameters: { resetPolicy: 'ZeroVRAMOnRelease' } } }] }),
      dc('plain'),
      dc('orphan', {}, { 'dra-posture.io/zero-on-release': 'false' }),
      dc('tpu-v5'),
    ],
    resourceSlices: [slice('s1', 'plain', 'n1')],
    resourceClaims: [
      claim('tenant-a', 'a', [exact('g', 'gpu.example.com')]),
      claim('tenant-b', 'b', [exact('g', 'gpu.example.com'), exact('h', 'h100-isolated.nvidia.com')]),
      claim('tenant-a', 'h', [exact('h', 'h100-isolated.nvidia.com')]),
      claim('kube-system', 'monitor', [exact('g', 'gpu.example.com')]),
      claim(
        'tenant-a',
        'fpga',
        [{ name: 'f', firstAvailable: [{ name: 'x', deviceClassName: 'opaque-zero' }] }],
        [{ request: 'f/x', driver: 'fpga.example.com' }],
      ),
    ],
    resourceClaimTemplates: [
      template('tenant-c', 'tpl', [
        {
          name: 'pick',
          firstAvailable: [
            { name: 'big', deviceClassName: 'tpu-v5' },
            { name: 'small', deviceClassName: 'gpu.example.com' },
          ],
        },
      ]),
    ],
  });
}

function analyse(settings: AnalysisSettings = DEFAULT_SETTINGS, state = fixture()) {
  const ctx = buildAnalysisContext(state, createAuthzEngine(state), settings);
  return { ctx, classes: deviceClassReports(ctx) };
}

describe('driverFromSelectors', () => {
  it.each([
    ["device.driver == 'a.example.com'", 'a.example.com'],
    ['device.driver=="b.example.com" && device.attributes["x"].y == 1', 'b.example.com'],
    ["'c.example.com' == device.driver", 'c.example.com'],
    ["device.driver == 'a' || device.driver == 'b'", null],
    ["device.attributes['gpu.nvidia.com'].type == 'gpu'", null],
  ])('%s → %s', (expression, driver) => {
    expect(driverFromSelectors(dc('x', { selectors: [sel(expression)] }))).toBe(driver);
  });
});

describe('deviceClassReports', () => {
  it('driver, zeroing state and using namespaces, sorted by name (default indicators)', () => {
    expect(analyse().classes).toEqual([
      { name: 'gpu.example.com', driver: 'gpu.example.com', zeroing: 'missing', usedByNamespaces: ['kube-system', 'tenant-a', 'tenant-b', 'tenant-c'] },
      { name: 'h100-isolated.nvidia.com', driver: 'gpu.nvidia.com', zeroing: 'configured', usedByNamespaces: ['tenant-a', 'tenant-b'] },
      { name: 'opaque-zero', driver: 'fpga.example.com', zeroing: 'configured', usedByNamespaces: ['tenant-a'] },
      { name: 'orphan', driver: null, zeroing: 'missing', usedByNamespaces: [] },
      { name: 'plain', driver: 'plain', zeroing: 'missing', usedByNamespaces: [] },
      { name: 'tpu-v5', driver: null, zeroing: 'missing', usedByNamespaces: ['tenant-c'] },
    ]);
  });

  it('unknown when no indicator applies; missing when the driver has an (empty) entry', () => {
    const { classes } = analyse({ ...DEFAULT_SETTINGS, zeroingIndicators: { 'gpu.example.com': [] } });
    expect(classes.map((c) => `${c.name}:${c.zeroing}`)).toEqual([
      'gpu.example.com:missing',
      'h100-isolated.nvidia.com:unknown',
      'opaque-zero:unknown',
      'orphan:unknown',
      'plain:unknown',
      'tpu-v5:unknown',
    ]);
  });

  it('per-driver indicators apply only to that driver; opaque parameters can require a driver name', () => {
    const { classes } = analyse({
      ...DEFAULT_SETTINGS,
      zeroingIndicators: {
        'gpu.nvidia.com': [{ kind: 'deviceClassAnnotation', key: 'dra-posture.io/zero-on-release', equals: 'true' }],
        'fpga.example.com': [{ kind: 'opaqueParameter', driver: 'other.example.com', path: 'resetPolicy', equals: 'ZeroVRAMOnRelease' }],
      },
    });
    expect(classes.map((c) => `${c.name}:${c.zeroing}`)).toEqual([
      'gpu.example.com:unknown',
      'h100-isolated.nvidia.com:configured',
      'opaque-zero:missing',
      'orphan:unknown',
      'plain:unknown',
      'tpu-v5:unknown',
    ]);
  });
});

describe('ZERO001 / ZERO002', () => {
  const { ctx } = analyse();

  it('ZERO001: only classes used in two or more tenant namespaces without zeroing', () => {
    const drafts = zero001.run(ctx);
    expect(drafts.map((d) => d.objects.map((o) => `${o.kind}/${o.name}`))).toEqual([
      ['DeviceClass/gpu.example.com', 'Namespace/tenant-a', 'Namespace/tenant-b', 'Namespace/tenant-c'],
    ]);
    expect(drafts[0].message).toContain('tenant-a, tenant-b and tenant-c');
    expect(drafts[0].remediation).toContain('dra-posture.io/zero-on-release: "true"');
  });

  it('ZERO002: accelerator classes (by name or driver) without zeroing', () => {
    expect(zero002.run(ctx).map((d) => d.objects[0].name)).toEqual(['gpu.example.com', 'tpu-v5']);
    const { ctx: listed } = analyse({ ...DEFAULT_SETTINGS, acceleratorClasses: ['plain'] });
    expect(zero002.run(listed).map((d) => d.objects[0].name)).toEqual(['gpu.example.com', 'plain', 'tpu-v5']);
  });
});

describe('ZERO002 accelerators from the class and its driver', () => {
  const driverClass = (name: string, driver: string) => dc(name, { selectors: [sel(`device.driver == "${driver}"`)] });
  const state = stateOf({
    deviceClasses: [
      driverClass('gaudi.intel.com', 'gaudi.intel.com'),
      driverClass('qat.intel.com', 'qat.intel.com'),
      driverClass('dra.memory', 'dra.memory'),
      driverClass('big-xpu', 'xpu.example.org'),
    ],
    resourceSlices: [
      {
        ...slice('m1', 'dra.memory', 'n1'),
        spec: { ...slice('m1', 'dra.memory', 'n1').spec, devices: [{ name: 'memory-x', capacity: { memory: { value: '64Gi' } } }] },
      },
      {
        ...slice('x1', 'xpu.example.org', 'n1'),
        spec: { ...slice('x1', 'xpu.example.org', 'n1').spec, devices: [{ name: 'xpu-0', capacity: { memory: { value: '96Gi' } } }] },
      },
    ],
  });

  it('fires for Gaudi (known driver) and a device with its own memory; not for QAT or host memory', () => {
    const { ctx } = analyse(DEFAULT_SETTINGS, state);
    const drafts = zero002.run(ctx);
    expect(drafts.map((d) => d.objects[0].name)).toEqual(['big-xpu', 'gaudi.intel.com']);
    expect(drafts.map((d) => d.evidence.at(-1))).toEqual([
      { type: 'note', text: 'accelerator: devices of driver xpu.example.org publish a memory capacity (n1/xpu-0: memory 96Gi)' },
      { type: 'note', text: 'accelerator: driver gaudi.intel.com is a known accelerator driver (Intel Gaudi AI accelerators)' },
    ]);
  });

  it('a zeroing indicator still clears an accelerator', () => {
    const annotated = {
      ...state,
      deviceClasses: state.deviceClasses.map((d) =>
        d.metadata.name === 'gaudi.intel.com' ? { ...d, metadata: { ...d.metadata, annotations: { 'dra-posture.io/zero-on-release': 'true' } } } : d,
      ),
    };
    const { ctx } = analyse(DEFAULT_SETTINGS, annotated);
    expect(zero002.run(ctx).map((d) => d.objects[0].name)).toEqual(['big-xpu']);
  });
});

describe('analyseDeviceClasses on random claims', () => {
  // The plain readings: a class is used by a namespace when a request or subrequest of one of its
  // claims or templates names it (classesOfSpec); a class's drivers from allocation are those of the
  // results whose request (or request/subrequest) named it.
  const CLASSES = ['c0', 'c1', 'c2', 'c3'];
  const randomRequests = (r: ReturnType<typeof createRandom>): DeviceRequest[] =>
    Array.from({ length: r.int(3) }, (_, i): DeviceRequest => {
      const cls = () => (r.chance(0.1) ? '' : r.pick(CLASSES));
      return r.chance(0.6)
        ? { name: `r${i}`, exactly: { deviceClassName: cls() } }
        : { name: `r${i}`, firstAvailable: Array.from({ length: 1 + r.int(2) }, (_, j) => ({ name: `s${j}`, deviceClassName: cls() })) };
    });

  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}: using namespaces and drivers from allocation as the plain reading`, () => {
      const r = createRandom(1600 + seed);
      const claims: ResourceClaim[] = [];
      const templates: ResourceClaimTemplate[] = [];
      for (let i = 0; i < 30; i++) {
        const ns = `ns-${r.int(5)}`;
        const requests = randomRequests(r);
        if (r.chance(0.3)) {
          templates.push(template(ns, `t${i}`, requests));
          continue;
        }
        const names = requests.flatMap((q) => (q.exactly ? [q.name] : (q.firstAvailable ?? []).map((s) => `${q.name}/${s.name}`)));
        const results = r.chance(0.5) ? names.filter(() => r.chance(0.7)).map((request) => ({ request, driver: r.pick(['d1', 'd2']) })) : undefined;
        claims.push(claim(ns, `c${i}`, requests, results && (results.length > 0 || r.chance(0.5)) ? results : undefined));
      }
      const state = stateOf({ deviceClasses: CLASSES.map((c) => dc(c)), resourceClaims: claims, resourceClaimTemplates: templates });

      const usedBy = new Map<string, Set<string>>();
      const drivers = new Map<string, Set<string>>();
      const add = (m: Map<string, Set<string>>, k: string, v: string) => m.set(k, (m.get(k) ?? new Set()).add(v));
      for (const c of claims) for (const cls of classesOfSpec(c.spec)) add(usedBy, cls, c.metadata.namespace!);
      for (const t of templates) for (const cls of classesOfSpec(t.spec?.spec)) add(usedBy, cls, t.metadata.namespace!);
      for (const c of claims)
        for (const res of c.status?.allocation?.devices?.results ?? [])
          for (const q of c.spec?.devices?.requests ?? []) {
            if (q.exactly && q.name === res.request && q.exactly.deviceClassName) add(drivers, q.exactly.deviceClassName, res.driver);
            for (const sub of q.firstAvailable ?? [])
              if (`${q.name}/${sub.name}` === res.request && sub.deviceClassName) add(drivers, sub.deviceClassName, res.driver);
          }

      const got = analyseDeviceClasses({ state, settings: DEFAULT_SETTINGS });
      expect(got.map((c) => c.usedByNamespaces)).toEqual(CLASSES.map((c) => [...(usedBy.get(c) ?? [])].sort()));
      expect(got.map((c) => c.driver)).toEqual(CLASSES.map((c) => (drivers.get(c)?.size === 1 ? [...drivers.get(c)!][0] : null)));
    });
  }
});
