import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { simulateWrite } from '@/lib/authz/simulate-write';
import { Group, node, rb, res, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { UserInfo } from '@/lib/authz/types';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { DeviceClass, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { claim, namespace } from '@/lib/analysis/__fixtures__/builders';
import type { Issue } from '@/lib/analysis/types';
import { buildReport } from '@/lib/report/build-report';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { compareStrings } from '@/lib/k8s/refs';
import type { DeviceRequest, ResourceClaim, ResourceClaimTemplate } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { compareObjectText, refusedToday } from './propose-claim-guard';

// CLAIM004's fix: a ValidatingAdmissionPolicy and binding for the tenant namespaces. Judged by a fresh
// engine's write simulation on the cluster with the objects added (the API server's chain: RBAC, the
// adminAccess namespace label, ValidatingAdmissionPolicies), from Kubernetes semantics: a bound Deny
// policy refuses what a validation rejects for the requests its rules and the binding's
// namespaceSelector match; every namespace carries kubernetes.io/metadata.name; adminAccess needs the
// namespace's resource.kubernetes.io/admin-access label.

const DRA = 'resource.k8s.io';
const ZEROED = 'gpu-isolated.example.com';
const SHARED = 'gpu-shared.example.com';
const ADMIN_LABEL = { 'resource.kubernetes.io/admin-access': 'true' };

function deviceClass(name: string, zeroed: boolean): DeviceClass {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name, ...(zeroed ? { annotations: { 'dra-posture.io/zero-on-release': 'true' } } : {}) },
    spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
  } as DeviceClass;
}

const state = stateOf({
  namespaces: [namespace('tenant-a', ADMIN_LABEL), namespace('monitoring', { ...ADMIN_LABEL, 'dra-posture.io/role': 'platform' })],
  nodes: [node('worker-1')],
  deviceClasses: [deviceClass(ZEROED, true), deviceClass(SHARED, false)],
  resourceClaims: [claim('tenant-a', 'work', [{ name: 'r', exactly: { deviceClassName: SHARED } }])],
  roleBindings: [
    rb('tenant-a', 'devs-edit', { kind: 'ClusterRole', name: 'edit' }, [Group('devs')]),
    rb('monitoring', 'ops-edit', { kind: 'ClusterRole', name: 'edit' }, [Group('ops')]),
  ],
  clusterRoles: [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'edit' },
      rules: [{ apiGroups: [DRA], resources: ['resourceclaims', 'resourceclaimtemplates'], verbs: ['create', 'get', 'list'] }],
    },
  ],
});

function issueOf(s: ClusterState): Issue {
  const issues = buildReport(s).issues.filter((i) => i.check === 'CLAIM004');
  expect(issues).toHaveLength(1);
  return issues[0];
}

function applied(s: ClusterState, issue: Issue): ClusterState {
  const objects = issue.fix!.changes.map((c) => (c.action === 'create' ? c.object : undefined));
  return {
    ...s,
    validatingAdmissionPolicies: [
      ...s.validatingAdmissionPolicies,
      ...(objects.filter((o) => o?.kind === 'ValidatingAdmissionPolicy') as unknown as ValidatingAdmissionPolicy[]),
    ],
    validatingAdmissionPolicyBindings: [
      ...s.validatingAdmissionPolicyBindings,
      ...(objects.filter((o) => o?.kind === 'ValidatingAdmissionPolicyBinding') as unknown as ValidatingAdmissionPolicyBinding[]),
    ],
  };
}

type Request = { deviceClassName: string; adminAccess?: boolean; firstAvailable?: string[] };

function create(s: ClusterState, user: UserInfo, ns: string, kind: 'ResourceClaim' | 'ResourceClaimTemplate', r: Request) {
  const request = r.firstAvailable
    ? { name: 'r', firstAvailable: r.firstAvailable.map((c, i) => ({ name: `s${i}`, deviceClassName: c })) }
    : { name: 'r', exactly: { deviceClassName: r.deviceClassName, ...(r.adminAccess ? { adminAccess: true } : {}) } };
  const claimSpec = { devices: { requests: [request] } };
  const object = {
    apiVersion: 'resource.k8s.io/v1',
    kind,
    metadata: { name: 'x', namespace: ns },
    spec: kind === 'ResourceClaim' ? claimSpec : { spec: claimSpec },
  };
  const resource = kind === 'ResourceClaim' ? 'resourceclaims' : 'resourceclaimtemplates';
  return simulateWrite(createAuthzEngine(s), { user, attributes: res('create', DRA, resource, { namespace: ns }), object }).allowed;
}

const dev: UserInfo = { name: 'dev', groups: ['devs'] };
const ops: UserInfo = { name: 'ops', groups: ['ops'] };

