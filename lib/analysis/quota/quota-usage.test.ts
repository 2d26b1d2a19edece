import { describe, expect, it } from 'vitest';
import { stateOf } from '@/lib/authz/__fixtures__/builders';
import type { DeviceRequest, ResourceClaim, ResourceQuota } from '@/lib/k8s/types';
import { formatQuantity, parseQuantity, quantityFromInteger } from '@/lib/k8s/quantity';
import { createRandom } from '@/scripts/bench/prng';
import {
  analyseQuotas,
  atOrAboveWatermark,
  claimDeviceUsage,
  classDevicesLimiter,
  computeQuotaUsage,
  limitsClassDevices,
  parseDraQuotaKey,
  quotaScopes,
  usageDisagrees,
} from './quota-usage';

// dra-facts §6: usage as the ResourceQuota evaluator computes it from claim specs.

const claim = (namespace: string, name: string, requests: DeviceRequest[]): ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace },
  spec: { devices: { requests } },
});

const quota = (
  namespace: string,
  name: string,
  hard: Record<string, string>,
  used?: Record<string, string>,
  extra: Partial<NonNullable<ResourceQuota['spec']>> = {},
): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name, namespace },
  spec: { hard, ...extra },
  ...(used ? { status: { hard, used } } : {}),
});

const usage = (requests: DeviceRequest[]) => Object.fromEntries([...claimDeviceUsage({ devices: { requests } })].map(([k, v]) => [k, Number(v)]));

describe('claimDeviceUsage', () => {
  it('ExactCount charges count, default 1', () => {
    expect(
      usage([
        { name: 'a', exactly: { deviceClassName: 'gpu', count: 3 } },
        { name: 'b', exactly: { deviceClassName: 'gpu' } },
      ]),
    ).toEqual({ gpu: 4 });
  });
  it('allocationMode All charges 32', () => {
    expect(usage([{ name: 'a', exactly: { deviceClassName: 'gpu', allocationMode: 'All' } }])).toEqual({ gpu: 32 });
  });
  it('firstAvailable charges, per class, the worst subrequest; summed across requests', () => {
    const req: DeviceRequest = {
      name: 'pool',
      firstAvailable: [
        { name: 'mig-small', deviceClassName: 'mig', count: 2 },
        { name: 'mig-big', deviceClassName: 'mig', count: 4 },
        { name: 'full', deviceClassName: 'gpu', count: 1 },
      ],
    };
    expect(usage([req])).toEqual({ mig: 4, gpu: 1 });
    expect(usage([req, { name: 'x', exactly: { deviceClassName: 'mig', count: 1 } }])).toEqual({ mig: 5, gpu: 1 });
    expect(
      usage([
        {
          name: 'p',
          firstAvailable: [
            { name: 'a', deviceClassName: 'gpu', count: 2 },
            { name: 'b', deviceClassName: 'gpu', allocationMode: 'All' },
          ],
        },
      ]),
    ).toEqual({ gpu: 32 });
  });
  it('adminAccess requests are counted; an unknown mode charges nothing', () => {
    expect(usage([{ name: 'a', exactly: { deviceClassName: 'gpu', adminAccess: true, allocationMode: 'All' } }])).toEqual({ gpu: 32 });
    expect(usage([{ name: 'a', exactly: { deviceClassName: 'gpu', allocationMode: 'Some' } }])).toEqual({ gpu: 0 });
  });
});

describe('parseDraQuotaKey', () => {
  it.each([
    ['count/resourceclaims.resource.k8s.io', { kind: 'claims' }],
    ['gpu.nvidia.com.deviceclass.resource.k8s.io/devices', { kind: 'devices', deviceClass: 'gpu.nvidia.com' }],
    ['requests.deviceclass.resource.kubernetes.io/gpu.nvidia.com', { kind: 'extended', deviceClass: 'gpu.nvidia.com' }],
    ['requests.nvidia.com/gpu', undefined],
    ['count/pods', undefined],
    ['.deviceclass.resource.k8s.io/devices', undefined],
  ])('%s', (key, expected) => {
    expect(parseDraQuotaKey(key)).toEqual(expected);
  });
});

