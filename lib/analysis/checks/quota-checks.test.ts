import { CATALOG } from '@/lib/analysis/catalog';
import { Q } from '@/lib/analysis/context/questions';
import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, Group, rb, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { DeviceRequest, Namespace, ResourceClaim, ResourceClaimTemplate, ResourceQuota } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { classesOfSpec } from '@/lib/analysis/zeroing/device-classes';
import { claimRequestsByNamespace, specOf, usersByClass } from '@/lib/analysis/context/claim-requests';
import { grantsEvidence, list } from './check-helpers';
import { describeSubject, sortSubjects } from '@/lib/k8s/refs';
import type { WhoCanGrant } from '@/lib/authz/who-can';
import { atOrAboveWatermark } from '@/lib/analysis/quota/quota-usage';
import {
  cappedWithFields,
  classFields,
  quota001,
  quota002,
  quota003,
  quota004,
  QUOTA_CHECKS,
  quotaYaml,
  quotaYamlWriter,
  usageAtWatermark,
} from './quota-checks';
import type { Evidence } from '@/lib/analysis/types';

// DESIGN §4 QUOTA001-QUOTA004.

const ns = (name: string, labels?: Record<string, string>): Namespace => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, ...(labels ? { labels } : {}) },
});
const claim = (namespace: string, name: string, requests: DeviceRequest[], annotations?: Record<string, string>): ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
  spec: { devices: { requests } },
});
const template = (namespace: string, name: string, requests: DeviceRequest[]): ResourceClaimTemplate => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaimTemplate',
  metadata: { name, namespace },
  spec: { spec: { devices: { requests } } },
});
const quota = (namespace: string, name: string, hard: Record<string, string>, used?: Record<string, string>, scopes?: string[]): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name, namespace },
  spec: { hard, ...(scopes ? { scopes } : {}) },
  ...(used ? { status: { hard, used } } : {}),
});
const exact = (name: string, deviceClassName: string, extra: Partial<NonNullable<DeviceRequest['exactly']>> = {}): DeviceRequest => ({
  name,
  exactly: { deviceClassName, ...extra },
});

const state = stateOf({
  namespaces: [ns('tenant-a'), ns('tenant-b'), ns('tenant-c'), ns('tenant-d'), ns('tenant-e'), ns('kube-system')],
  resourceClaims: [
    claim('tenant-a', 'one', [exact('g', 'h100', { count: 2 })]),
    claim('tenant-a', 'two', [exact('g', 'h100', { count: 2 })]),
    claim('tenant-b', 'all-intel', [exact('g', 'gpu.intel.com', { allocationMode: 'All' })]),
    claim('tenant-b', 'four-intel', [exact('g', 'gpu.intel.com', { count: 4 })]),
    claim('tenant-b', 'shared-gpu', [exact('g', 'gpu.nvidia.com')]),
    claim('tenant-b', 'train-0-gpu-x7k2p', [exact('g', 'gpu.intel.com', { allocationMode: 'All' })], { 'resource.kubernetes.io/pod-claim-name': 'gpu' }),
    claim('kube-system', 'monitor', [exact('g', 'gpu.nvidia.com', { allocationMode: 'All', adminAccess: true })]),
    claim('tenant-e', 'scoped-only', [exact('g', 'gpu.nvidia.com')]),
  ],
  resourceClaimTemplates: [
    template('tenant-a', 'pick', [
      {
        name: 'p',
        firstAvailable: [
          { name: 'all', deviceClassName: 'mig', allocationMode: 'All' },
          { name: 'one', deviceClassName: 'h100' },
        ],
      },
    ]),
  ],
  resourceQuotas: [
    quota(
      'tenant-a',
      'dra',
      { 'count/resourceclaims.resource.k8s.io': '10', 'h100.deviceclass.resource.k8s.io/devices': '4', 'mig.deviceclass.resource.k8s.io/devices': '64' },
      { 'count/resourceclaims.resource.k8s.io': '2', 'h100.deviceclass.resource.k8s.io/devices': '4', 'mig.deviceclass.resource.k8s.io/devices': '0' },
    ),
    quota(
      'tenant-b',
      'dra',
      { 'gpu.intel.com.deviceclass.resource.k8s.io/devices': '40', 'requests.deviceclass.resource.kubernetes.io/gpu.nvidia.com': '2' },
      { 'gpu.intel.com.deviceclass.resource.k8s.io/devices': '33' },
    ),
    quota('tenant-e', 'scoped', { 'count/resourceclaims.resource.k8s.io': '5', 'gpu.nvidia.com.deviceclass.resource.k8s.io/devices': '1' }, undefined, [
      'BestEffort',
    ]),
  ],
  roles: [role('tenant-c', 'claims', [{ verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] }])],
  clusterRoles: [clusterRole('view-only', [{ verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] }])],
  roleBindings: [
    rb('tenant-c', 'alice', { kind: 'Role', name: 'claims' }, [User('alice')]),
    rb('tenant-d', 'bob', { kind: 'ClusterRole', name: 'view-only' }, [User('bob')]),
  ],
});
const ctx = buildAnalysisContext(state, createAuthzEngine(state), DEFAULT_SETTINGS);