describe('CLAIM004: a policy that allows tenants only zeroed classes and no adminAccess', () => {
  const issue = issueOf(state);
  const after = applied(state, issue);

  it('is verified and adds one policy and one Deny binding, nothing else', () => {
    expect(issue.fix!.status).toBe('verified');
    expect(issue.fix!.changes.map((c) => (c.action === 'create' ? c.object.kind : c.action))).toEqual([
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionPolicyBinding',
    ]);
    expect(issue.remediation).toContain(`allowed: ${ZEROED}`);
  });

  it('before it, a tenant creates claims of the shared class and with adminAccess', () => {
    expect(create(state, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: SHARED })).toBe(true);
    expect(create(state, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: ZEROED, adminAccess: true })).toBe(true);
  });

  it('after it, a tenant’s claim or template of a class without zeroing, or with adminAccess, is refused', () => {
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: SHARED })).toBe(false);
    expect(create(after, dev, 'tenant-a', 'ResourceClaimTemplate', { deviceClassName: SHARED })).toBe(false);
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: ZEROED, adminAccess: true })).toBe(false);
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: '', firstAvailable: [ZEROED, SHARED] })).toBe(false);
  });

  it('a tenant’s claim of the zeroed class is still accepted, and the platform namespace keeps adminAccess', () => {
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: ZEROED })).toBe(true);
    expect(create(after, dev, 'tenant-a', 'ResourceClaimTemplate', { deviceClassName: '', firstAvailable: [ZEROED] })).toBe(true);
    expect(create(after, ops, 'monitoring', 'ResourceClaim', { deviceClassName: SHARED, adminAccess: true })).toBe(true);
  });

  it('CLAIM004 no longer fires, and its probes are the writes that decide it', () => {
    expect(buildReport(after).issues.some((i) => i.check === 'CLAIM004')).toBe(false);
    const probes = issue.fix!.probes.map((p) => `${p.expect} ${p.write?.object.kind}`);
    expect(probes).toContain('allowed ResourceClaim');
    expect(probes.filter((p) => p === 'denied ResourceClaim')).toHaveLength(2);
  });

  it('names the claims of today the allow-list would refuse if made again', () => {
    expect(issue.fix!.reason).toContain('ResourceClaim tenant-a/work');
  });
});

describe('CLAIM004 without a zeroed class', () => {
  it('gives no fix: an allow-list of zeroed classes would refuse every tenant claim', () => {
    const issue = issueOf({ ...state, deviceClasses: [deviceClass(SHARED, false)] });
    expect(issue.fix!.status).toBe('none');
    expect(issue.fix!.changes).toEqual([]);
    expect(issue.remediation).toMatch(/^No safe automatic fix: every DeviceClass is an accelerator without a zeroing indicator/);
  });
});

// Classes of drivers that hand out no device memory (accelerators.ts NOT_ACCELERATOR_DRIVERS: NVIDIA
// ComputeDomain channels, dranet NICs) have nothing for zeroing to clear. The NVIDIA ComputeDomain
// controller creates a ResourceClaimTemplate of its channel class in the workload's own (tenant)
// namespace, so a guard without that class would refuse it and break every multi-node job.
function driverClass(name: string, driver: string): DeviceClass {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name },
    spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
  } as DeviceClass;
}
const CHANNEL = 'compute-domain-default-channel.nvidia.com';
const NIC = 'dranet';

describe('CLAIM004 with classes that are not accelerators', () => {
  const withChannels = { ...state, deviceClasses: [...state.deviceClasses, driverClass(CHANNEL, 'compute-domain.nvidia.com')] };
  const issue = issueOf(withChannels);
  const after = applied(withChannels, issue);

  it('allows the ComputeDomain channel class beside the zeroed one, and still refuses the shared accelerator', () => {
    expect(issue.fix!.status).toBe('verified');
    expect(issue.remediation).toContain(`allowed: ${CHANNEL} and ${ZEROED}`);
    expect(create(after, dev, 'tenant-a', 'ResourceClaimTemplate', { deviceClassName: CHANNEL })).toBe(true);
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: ZEROED })).toBe(true);
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: SHARED })).toBe(false);
    expect(create(after, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: CHANNEL, adminAccess: true })).toBe(false);
  });

  it('a cluster of NICs only gets a guard against adminAccess that keeps its NIC claims', () => {
    const nics = { ...state, deviceClasses: [driverClass(NIC, 'dra.net')], resourceClaims: [] };
    const nicIssue = issueOf(nics);
    expect(nicIssue.fix!.status).toBe('verified');
    const guarded = applied(nics, nicIssue);
    expect(create(guarded, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: NIC })).toBe(true);
    expect(create(guarded, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: NIC, adminAccess: true })).toBe(false);
    expect(create(nics, dev, 'tenant-a', 'ResourceClaim', { deviceClassName: NIC, adminAccess: true })).toBe(true);
  });
});