describe('computeQuotaUsage', () => {
  const state = stateOf({
    resourceClaims: [
      claim('tenant-a', 'one', [{ name: 'g', exactly: { deviceClassName: 'h100', count: 2 } }]),
      claim('tenant-a', 'two', [{ name: 'g', exactly: { deviceClassName: 'h100' } }]),
      claim('tenant-b', 'all-intel', [{ name: 'g', exactly: { deviceClassName: 'gpu.intel.com', allocationMode: 'All' } }]),
      claim('tenant-b', 'one-intel', [{ name: 'g', exactly: { deviceClassName: 'gpu.intel.com' } }]),
      claim('tenant-c', 'admin', [{ name: 'g', exactly: { deviceClassName: 'gpu', adminAccess: true, count: 2 } }]),
    ],
    resourceQuotas: [
      quota(
        'tenant-b',
        'dra',
        { 'gpu.intel.com.deviceclass.resource.k8s.io/devices': '40', 'requests.nvidia.com/gpu': '2', 'count/resourceclaims.resource.k8s.io': '10' },
        { 'gpu.intel.com.deviceclass.resource.k8s.io/devices': '33' },
      ),
      quota(
        'tenant-a',
        'dra',
        {
          'count/resourceclaims.resource.k8s.io': '10',
          'h100.deviceclass.resource.k8s.io/devices': '4',
          'requests.deviceclass.resource.kubernetes.io/h100': '4',
        },
        { 'count/resourceclaims.resource.k8s.io': '2', 'h100.deviceclass.resource.k8s.io/devices': '2' },
      ),
      quota('tenant-c', 'pods-only', { pods: '10' }),
      quota('tenant-c', 'dra', { 'gpu.deviceclass.resource.k8s.io/devices': '8' }),
      quota('tenant-c', 'scoped', { 'gpu.deviceclass.resource.k8s.io/devices': '1' }, undefined, { scopes: ['BestEffort'] }),
    ],
  });

  it('one row per DRA hard key, sorted, with hard, reported and computed usage', () => {
    expect(computeQuotaUsage(state)).toEqual([
      { namespace: 'tenant-a', name: 'dra', resource: 'count/resourceclaims.resource.k8s.io', hard: '10', used: '2', computedUsed: '2' },
      { namespace: 'tenant-a', name: 'dra', resource: 'h100.deviceclass.resource.k8s.io/devices', hard: '4', used: '2', computedUsed: '3' },
      { namespace: 'tenant-a', name: 'dra', resource: 'requests.deviceclass.resource.kubernetes.io/h100', hard: '4', used: null, computedUsed: '3' },
      { namespace: 'tenant-b', name: 'dra', resource: 'count/resourceclaims.resource.k8s.io', hard: '10', used: null, computedUsed: '2' },
      { namespace: 'tenant-b', name: 'dra', resource: 'gpu.intel.com.deviceclass.resource.k8s.io/devices', hard: '40', used: '33', computedUsed: '33' },
      { namespace: 'tenant-c', name: 'dra', resource: 'gpu.deviceclass.resource.k8s.io/devices', hard: '8', used: null, computedUsed: '2' },
      { namespace: 'tenant-c', name: 'scoped', resource: 'gpu.deviceclass.resource.k8s.io/devices', hard: '1', used: null, computedUsed: '0' },
    ]);
  });

  it('notes quota scopes (the claim evaluator matches none)', () => {
    expect(analyseQuotas(state).notes).toEqual([
      'ResourceQuota tenant-c/scoped has scopes BestEffort: ResourceClaims match no quota scope, so its DRA limits (gpu.deviceclass.resource.k8s.io/devices) never charge claims',
    ]);
  });

  it('reported vs computed disagreement is visible and detected', () => {
    const rows = computeQuotaUsage(state);
    expect(rows.filter(usageDisagrees).map((r) => `${r.namespace}/${r.resource}`)).toEqual(['tenant-a/h100.deviceclass.resource.k8s.io/devices']);
  });
});

describe('atOrAboveWatermark', () => {
  it.each([
    ['9', '10', 0.9, true],
    ['8', '10', 0.9, false],
    ['33', '40', 0.9, false],
    ['36', '40', 0.9, true],
    ['1k', '1100', 0.9, true],
    ['0', '0', 0.9, true],
    ['x', '10', 0.9, false],
  ])('%s of %s at %s → %s', (used, hard, w, expected) => {
    expect(atOrAboveWatermark(used, hard, w)).toBe(expected);
  });
});