describe('QUOTA checks', () => {
  it('registers QUOTA001-QUOTA004 with their severities', () => {
    expect(QUOTA_CHECKS.map((c) => `${c.id}:${CATALOG[c.id].severity}`)).toEqual(['QUOTA001:medium', 'QUOTA002:low', 'QUOTA003:low', 'QUOTA004:info']);
  });

  it('QUOTA001: tenants with claims or claim creators but no (unscoped) claim-count quota', () => {
    const drafts = quota001.run(ctx);
    expect(drafts.map((d) => d.objects[0].name)).toEqual(['tenant-b', 'tenant-c', 'tenant-e']);
    expect(drafts[1].message).toBe(
      'Tenant namespace tenant-c lets User alice create them, but no ResourceQuota limits count/resourceclaims.resource.k8s.io: the tenant can create claims (and pin devices) without bound.',
    );
    expect(drafts[0].message.startsWith('Tenant namespace tenant-b has 4 ResourceClaims and 0 ResourceClaimTemplates, but no ResourceQuota')).toBe(true);
    expect(drafts[1].evidence[0]).toMatchObject({ type: 'grant', binding: { kind: 'RoleBinding', namespace: 'tenant-c', name: 'alice' } });
  });

  it('QUOTA002: per tenant namespace and class without a devices limit (the extended mirror counts as one)', () => {
    expect(quota002.run(ctx).map((d) => d.objects.map((o) => o.name).join(' '))).toEqual(['tenant-e gpu.nvidia.com']);
    const s2 = { ...state, resourceQuotas: state.resourceQuotas.filter((q) => q.metadata.namespace !== 'tenant-b') };
    const ctx2 = buildAnalysisContext(s2, createAuthzEngine(s2), DEFAULT_SETTINGS);
    expect(quota002.run(ctx2).map((d) => d.objects.map((o) => o.name).join(' '))).toEqual([
      'tenant-b gpu.intel.com',
      'tenant-b gpu.nvidia.com',
      'tenant-e gpu.nvidia.com',
    ]);
  });

  it('QUOTA003: at or above the watermark by reported or computed usage, disagreement in the message', () => {
    const drafts = quota003.run(ctx);
    expect(drafts.map((d) => `${d.objects[0].namespace}/${d.objects[0].name}`)).toEqual(['tenant-a/dra', 'tenant-b/dra']);
    // tenant-a: reported 4/4 on h100; the template does not charge quota, the two claims do (2+2).
    expect(drafts[0].message).toBe(
      'ResourceQuota tenant-a/dra is at or above 90% of its hard limit: h100.deviceclass.resource.k8s.io/devices 4/4 (100%). New claims in tenant-a will soon be refused.',
    );
    // tenant-b: status says 33/40 (82%) but the claims add up to 32+4+32 (the generated claim is charged too) = 68.
    expect(drafts[1].message).toContain('gpu.intel.com.deviceclass.resource.k8s.io/devices 33/40 (83%) (status.used reports 33, the claims add up to 68');
    // 1 of 2 (50%) is below the watermark: not listed.
    expect(drafts[1].message).not.toContain('requests.deviceclass.resource.kubernetes.io/gpu.nvidia.com');
  });

  it('QUOTA003 follows settings.quotaHighWatermark', () => {
    const strict = buildAnalysisContext(state, createAuthzEngine(state), { ...DEFAULT_SETTINGS, quotaHighWatermark: 0.5 });
    expect(quota003.run(strict).map((d) => d.objects[0].namespace)).toEqual(['tenant-a', 'tenant-b']);
    const lax = buildAnalysisContext(state, createAuthzEngine(state), { ...DEFAULT_SETTINGS, quotaHighWatermark: 1.01 });
    expect(quota003.run(lax).map((d) => d.objects[0].namespace)).toEqual(['tenant-b']);
  });

  it('QUOTA004: each claim (generated ones included: they are charged) or template with allocationMode All', () => {
    const drafts = quota004.run(ctx);
    expect(drafts.map((d) => `${d.objects[0].kind} ${d.objects[0].namespace}/${d.objects[0].name}`)).toEqual([
      'ResourceClaim kube-system/monitor',
      'ResourceClaimTemplate tenant-a/pick',
      'ResourceClaim tenant-b/all-intel',
      'ResourceClaim tenant-b/train-0-gpu-x7k2p',
    ]);
    expect(drafts[1].evidence).toEqual([
      {
        type: 'field',
        object: { kind: 'ResourceClaimTemplate', namespace: 'tenant-a', name: 'pick' },
        path: 'spec.spec.devices.requests[0].firstAvailable[0].allocationMode',
        value: 'All',
      },
    ]);
  });
});

