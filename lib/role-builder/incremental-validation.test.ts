import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, pod, rb, role, SA, stateOf } from '@/lib/authz/__fixtures__/builders';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReportWithContext, type ReportBuild } from '@/lib/report/build-report';
import { smallCluster } from '@/lib/report/__fixtures__/small-cluster';
import { loadDemo } from '@/server/sources/demo-source';
import { parseDocuments } from '@/server/sources/parse-documents';
import { buildBundle } from './build-bundle';
import { checkInput } from './check-input';
import { GOLDEN_INPUTS } from './golden-inputs';
import { PERSONA_IDS, type BuildInput, type BuilderIdentity, type RoleBundle } from './types';
import { validateBundleWithPath } from './validate-bundle';

// The incremental validation (the current analysis, re-asking only the identity's questions) must
// answer exactly as the full one (a new analysis of the cluster with the bundle applied): the same
// operations, reasons, findings (ids, texts, "already today") and notes. Compared on the demo, the
// small report fixture, the real drivers' charts, and a fixture whose existing roles make the
// identity's findings depend on others (a shared role with DRA components of two namespaces, a
// wildcard role in a tenant namespace, grants to everyone).

function compare(state: ClusterState, analysis: ReportBuild, bundle: RoleBundle) {
  const fast = validateBundleWithPath(state, bundle, { analysis });
  const full = validateBundleWithPath(state, bundle, { baseline: analysis.report });
  expect(full.path.incremental).toBe(false);
  expect(fast.validation).toEqual(full.validation);
  return fast;
}

/** Every persona for one identity, with a namespace and drivers that exist in the cluster. */
function inputsFor(identity: BuilderIdentity, namespace: string, drivers: string[]): BuildInput[] {
  return PERSONA_IDS.map((persona) => {
    const golden = GOLDEN_INPUTS[persona];
    return {
      ...golden,
      identity,
      drivers: golden.drivers.length > 0 ? drivers : [],
      ...(golden.namespace ? { namespace } : {}),
    };
  });
}

/** The node-local driver's bundle without its node-scoped ResourceSlice policy. */
function withoutSlicePolicy(bundle: RoleBundle): RoleBundle {
  return { ...bundle, objects: bundle.objects.filter((o) => !o.object.kind.startsWith('ValidatingAdmissionPolicy')) };
}

function compareAll(state: ClusterState, analysis: ReportBuild, inputs: BuildInput[]): { incremental: number; total: number; findings: number } {
  let incremental = 0;
  let findings = 0;
  let total = 0;
  for (const input of inputs) {
    // Some personas need a service account (a kubelet plugin runs as one).
    if (checkInput(input).length > 0) continue;
    const bundle = buildBundle(input);
    const variants = input.persona === 'node-local-driver' ? [bundle, withoutSlicePolicy(bundle)] : [bundle];
    for (const b of variants) {
      const r = compare(state, analysis, b);
      total++;
      if (r.path.incremental) incremental++;
      findings += r.validation.findings.length;
    }
  }
  return { incremental, total, findings };
}

const sa = (namespace: string, name: string, create = true): BuilderIdentity => ({ kind: 'ServiceAccount', namespace, name, create });

describe('incremental validation on the demo', () => {
  let demo: ClusterState;
  let analysis: ReportBuild;
  beforeAll(async () => {
    demo = await loadDemo();
    analysis = buildReportWithContext(demo);
  });

  it('answers every persona as the full validation, for new service accounts of a platform and a tenant namespace, a user and a group', () => {
    const identities = [
      sa('dra-example-driver', 'new-plugin'),
      sa('tenant-a', 'rogue'),
      { kind: 'User' as const, name: 'dana' },
      { kind: 'Group' as const, name: 'dra-ops' },
    ];
    const counts = identities.map((id) => compareAll(demo, analysis, inputsFor(id, 'tenant-a', ['gpu.example.com'])));
    // Every one of these is answered from the current analysis: none runs pods or holds rules that reach other identities.
    expect(counts.map((c) => c.total - c.incremental)).toEqual([0, 0, 0, 0]);
    // The tenant identity's driver personas fire checks (DRA003, DRA005...): the findings are compared, not only their absence.
    expect(counts[1].findings).toBeGreaterThan(0);
  });

  it('answers the golden inputs as the full validation', () => {
    const { incremental, total } = compareAll(demo, analysis, Object.values(GOLDEN_INPUTS));
    expect(total).toBe(PERSONA_IDS.length + 1);
    expect(incremental).toBeGreaterThan(0);
  });

  it('analyses the whole cluster again for an identity that runs pods or holds admin rules, with the same answers', () => {
    // intel-gpu-sa runs the Intel plugin's pods and is bound to cluster-admin (DRA001).
    const input: BuildInput = { persona: 'node-local-driver', identity: sa('intel-gpu-resource-driver', 'intel-gpu-sa', false), drivers: ['gpu.intel.com'] };
    const r = compare(demo, analysis, buildBundle(input));
    expect(r.path).toMatchObject({ incremental: false });
    expect(r.path.incremental ? [] : r.path.reasons).toContain('the service account runs pods');
    expect(r.validation.findings.map((f) => f.check)).toContain('DRA001');
  });

  it('refuses to answer from an analysis of another cluster version', () => {
    const bundle = buildBundle(GOLDEN_INPUTS.tenant);
    const other = { ...demo, roles: [...demo.roles] };
    const r = validateBundleWithPath(other, bundle, { analysis });
    expect(r.path.incremental ? [] : r.path.reasons).toContain('the analysis is of another version of the cluster');
  });
});

