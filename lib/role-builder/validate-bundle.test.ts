import { beforeAll, describe, expect, it } from 'vitest';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReport } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { buildBundle } from './build-bundle';
import { GOLDEN_INPUTS } from './golden-inputs';
import { reviewRole } from './review-role';
import { PERSONA_IDS, type RoleBundle } from './types';
import { validateBundle } from './validate-bundle';

let demo: ClusterState;
beforeAll(async () => {
  demo = await loadDemo();
});

const failing = (v: ReturnType<typeof validateBundle>) => [...v.intended, ...v.dangerous].filter((r) => !r.ok).map((r) => `${r.operation.label}: ${r.reason}`);

describe('validateBundle on the demo cluster', () => {
  for (const id of PERSONA_IDS) {
    it(`${id}: intended allowed, dangerous refused, no finding about the identity`, () => {
      const v = validateBundle(demo, buildBundle(GOLDEN_INPUTS[id]));
      expect(failing(v)).toEqual([]);
      expect(v.findings.map((f) => `${f.check} ${f.message}`)).toEqual([]);
      expect(v.intended.length).toBeGreaterThan(0);
      expect(v.dangerous.length).toBeGreaterThan(5);
      expect(v.ok).toBe(true);
    });
  }

  it('uses real names from the cluster for the example operations', () => {
    const v = validateBundle(demo, buildBundle(GOLDEN_INPUTS['node-local-driver']));
    expect(demo.nodes.map((n) => n.metadata.name)).toContain(v.context.node);
    expect(v.context.otherNode).not.toBe(v.context.node);
    expect(v.context.otherDriver).not.toBe('gpu.example.com');
  });

  it('reports an intended operation the bundle does not allow (a rule removed by hand)', () => {
    const bundle = buildBundle(GOLDEN_INPUTS['node-local-driver']);
    const cut: RoleBundle = {
      ...bundle,
      objects: bundle.objects.map((o) =>
        o.object.kind === 'ClusterRole'
          ? {
              ...o,
              object: { ...o.object, rules: (o.object.rules as { resources: string[] }[]).filter((r) => !r.resources.includes('resourceclaims/driver')) },
            }
          : o,
      ),
    };
    const v = validateBundle(demo, cut);
    expect(v.ok).toBe(false);
    expect(v.intended.filter((r) => !r.ok).map((r) => r.operation.label)).toEqual(['associated-node:update resourceclaims/driver for gpu.example.com']);
  });

  it('reports dangerous operations an existing over-privileged identity keeps, and the findings about it', () => {
    // intel-gpu-sa is bound to cluster-admin in the demo (DRA001).
    const input = {
      persona: 'node-local-driver' as const,
      identity: { kind: 'ServiceAccount' as const, namespace: 'intel-gpu-resource-driver', name: 'intel-gpu-sa', create: false },
      drivers: ['gpu.intel.com'],
    };
    const baseline = buildReport(demo);
    const v = validateBundle(demo, buildBundle(input), { baseline });
    expect(v.ok).toBe(false);
    const allowed = v.dangerous.filter((r) => r.allowed).map((r) => r.operation.label);
    expect(allowed).toContain('read Secrets in kube-system');
    expect(allowed).toContain('write status.allocation / reservedFor (resourceclaims/binding)');
    const dra001 = v.findings.find((f) => f.check === 'DRA001');
    expect(dra001?.alreadyToday).toBe(true);
  });

  it('flags a driver persona given to a tenant namespace identity (DRA003 fires for slice writers there)', () => {
    const input = {
      ...GOLDEN_INPUTS['driver-controller'],
      identity: { kind: 'ServiceAccount' as const, namespace: 'tenant-a', name: 'rogue-controller', create: true },
    };
    const v = validateBundle(demo, buildBundle(input));
    expect(v.findings.map((f) => f.check)).toContain('DRA003');
    expect(v.ok).toBe(false);
  });

  it('adds a scheduler to the allocator identities, and says so', () => {
    const v = validateBundle(demo, buildBundle(GOLDEN_INPUTS.scheduler));
    expect(v.notes.join(' ')).toContain('system:serviceaccount:kube-system:custom-allocator');
  });
});

describe('a bundle for a namespace the cluster does not have', () => {
  const tenantIn = (namespace: string) =>
    buildBundle({ persona: 'tenant', identity: { kind: 'ServiceAccount', namespace, name: 'runner', create: true }, drivers: [], namespace });

  it('says the API server would refuse its namespaced objects there, naming them', () => {
    expect(demo.namespaces.map((n) => n.metadata.name)).not.toContain('tenant-typo');
    const v = validateBundle(demo, tenantIn('tenant-typo'));
    const note = v.notes.find((n) => n.startsWith('Namespace tenant-typo does not exist'));
    expect(note).toBeDefined();
    for (const kind of ['ServiceAccount', 'Role', 'RoleBinding']) expect(note).toContain(kind);
    expect(note).toContain('namespaces "tenant-typo" not found');
  });

  it('says nothing for a namespace that exists, or when the source holds no Namespace objects', () => {
    const existing = demo.namespaces[0].metadata.name;
    expect(validateBundle(demo, tenantIn(existing)).notes.filter((n) => n.includes('does not exist'))).toEqual([]);
    const noNamespaces = { ...demo, namespaces: [] };
    expect(validateBundle(noNamespaces, tenantIn('tenant-typo')).notes.filter((n) => n.includes('does not exist'))).toEqual([]);
  });
});

describe('reviewRole', () => {
  it('does not create a service account that exists', () => {
    const r = reviewRole(demo, {
      persona: 'node-local-driver',
      identity: { kind: 'ServiceAccount', namespace: 'dra-example-driver', name: 'dra-example-driver-service-account', create: true },
      drivers: ['gpu.example.com'],
    });
    expect(r.identityExists).toBe(true);
    expect(r.bundle.objects.map((o) => o.object.kind)).not.toContain('ServiceAccount');
    expect(r.yamlSha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