describe('usersByClass (QUOTA002) on random claims and templates', () => {
  // The plain reading: the classes are those classesOfSpec reads from some object, and a class's
  // users the objects, in order, whose classes include it.
  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(2300 + seed);
      const cls = () => (r.chance(0.1) ? '' : r.pick(['a', 'b', 'c', 'gpu.example.com']));
      const objects = randomClaimsAndTemplates(r, cls, 8, 3);
      const classesOf = objects.map((o) => classesOfSpec(specOf(o)));
      const expected = [...new Set(classesOf.flat())].sort().map((c) => [c, objects.filter((_, i) => classesOf[i].includes(c))]);
      const got = usersByClass(objects);
      expect([...got.keys()].sort().map((c) => [c, got.get(c)])).toEqual(expected);
    });
  }
});

describe('classFields (QUOTA002 evidence) on random claims and templates', () => {
  // The plain reading: every field naming the class, object by object, then capped at ten with a note
  // counting the rest.
  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(2400 + seed);
      const cls = () => r.pick(['a', 'b', 'gpu.example.com']);
      // Some objects with more requests than classFields keeps shared paths for.
      const objects = randomClaimsAndTemplates(r, cls, 16, seed % 4 === 0 ? 12 : 4);
      for (const c of ['a', 'b', 'gpu.example.com', 'none']) {
        const all = objects.flatMap((o) => {
          const base = o.kind === 'ResourceClaimTemplate' ? 'spec.spec.devices.requests' : 'spec.devices.requests';
          const object = { kind: o.kind, name: o.metadata.name, namespace: 'ns' };
          return (specOf(o)?.devices?.requests ?? []).flatMap((q, i) => [
            ...(q.exactly?.deviceClassName === c ? [{ type: 'field', object, path: `${base}[${i}].exactly.deviceClassName`, value: c }] : []),
            ...(q.firstAvailable ?? []).flatMap((s, j) =>
              s.deviceClassName === c ? [{ type: 'field', object, path: `${base}[${i}].firstAvailable[${j}].deviceClassName`, value: c }] : [],
            ),
          ]);
        });
        const expected = all.length <= 10 ? all : [...all.slice(0, 10), { type: 'note', text: `and ${all.length - 10} more requests` }];
        expect(classFields(objects, c)).toEqual(expected);
      }
    });
  }
});

describe('usageAtWatermark (QUOTA003) on random quantities', () => {
  it('answers as atOrAboveWatermark, a zero limit flagging any charge, asked again and again', () => {
    const r = createRandom(2500);
    const texts = ['0', '1', '9', '10', '36', '40', '1k', '1100', '500m', '2Gi', 'x', ''];
    for (const watermark of [0, 0.5, 0.9, 1, 1.25]) {
      const test = usageAtWatermark(watermark);
      for (let i = 0; i < 400; i++) {
        const used = r.pick(texts);
        const hard = r.pick(texts);
        const plain = hard === '0' ? used !== '0' : atOrAboveWatermark(used, hard, watermark);
        expect([watermark, used, hard, test(used, hard)]).toEqual([watermark, used, hard, plain]);
      }
    }
  });
});