describe('incremental validation on fixtures', () => {
  it('small report cluster', () => {
    const state = smallCluster();
    const analysis = buildReportWithContext(state);
    const counts = [sa('dra-example-driver', 'new-plugin'), sa('tenant-b', 'rogue'), { kind: 'User' as const, name: 'dana' }].map((id) =>
      compareAll(state, analysis, inputsFor(id, 'tenant-a', ['gpu.example.com'])),
    );
    expect(counts.reduce((n, c) => n + c.incremental, 0)).toBeGreaterThan(20);
    expect(counts[1].findings).toBeGreaterThan(0);
  });

  it('every real-driver fixture installed together', () => {
    const dir = join(import.meta.dirname, '..', 'analysis', '__fixtures__', 'real-drivers');
    const files = [join(import.meta.dirname, '..', '..', 'demo', 'manifests', '35-rbac-bootstrap.yaml'), ...readdirSync(dir).map((f) => join(dir, f))];
    const items = files.filter((f) => f.endsWith('.yaml')).flatMap((f) => parseDocuments(readFileSync(f), basename(f)));
    const state = buildClusterState(items, { kind: 'snapshot', name: 'real-drivers' }, { onInvalid: 'fail' });
    const analysis = buildReportWithContext(state);
    const platform = state.namespaces.map((n) => n.metadata.name).find((n) => n !== 'default' && !n.startsWith('kube-')) ?? 'kube-system';
    const counts = [sa(platform, 'new-plugin'), sa('default', 'rogue')].map((id) => compareAll(state, analysis, inputsFor(id, 'default', ['gpu.nvidia.com'])));
    expect(counts.reduce((n, c) => n + c.incremental, 0)).toBeGreaterThan(10);
  });

  it('an existing identity whose roles are shared with others (DRA009 recomputed, DRA002 kept, grants to everyone)', () => {
    const sliceWriter = clusterRole('shared-slice-writer', [{ verbs: ['create', 'update'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] }]);
    const reader = clusterRole('shared-reader', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] }]);
    const state = stateOf(
      {
        namespaces: ['driver-a', 'driver-b', 'ops', 'team-x'].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
        pods: [pod('driver-a', 'a-0', { nodeName: 'n1', serviceAccountName: 'a' })],
        nodes: [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }],
        clusterRoles: [
          sliceWriter,
          reader,
          clusterRole('everyone-reads-classes', [{ verbs: ['get', 'list'], apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'] }]),
        ],
        roles: [role('team-x', 'dra-everything', [{ verbs: ['get', 'list'], apiGroups: ['resource.k8s.io'], resources: ['*'] }])],
        clusterRoleBindings: [
          crb('components-write-slices', { kind: 'ClusterRole', name: 'shared-slice-writer' }, [SA('driver-a', 'a'), SA('driver-b', 'b')]),
          crb('components-read', { kind: 'ClusterRole', name: 'shared-reader' }, [SA('driver-a', 'a'), SA('driver-b', 'b'), SA('ops', 'helper')]),
          crb('everyone', { kind: 'ClusterRole', name: 'everyone-reads-classes' }, [Group('system:authenticated')]),
        ],
        roleBindings: [rb('team-x', 'helper-dra', { kind: 'Role', name: 'dra-everything' }, [SA('ops', 'helper')])],
      },
      'v1.36.1',
    );
    const analysis = buildReportWithContext(state);
    const helper = sa('ops', 'helper', false);
    // The driver controller persona makes ops/helper a DRA component: DRA009 on shared-reader now names it.
    const controller = compare(state, analysis, buildBundle({ persona: 'driver-controller', identity: helper, drivers: ['gpu.example.com'] }));
    expect(controller.path).toEqual({ incremental: true });
    const checks = controller.validation.findings.map((f) => `${f.check} ${f.alreadyToday ? 'today' : 'new'}`);
    expect(checks).toContain('DRA009 new');
    expect(checks).toContain('DRA002 today');
    const all = compareAll(state, analysis, inputsFor(helper, 'team-x', ['gpu.example.com']));
    expect(all.incremental).toBeGreaterThan(5);
  });
});