describe('analyseQuotas on random claims', () => {
  // The namespace totals are summed as numbers and again as bigints only when a total leaves the
  // safe integers: held here to a plain bigint sum of the evaluator's charges (dra-facts §6), with
  // counts from 0 to far past 2^53, odd modes and firstAvailable subrequests.
  const CLASSES = ['gpu', 'nic', 'fpga'];
  const COUNTS = [undefined, 0, 1, 2, 3, -1, 2.7, 2 ** 52, 2 ** 53 - 1, 2 ** 53, 2 ** 60, 1e300, Number.NaN, Number.POSITIVE_INFINITY];
  const MODES = [undefined, '', 'ExactCount', 'All', 'Unknown'];
  const charge = (mode: string | undefined, count: number | undefined): bigint => {
    if (mode === undefined || mode === '' || mode === 'ExactCount') {
      const n = count ?? 1;
      return Number.isFinite(n) && n > 0 ? BigInt(Math.trunc(n)) : 0n;
    }
    return mode === 'All' ? 32n : 0n;
  };

  it('computes what a bigint sum of the charges gives, on 300 random clusters', () => {
    const r = createRandom(23);
    let large = 0;
    for (let round = 0; round < 300; round++) {
      const claims: ResourceClaim[] = [];
      const expected = new Map<string, bigint>();
      const add = (ns: string, cls: string, n: bigint) => expected.set(`${ns}/${cls}`, (expected.get(`${ns}/${cls}`) ?? 0n) + n);
      const nss = ['a', 'b', 'c'];
      for (let i = 0; i < 12; i++) {
        const ns = r.pick(nss);
        const requests: DeviceRequest[] = [];
        for (let j = r.int(3); j >= 0; j--) {
          const big = r.chance(0.05);
          const pickCount = () => (big ? r.pick(COUNTS) : r.pick(COUNTS.slice(0, 7)));
          if (r.chance(0.3)) {
            const subs = Array.from({ length: 1 + r.int(3) }, () => ({
              name: 's',
              deviceClassName: r.pick(CLASSES),
              allocationMode: r.pick(MODES),
              count: pickCount(),
            }));
            requests.push({ name: `r${j}`, firstAvailable: subs } as DeviceRequest);
            const max = new Map<string, bigint>();
            for (const s of subs) {
              const n = charge(s.allocationMode, s.count);
              if (!max.has(s.deviceClassName) || n > max.get(s.deviceClassName)!) max.set(s.deviceClassName, n);
            }
            for (const [cls, n] of max) add(ns, cls, n);
          } else {
            const exactly = { deviceClassName: r.pick(CLASSES), allocationMode: r.pick(MODES), count: pickCount() };
            requests.push({ name: `r${j}`, exactly } as DeviceRequest);
            add(ns, exactly.deviceClassName, charge(exactly.allocationMode, exactly.count));
          }
        }
        claims.push(claim(ns, `c${i}`, requests));
      }
      if ([...expected.values()].some((n) => n > BigInt(Number.MAX_SAFE_INTEGER))) large++;
      const hard = Object.fromEntries(CLASSES.map((c) => [`${c}.deviceclass.resource.k8s.io/devices`, '10']));
      const rows = computeQuotaUsage(stateOf({ resourceClaims: claims, resourceQuotas: nss.map((ns) => quota(ns, 'q', hard)) }));
      expect(rows).toHaveLength(9);
      for (const row of rows) {
        const cls = row.resource.slice(0, -'.deviceclass.resource.k8s.io/devices'.length);
        expect(row.computedUsed).toBe(formatQuantity(quantityFromInteger(expected.get(`${row.namespace}/${cls}`) ?? 0n)));
      }
    }
    // Some clusters have totals past the safe integers (summed as bigints), most do not.
    expect(large).toBeGreaterThan(10);
    expect(large).toBeLessThan(150);
  });
});

