import { describe, expect, it } from 'vitest';
import type { PolicyRule } from '@/lib/k8s/types';
import { buildBundle, BuildInputError } from './build-bundle';
import { checkInput } from './check-input';
import { GOLDEN_INPUTS } from './golden-inputs';
import { PERSONAS } from './personas/registry';
import { PERSONA_IDS, type BuildInput } from './types';

const rulesOf = (input: BuildInput, kind: 'ClusterRole' | 'Role'): PolicyRule[] =>
  buildBundle(input)
    .objects.filter((o) => o.object.kind === kind)
    .flatMap((o) => (o.object as unknown as { rules: PolicyRule[] }).rules);

describe('buildBundle', () => {
  it('has one persona per required id, registered under its own id', () => {
    expect(Object.keys(PERSONAS).sort()).toEqual([...PERSONA_IDS].sort());
    for (const id of PERSONA_IDS) expect(PERSONAS[id].id).toBe(id);
  });

  it('never emits a wildcard, and every rule carries a reason', () => {
    for (const id of PERSONA_IDS) {
      for (const o of buildBundle(GOLDEN_INPUTS[id]).objects) {
        const rules = (o.object as { rules?: PolicyRule[] }).rules;
        if (!rules) continue;
        expect(o.rules?.length, `${id} ${o.object.kind}`).toBe(rules.length);
        for (const r of rules) for (const v of [...r.verbs, ...(r.apiGroups ?? []), ...(r.resources ?? [])]) expect(v, id).not.toContain('*');
        for (const r of o.rules ?? []) expect(r.reason.length).toBeGreaterThan(10);
      }
    }
  });

  it('node-local-driver: associated-node verbs only, scoped to the drivers, plus the node-pinning policy', () => {
    const input: BuildInput = { ...GOLDEN_INPUTS['node-local-driver'], drivers: ['gpu.example.com', 'net.example.com'] };
    const driverRules = rulesOf(input, 'ClusterRole').filter((r) => r.resources?.includes('resourceclaims/driver'));
    expect(driverRules).toEqual([
      {
        apiGroups: ['resource.k8s.io'],
        resources: ['resourceclaims/driver'],
        verbs: ['associated-node:update', 'associated-node:patch'],
        resourceNames: ['gpu.example.com', 'net.example.com'],
      },
    ]);
    const kinds = buildBundle(input).objects.map((o) => o.object.kind);
    expect(kinds).toEqual(['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);
    const vap = buildBundle(input).objects[3].object as unknown as { spec: { matchConditions: { expression: string }[]; variables: { expression: string }[] } };
    expect(vap.spec.matchConditions[0].expression).toBe('request.userInfo.username == "system:serviceaccount:dra-example-driver:example-kubelet-plugin"');
    expect(vap.spec.variables[0].expression).toContain("'authentication.kubernetes.io/node-name'");
  });

  it('multi-node-controller: arbitrary-node verbs scoped to the drivers', () => {
    const r = rulesOf(GOLDEN_INPUTS['multi-node-controller'], 'ClusterRole').find((x) => x.resources?.includes('resourceclaims/driver'));
    expect(r).toEqual({
      apiGroups: ['resource.k8s.io'],
      resources: ['resourceclaims/driver'],
      verbs: ['arbitrary-node:update', 'arbitrary-node:patch'],
      resourceNames: ['compute-domain.nvidia.com'],
    });
  });

  it('scheduler: resourceclaims/binding at cluster scope without resourceNames (checked with namespace "" and name "")', () => {
    const r = rulesOf(GOLDEN_INPUTS.scheduler, 'ClusterRole').find((x) => x.resources?.includes('resourceclaims/binding'));
    expect(r).toEqual({ apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'], verbs: ['update', 'patch'] });
    expect(rulesOf(GOLDEN_INPUTS.scheduler, 'Role')).toEqual([]);
  });

  it('node-readiness-reporter: the constrained impersonation pair, nothing else', () => {
    expect(rulesOf(GOLDEN_INPUTS['node-readiness-reporter'], 'ClusterRole')).toEqual([
      { apiGroups: ['authentication.k8s.io'], resources: ['nodes'], verbs: ['impersonate:associated-node'] },
      { apiGroups: [''], resources: ['nodes'], verbs: ['impersonate-on:associated-node:get'] },
      { apiGroups: [''], resources: ['nodes/status'], verbs: ['impersonate-on:associated-node:update'] },
    ]);
  });

  it('tenant: claims and templates in a Role of its namespace, DeviceClasses read-only through a ClusterRole', () => {
    const input: BuildInput = { persona: 'tenant', identity: { kind: 'Group', name: 'team-b' }, drivers: [], namespace: 'tenant-b' };
    const b = buildBundle(input);
    expect(b.objects.map((o) => `${o.object.kind}/${o.object.metadata.namespace ?? ''}`)).toEqual([
      'ClusterRole/',
      'ClusterRoleBinding/',
      'Role/tenant-b',
      'RoleBinding/tenant-b',
    ]);
    expect(rulesOf(input, 'ClusterRole')).toEqual([{ apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'], verbs: ['get', 'list', 'watch'] }]);
    expect(rulesOf(input, 'Role').flatMap((r) => r.resources)).toEqual(['resourceclaims', 'resourceclaimtemplates']);
  });

  it('auditor: read verbs only, never secrets or configmaps', () => {
    const rules = rulesOf(GOLDEN_INPUTS.auditor, 'ClusterRole');
    expect(new Set(rules.flatMap((r) => r.verbs))).toEqual(new Set(['get', 'list', 'watch']));
    expect(rules.flatMap((r) => r.resources)).not.toContain('secrets');
    expect(rules.flatMap((r) => r.resources)).not.toContain('configmaps');
  });

  it('creates the ServiceAccount only when it is new', () => {
    const existing = { ...GOLDEN_INPUTS.tenant, identity: { kind: 'ServiceAccount' as const, namespace: 'tenant-a', name: 'batch-runner', create: false } };
    expect(buildBundle(existing).objects.map((o) => o.object.kind)).not.toContain('ServiceAccount');
  });

  it('puts version notes only on bundles with 1.36 rules', () => {
    expect(buildBundle(GOLDEN_INPUTS['node-local-driver']).versionNotes.join(' ')).toContain('inert before Kubernetes 1.36');
    expect(buildBundle(GOLDEN_INPUTS['node-readiness-reporter']).versionNotes.join(' ')).toContain('constrained impersonation');
    expect(buildBundle(GOLDEN_INPUTS.tenant).versionNotes).toEqual([]);
  });
});

describe('checkInput', () => {
  it('names each problem and its field', () => {
    expect(checkInput({ persona: 'node-local-driver', identity: { kind: 'ServiceAccount', namespace: 'ns', name: 'sa', create: true }, drivers: [] })).toEqual([
      'drivers: the node-local-driver persona needs at least one driver name (e.g. gpu.example.com)',
    ]);
    expect(checkInput({ persona: 'node-readiness-reporter', identity: { kind: 'User', name: 'bob' }, drivers: [] })[0]).toMatch(
      /^identity: .*needs a ServiceAccount/,
    );
    expect(checkInput({ persona: 'tenant', identity: { kind: 'Group', name: 'team' }, drivers: [] })).toEqual([
      'namespace: the tenant persona needs a namespace for a Group',
    ]);
    expect(
      checkInput({ persona: 'auditor', identity: { kind: 'ServiceAccount', namespace: 'Bad_NS', name: 'sa', create: true }, drivers: ['not a driver'] }),
    ).toEqual([
      'identity.namespace: "Bad_NS" is not a valid namespace name',
      'drivers: "not a driver" is not a valid driver name (a DNS subdomain of at most 63 characters)',
    ]);
    expect(checkInput({ persona: 'auditor', identity: { kind: 'Group', name: 'system:masters' }, drivers: [] })).toEqual([
      'identity.name: refusing to bind group "system:masters"',
    ]);
    expect(checkInput({ persona: 'auditor', identity: { kind: 'User', name: 'eve\n---\nkind: ClusterRoleBinding' }, drivers: [] })).toEqual([
      'identity.name: a User name may not contain line breaks or control characters',
    ]);
    expect(checkInput({ persona: 'nope' as never, identity: { kind: 'Group', name: 'g' }, drivers: [] })).toEqual(['persona: unknown persona "nope"']);
  });

  it('buildBundle refuses bad input with the same problems', () => {
    expect(() => buildBundle({ persona: 'custom', identity: { kind: 'User', name: 'u' }, drivers: [] })).toThrow(BuildInputError);
  });
});