describe('the claims of today the guard would refuse, on random claims and templates', () => {
  // The plain reading, from the policy's CEL: a tenant object is refused when a request sets
  // adminAccess, or names a class off the list in exactly (when set) or in any firstAvailable
  // subrequest; all of them sorted by "Kind namespace/name", the first `max` shown.
  function plain(claims: ResourceClaim[], templates: ResourceClaimTemplate[], tenant: (ns: string) => boolean, allowed: Set<string>, max: number) {
    const refused = (requests: DeviceRequest[] | undefined) =>
      (requests ?? []).some((r) =>
        r.exactly
          ? r.exactly.adminAccess === true || !allowed.has(r.exactly.deviceClassName)
          : (r.firstAvailable ?? []).some((s) => !allowed.has(s.deviceClassName)),
      );
    const texts = [
      ...templates.filter((t) => refused(t.spec?.spec?.devices?.requests)).map((t) => ({ kind: t.kind, metadata: t.metadata })),
      ...claims.filter((c) => refused(c.spec?.devices?.requests)).map((c) => ({ kind: c.kind, metadata: c.metadata })),
    ]
      .filter((o) => tenant(o.metadata.namespace ?? ''))
      .map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)
      .sort(compareStrings);
    return { first: texts.slice(0, max), count: texts.length };
  }

  it('finds the same claims, count and first ones as the plain reading', () => {
    const CLASSES = ['a', 'b', 'gpu.example.com', ''];
    let refusedSeen = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const r = createRandom(seed);
      const cls = () => r.pick(CLASSES);
      const requests = (): DeviceRequest[] =>
        Array.from({ length: r.int(3) }, (_, j): DeviceRequest => {
          const exactly = { deviceClassName: cls(), ...(r.chance(0.2) ? { adminAccess: r.chance(0.5) } : {}) };
          const firstAvailable = Array.from({ length: r.int(3) }, (_, k) => ({ name: `s${k}`, deviceClassName: cls() }));
          // exactly, firstAvailable, both (invalid: exactly decides) or neither (invalid: refuses nothing).
          const pick = r.int(4);
          return { name: `r${j}`, ...(pick === 0 || pick === 2 ? { exactly } : {}), ...(pick >= 1 && pick <= 2 ? { firstAvailable } : {}) } as DeviceRequest;
        });
      const claims: ResourceClaim[] = [];
      const templates: ResourceClaimTemplate[] = [];
      for (let i = 0; i < 30; i++) {
        const metadata = { name: `o${r.int(40)}`, namespace: r.chance(0.05) ? undefined : `ns-${r.int(5)}` };
        if (r.chance(0.3))
          templates.push({
            apiVersion: 'resource.k8s.io/v1',
            kind: 'ResourceClaimTemplate',
            metadata,
            spec: r.chance(0.1) ? ({} as ResourceClaimTemplate['spec']) : { spec: { devices: { requests: requests() } } },
          });
        else
          claims.push({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata, spec: r.chance(0.1) ? {} : { devices: { requests: requests() } } });
      }
      const tenants = new Set(['ns-0', 'ns-1', 'ns-2', 'ns-3'].filter(() => r.chance(0.7)));
      const tenant = (ns: string) => tenants.has(ns);
      const allowed = new Set(CLASSES.filter(() => r.chance(0.5)));
      const max = 1 + r.int(6);
      const ctx = { state: { resourceClaims: claims, resourceClaimTemplates: templates }, isTenantNamespace: tenant } as unknown as AnalysisContext;
      const expected = plain(claims, templates, tenant, allowed, max);
      expect(refusedToday(ctx, allowed, max), `seed ${seed}`).toEqual(expected);
      refusedSeen += expected.count;
    }
    // The random input exercised the refusals, not only empty answers.
    expect(refusedSeen).toBeGreaterThan(100);
  });
});

// refusedToday compares an object's text with the last of the first ones before writing it.
describe('compareObjectText', () => {
  it('orders as compareStrings of the written text', () => {
    const r = createRandom(4242);
    // Short strings over a few characters (one below ' ' and '/'): many are prefixes of others.
    const str = () => Array.from({ length: r.int(4) }, () => r.pick(['a', 'b', ' ', '/', '-', '\u00e9', '\t'])).join('');
    const seen = [0, 0, 0];
    for (let i = 0; i < 20_000; i++) {
      const [kind, ns, name] = [r.pick(['ResourceClaim', 'ResourceClaimTemplate', str()]), str(), str()];
      const written = `${kind} ${ns}/${name}`;
      // Against texts close to it: itself, a prefix, a longer one, one character changed, or another.
      const text = r.pick([
        written,
        written.slice(0, r.int(written.length + 1)),
        written + str(),
        written.slice(0, r.int(written.length)) + str(),
        `${r.pick(['ResourceClaim', str()])} ${str()}/${str()}`,
      ]);
      const expected = compareStrings(written, text);
      seen[expected + 1]++;
      expect(compareObjectText(kind, ns, name, text), JSON.stringify([kind, ns, name, text])).toBe(expected);
    }
    for (const n of seen) expect(n).toBeGreaterThan(2_000);
  });
});