describe('analyseQuotas texts on random quotas', () => {
  // Each text is canonicalised once per analysis and each total formatted once: every row must still
  // read as the plain reading, a text that parses as a quantity in its canonical form, any other as written.
  it('canonicalises each hard and used text and formats each total as the plain reading', () => {
    const r = createRandom(31);
    const texts: unknown[] = ['10', '010', '1k', '1000', '1e3', '0.5', '500m', '2Gi', 'x', '', 10, 1.5];
    const plain = (t: unknown) => {
      const s = typeof t === 'number' ? String(t) : typeof t === 'string' ? t : '';
      const q = parseQuantity(s);
      return q ? formatQuantity(q) : s;
    };
    for (let round = 0; round < 50; round++) {
      const nss = ['a', 'b', 'c'];
      const claims = Array.from({ length: r.int(10) }, (_, i) =>
        claim(r.pick(nss), `c${i}`, [{ name: 'r', exactly: { deviceClassName: r.pick(['gpu', 'nic']), count: 1 + r.int(40) } } as DeviceRequest]),
      );
      const keys = ['count/resourceclaims.resource.k8s.io', 'gpu.deviceclass.resource.k8s.io/devices', 'nic.deviceclass.resource.k8s.io/devices'];
      const quotas = Array.from({ length: 1 + r.int(6) }, (_, i) => {
        const hard = Object.fromEntries(keys.filter(() => r.chance(0.7)).map((k) => [k, r.pick(texts)]));
        const used = Object.fromEntries(
          Object.keys(hard)
            .filter(() => r.chance(0.6))
            .map((k) => [k, r.pick(texts)]),
        );
        return quota(r.pick(nss), `q${i}`, hard as Record<string, string>, used as Record<string, string>);
      });
      const rows = analyseQuotas(stateOf({ resourceClaims: claims, resourceQuotas: quotas })).quotas;
      for (const row of rows) {
        const rq = quotas.find((q) => q.metadata.namespace === row.namespace && q.metadata.name === row.name)!;
        const used = rq.status?.used?.[row.resource];
        const computed = row.resource.startsWith('count/')
          ? claims.filter((c) => c.metadata.namespace === row.namespace).length
          : claims
              .filter((c) => c.metadata.namespace === row.namespace && c.spec!.devices!.requests![0].exactly!.deviceClassName === row.resource.split('.')[0])
              .reduce((n, c) => n + c.spec!.devices!.requests![0].exactly!.count!, 0);
        expect([row.hard, row.used, row.computedUsed]).toEqual([
          plain(rq.spec!.hard![row.resource]),
          used === undefined ? null : plain(used),
          formatQuantity(quantityFromInteger(computed)),
        ]);
      }
    }
  });
});