/** Up to `maxObjects` (exclusive) claims and templates in namespace ns, each with up to `maxRequests` (exclusive) exactly or firstAvailable requests of cls(). */
function randomClaimsAndTemplates(
  r: ReturnType<typeof createRandom>,
  cls: () => string,
  maxObjects: number,
  maxRequests: number,
): (ResourceClaim | ResourceClaimTemplate)[] {
  return Array.from({ length: r.int(maxObjects) }, (_, i): ResourceClaim | ResourceClaimTemplate => {
    const requests = Array.from({ length: r.int(maxRequests) }, (_, j): DeviceRequest =>
      r.chance(0.6)
        ? { name: `r${j}`, exactly: { deviceClassName: cls() } }
        : { name: `r${j}`, firstAvailable: Array.from({ length: 1 + r.int(3) }, (_, k) => ({ name: `s${k}`, deviceClassName: cls() })) },
    );
    const metadata = { name: `o${i}`, namespace: 'ns' };
    return r.chance(0.3)
      ? { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata, spec: { spec: { devices: { requests } } } }
      : { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata, spec: { devices: { requests } } };
  });
}

describe('cappedWithFields (QUOTA001 evidence) on random grants and objects', () => {
  // The plain reading: the grants' evidence, then a metadata.namespace field per object, capped at ten
  // with a note counting the rest.
  for (let seed = 0; seed < 40; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(2500 + seed);
      const objects = randomClaimsAndTemplates(r, () => 'a', r.int(25), 1);
      const grants: Evidence[] = Array.from({ length: r.int(14) }, (_, i) => ({ type: 'note', text: `grant ${i}` }));
      const all: Evidence[] = [
        ...grants,
        ...objects.map((o): Evidence => ({
          type: 'field',
          object: { kind: o.kind, name: o.metadata.name, namespace: 'ns' },
          path: 'metadata.namespace',
          value: 'ns',
        })),
      ];
      const expected = all.length <= 10 ? all : [...all.slice(0, 10), { type: 'note', text: `and ${all.length - 10} more objects` }];
      expect(cappedWithFields([...grants], objects, 'ns')).toEqual(expected);
    });
  }
});

describe('quotaYamlWriter (QUOTA001, QUOTA002 remediations) on random names', () => {
  // Held to the whole manifest written at once, for names plain YAML would misread and classes of every shape.
  const awkward = ['ns', 'team-a', '123', 'true', 'null', '1e3', 'a:b', 'a b', '-x', 'x"y', "it's", '#c', '', 'ü', 'a\\b', 'y'];
  for (let seed = 0; seed < 20; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(2600 + seed);
      const hardOf = (cls: string) => ({ [`${cls}.deviceclass.resource.k8s.io/devices`]: r.pick(['4', '10']) });
      const fixed = new Map<string, Record<string, string>>();
      const write = quotaYamlWriter((cls) => fixed.get(cls)!);
      for (let i = 0; i < 30; i++) {
        const namespace = r.chance(0.5) ? r.pick(awkward) : `${r.pick(awkward)}${r.pick(awkward)}`;
        const cls = r.chance(0.3) ? r.pick(awkward) : `gpu-${r.int(3)}.example.com`;
        if (!fixed.has(cls)) fixed.set(cls, hardOf(cls));
        expect(write(namespace, cls)).toBe(quotaYaml(namespace, fixed.get(cls)!));
      }
    });
  }
});

describe('QUOTA001 and QUOTA002 on random clusters', () => {
  // The plain reading: every tenant namespace of ctx.namespaces, its unscoped quotas' keys and its
  // objects looked up where they are read, its creators from the two questions joined and filtered.
  const CLASSES = ['a', 'b', 'gpu.example.com'];
  const KEYS = [
    'count/resourceclaims.resource.k8s.io',
    ...CLASSES.flatMap((c) => [`${c}.deviceclass.resource.k8s.io/devices`, `requests.deviceclass.resource.kubernetes.io/${c}`]),
  ];
  for (let seed = 0; seed < 30; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(2700 + seed);
      const names = ['kube-system', 'n0', 'n1', 'n2', 'n3', 'n4', 'n5'];
      const namespaces = names.map((n) => ns(n, r.chance(0.2) ? { 'dra-posture.io/role': 'platform' } : undefined));
      const objects = names.flatMap((n) =>
        randomClaimsAndTemplates(r, () => r.pick(CLASSES), 5, 3).map(
          (o) => ({ ...o, metadata: { ...o.metadata, namespace: n } }) as ResourceClaim | ResourceClaimTemplate,
        ),
      );
      const quotas = Array.from({ length: r.int(8) }, (_, i) =>
        quota(
          r.pick(names),
          `q${i}`,
          Object.fromEntries(KEYS.filter(() => r.chance(0.3)).map((k) => [k, '5'])),
          undefined,
          r.chance(0.2) ? ['BestEffort'] : undefined,
        ),
      );
      const withCreators = names.filter(() => r.chance(0.4));
      const s = stateOf({
        namespaces,
        resourceClaims: objects.filter((o): o is ResourceClaim => o.kind === 'ResourceClaim'),
        resourceClaimTemplates: objects.filter((o): o is ResourceClaimTemplate => o.kind === 'ResourceClaimTemplate'),
        resourceQuotas: quotas,
        roles: withCreators.map((n) =>
          role(n, 'claims', [{ verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: [r.pick(['resourceclaims', 'resourceclaimtemplates', '*'])] }]),
        ),
        roleBindings: withCreators.map((n) => rb(n, 'alice', { kind: 'Role', name: 'claims' }, [User(`alice-${n}`)])),
      });
      const c = buildAnalysisContext(s, createAuthzEngine(s), DEFAULT_SETTINGS);
      const keysOf = (n: string) =>
        new Set(quotas.filter((q) => q.metadata.namespace === n && !q.spec?.scopes).flatMap((q) => Object.keys(q.spec?.hard ?? {})));
      const tenants = c.namespaces.filter((n) => c.isTenantNamespace(n));
      const creators = (n: string) =>
        [...c.access.grantedInNamespace(Q.claimCreate, n), ...c.access.grantedInNamespace(Q.templateCreate, n)].filter(
          (e) => e.via === 'rbac' && !c.isAdminEquivalent(e.subject) && !c.isSystemIdentity(e.subject),
        );
      const q1 = tenants.filter((n) => !keysOf(n).has(KEYS[0]) && (objects.some((o) => o.metadata.namespace === n) || creators(n).length > 0));
      expect(quota001.run(c).map((d) => [d.objects[0].name, d.evidence.length])).toEqual(
        q1.map((n) => [
          n,
          Math.min(
            11,
            objects.filter((o) => o.metadata.namespace === n).length +
              new Set(creators(n).flatMap((e) => e.grants.filter((g) => g.binding.namespace === n).map((g) => `${g.binding.name}/${g.ruleIndex}`))).size,
          ),
        ]),
      );
      const q2 = tenants.flatMap((n) => {
        const here = objects.filter((o) => o.metadata.namespace === n);
        const classes = [...new Set(here.flatMap((o) => classesOfSpec(specOf(o))))].sort();
        const keys = keysOf(n);
        return classes
          .filter((k) => !keys.has(`${k}.deviceclass.resource.k8s.io/devices`) && !keys.has(`requests.deviceclass.resource.kubernetes.io/${k}`))
          .map((k) => `${n} ${k}`);
      });
      expect(quota002.run(c).map((d) => d.objects.map((o) => o.name).join(' '))).toEqual(q2);
    });
  }
});