describe('analyseQuotas against a plain reading, on random clusters', () => {
  // The plain reading: the quotas in the state's order, each DRA key parsed where it is read, each
  // namespace's usage summed as bigints from its claims, and the rows sorted at the end. Claims come
  // in any namespace order and quotas may share a namespace and name, be scoped or carry only status.hard.
  const plainText = (t: unknown) => {
    const s = typeof t === 'number' ? String(t) : typeof t === 'string' ? t : '';
    const q = parseQuantity(s);
    return q ? formatQuantity(q) : s;
  };
  const plain = (claims: ResourceClaim[], quotas: ResourceQuota[]) => {
    const rows: ReturnType<typeof computeQuotaUsage> = [];
    const notes: string[] = [];
    for (const rq of quotas) {
      const ns = rq.metadata.namespace ?? '';
      const hardMap = rq.spec?.hard ?? rq.status?.hard ?? {};
      const keys = Object.keys(hardMap)
        .filter((k) => parseDraQuotaKey(k) !== undefined)
        .sort();
      if (keys.length === 0) continue;
      const scoped = quotaScopes(rq);
      if (scoped)
        notes.push(
          `ResourceQuota ${ns}/${rq.metadata.name} has ${scoped}: ResourceClaims match no quota scope, so its DRA limits (${keys.join(', ')}) never charge claims`,
        );
      const mine = claims.filter((c) => (c.metadata.namespace ?? '') === ns);
      for (const key of keys) {
        const parsed = parseDraQuotaKey(key)!;
        let computed = 0n;
        if (!scoped)
          computed = parsed.kind === 'claims' ? BigInt(mine.length) : mine.reduce((n, c) => n + (claimDeviceUsage(c.spec).get(parsed.deviceClass) ?? 0n), 0n);
        const used = rq.status?.used?.[key];
        rows.push({
          namespace: ns,
          name: rq.metadata.name,
          resource: key,
          hard: plainText(hardMap[key]),
          used: used === undefined || used === null ? null : plainText(used),
          computedUsed: formatQuantity(quantityFromInteger(computed)),
        });
      }
    }
    rows.sort((a, b) =>
      a.namespace < b.namespace
        ? -1
        : a.namespace > b.namespace
          ? 1
          : a.name < b.name
            ? -1
            : a.name > b.name
              ? 1
              : a.resource < b.resource
                ? -1
                : a.resource > b.resource
                  ? 1
                  : 0,
    );
    return { quotas: rows, notes: notes.sort() };
  };
  const CLASSES = ['gpu', 'nic', 'fpga'];
  const KEYS = [
    'count/resourceclaims.resource.k8s.io',
    ...CLASSES.map((c) => `${c}.deviceclass.resource.k8s.io/devices`),
    ...CLASSES.map((c) => `requests.deviceclass.resource.kubernetes.io/${c}`),
    'pods',
    'requests.cpu',
  ];
  const TEXTS = ['10', '010', '1k', '0', '3', '500m', 'x'];
  for (let seed = 0; seed < 60; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(3100 + seed);
      const nss = ['a', 'b', 'c', 'd'].slice(0, 1 + r.int(4));
      const claims: ResourceClaim[] = [];
      // Runs of claims in one namespace, as a cluster lists them, and namespaces visited again.
      for (let run = r.int(8); run > 0; run--) {
        const ns = r.pick(nss);
        for (let i = r.int(5); i >= 0; i--) {
          const requests = Array.from({ length: r.int(3) }, (_, j): DeviceRequest =>
            r.chance(0.7)
              ? {
                  name: `r${j}`,
                  exactly: { deviceClassName: r.pick(CLASSES), allocationMode: r.pick([undefined, 'ExactCount', 'All']), count: r.pick([undefined, 1, 2, 5]) },
                }
              : ({
                  name: `r${j}`,
                  firstAvailable: Array.from({ length: 1 + r.int(3) }, (_, k) => ({ name: `s${k}`, deviceClassName: r.pick(CLASSES), count: 1 + r.int(4) })),
                } as DeviceRequest),
          );
          const c = claim(ns, `c${claims.length}`, requests);
          if (r.chance(0.1)) delete (c as { spec?: unknown }).spec;
          claims.push(c);
        }
      }
      const quotas = Array.from({ length: r.int(10) }, () => {
        const hard = Object.fromEntries(KEYS.filter(() => r.chance(0.35)).map((k) => [k, r.pick(TEXTS)]));
        const used = r.chance(0.5)
          ? Object.fromEntries(
              Object.keys(hard)
                .filter(() => r.chance(0.6))
                .map((k) => [k, r.pick(TEXTS)]),
            )
          : undefined;
        const q = quota(r.pick(nss), `q${r.int(3)}`, hard, used, r.chance(0.2) ? { scopes: ['BestEffort'] } : {});
        if (used && r.chance(0.2)) delete q.spec!.hard;
        return q;
      });
      expect(analyseQuotas(stateOf({ resourceClaims: claims, resourceQuotas: quotas }))).toEqual(plain(claims, quotas));
    });
  }
});

describe('classDevicesLimiter against limitsClassDevices, on random key sets', () => {
  it('answers each pair as limitsClassDevices does, asked again and again', () => {
    const r = createRandom(3200);
    const classes = ['gpu', 'nic', 'fpga', 'a.b', ''];
    const keyOf = [
      (c: string) => `${c}.deviceclass.resource.k8s.io/devices`,
      (c: string) => `requests.deviceclass.resource.kubernetes.io/${c}`,
      (c: string) => c,
    ];
    const limits = classDevicesLimiter();
    for (let i = 0; i < 500; i++) {
      const keys = new Set(Array.from({ length: r.int(4) }, () => r.pick(keyOf)(r.pick(classes))));
      const cls = r.pick(classes);
      expect(limits(keys, cls)).toBe(limitsClassDevices(keys, cls));
    }
  });
});