describe('QUOTA001 findings on random clusters with several creators', () => {
  // The plain reading of a finding: its creators' subjects deduplicated and sorted, its claims
  // counted by a filter, and the namespace's grants deduplicated by key and sorted, as evidence.
  const names = ['n0', 'n1', 'n2', 'n3'];
  const pool = [User('alice'), User('bob'), Group('devs'), SA('n0', 'app'), SA('n1', 'app'), User('carol')];
  const grantKey = (g: WhoCanGrant) => `${g.binding.kind}/${g.binding.namespace ?? ''}/${g.binding.name}/${g.role.kind}/${g.role.name}/${g.ruleIndex}`;
  let several = 0;
  let classFindings = 0;
  for (let seed = 0; seed < 30; seed++) {
    it(`seed ${seed}`, () => {
      const r = createRandom(2800 + seed);
      const objects = names.flatMap((n) =>
        randomClaimsAndTemplates(r, () => 'a', 4, 2).map((o) => ({ ...o, metadata: { ...o.metadata, namespace: n } }) as ResourceClaim | ResourceClaimTemplate),
      );
      const rules = () =>
        Array.from({ length: 1 + r.int(3) }, () => ({
          verbs: ['create'],
          apiGroups: ['resource.k8s.io'],
          resources: [r.pick(['resourceclaims', 'resourceclaimtemplates', '*'])],
        }));
      const roles = names.flatMap((n) => [role(n, 'claims', rules()), role(n, 'more', rules())]);
      const clusterRoles = [clusterRole('creator', rules())];
      const roleBindings = Array.from({ length: r.int(10) }, (_, i) =>
        rb(
          r.pick(names),
          `b${i}`,
          r.chance(0.3) ? { kind: 'ClusterRole', name: 'creator' } : { kind: 'Role', name: r.pick(['claims', 'more']) },
          Array.from({ length: 1 + r.int(3) }, () => r.pick(pool)),
        ),
      );
      const s = stateOf({
        namespaces: names.map((n) => ns(n)),
        resourceClaims: objects.filter((o): o is ResourceClaim => o.kind === 'ResourceClaim'),
        resourceClaimTemplates: objects.filter((o): o is ResourceClaimTemplate => o.kind === 'ResourceClaimTemplate'),
        roles,
        clusterRoles,
        roleBindings,
      });
      const c = buildAnalysisContext(s, createAuthzEngine(s), DEFAULT_SETTINGS);
      const expected = names.flatMap((n) => {
        const here = claimRequestsByNamespace(s).get(n)?.objects ?? [];
        const creators = [...c.access.grantedInNamespace(Q.claimCreate, n), ...c.access.grantedInNamespace(Q.templateCreate, n)].filter(
          (e) => e.via === 'rbac' && !c.isAdminEquivalent(e.subject) && !c.isSystemIdentity(e.subject),
        );
        if (here.length === 0 && creators.length === 0) return [];
        const subjects = sortSubjects(creators.map((e) => e.subject));
        const claims = here.filter((o) => o.kind === 'ResourceClaim').length;
        const plural = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
        const parts = [
          ...(here.length > 0 ? [`has ${plural(claims, 'ResourceClaim')} and ${plural(here.length - claims, 'ResourceClaimTemplate')}`] : []),
          ...(subjects.length > 0 ? [`lets ${list(subjects.map(describeSubject))} create them`] : []),
        ];
        const message = `Tenant namespace ${n} ${parts.join(', and ')}, but no ResourceQuota limits count/resourceclaims.resource.k8s.io: the tenant can create claims (and pin devices) without bound.`;
        const grants = new Map(
          creators.flatMap((e) => e.grants.filter((g) => g.binding.kind === 'RoleBinding' && g.binding.namespace === n)).map((g) => [grantKey(g), g]),
        );
        if (subjects.length > 1 && grants.size > 1) several++;
        const sorted = [...grants.keys()].sort().map((k) => grants.get(k)!);
        const remediation = `Add a ResourceQuota in ${n} that limits the number of claims (and the devices per DeviceClass):\n${quotaYaml(n, { 'count/resourceclaims.resource.k8s.io': '10' })}`;
        return [{ message, evidence: cappedWithFields(grantsEvidence(c, sorted), here, n), remediation }];
      });
      expect(quota001.run(c).map((d) => ({ message: d.message, evidence: d.evidence, remediation: d.remediation }))).toEqual(expected);
      // QUOTA002, asked next of the same analysis, writes its manifests with the heads QUOTA001 wrote.
      for (const d of quota002.run(c)) {
        const [namespace, cls] = d.objects.map((o) => o.name);
        expect(d.remediation.endsWith(`:\n${quotaYaml(namespace, { [`${cls}.deviceclass.resource.k8s.io/devices`]: '4' })}`)).toBe(true);
        classFindings++;
      }
    });
  }
  it('met namespaces with several creators and grants, and QUOTA002 findings', () => {
    expect(several).toBeGreaterThan(10);
    expect(classFindings).toBeGreaterThan(30);
  });
});
