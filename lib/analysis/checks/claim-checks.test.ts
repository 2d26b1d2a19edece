import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, rb, role, SA, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { DeviceClass, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { claim, claimTemplate, contextOf, namespace } from '../__fixtures__/builders';
import type { Check } from './check-types';
import { claim001, claim002, claim003, claim004, claim005 } from './claim-checks';
import { ruleAllowsResource } from '@/lib/authz/rule-matches';
import { createRandom } from '@/scripts/bench/prng';

type Parts = Partial<Omit<ClusterState, 'source' | 'warnings'>>;

const run = (check: Check, parts: Parts) => {
  return check.run(contextOf(parts));
};

const ADMIN = 'resource.kubernetes.io/admin-access';
const namespaces = [
  namespace('kube-system', { 'resource.k8s.io/admin-access': 'true' }),
  namespace('platform', { 'dra-posture.io/role': 'platform', [ADMIN]: 'true' }),
  namespace('tenant-a', { 'dra-posture.io/role': 'tenant' }),
  namespace('tenant-b', { 'dra-posture.io/role': 'tenant', [ADMIN]: 'false' }),
  namespace('tenant-c', { 'dra-posture.io/role': 'tenant', [ADMIN]: 'true' }),
];
const adminAll = [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All', adminAccess: true } }];

describe('CLAIM001', () => {
  it('fires for a tenant namespace labelled admin-access=true', () => {
    const out = run(claim001, { namespaces, resourceClaimTemplates: [claimTemplate('tenant-c', 'debug-all', adminAll)] });
    expect(out).toStrictEqual([
      {
        subjects: [],
        objects: [{ kind: 'Namespace', name: 'tenant-c' }],
        message:
          'Tenant namespace tenant-c is labelled resource.kubernetes.io/admin-access="true": anyone who can create ResourceClaims or ResourceClaimTemplates in it can request adminAccess, which the scheduler does not count as a device use, so the claim can reach devices already allocated to other tenants (in use by ResourceClaimTemplate tenant-c/debug-all).',
        evidence: [
          {
            type: 'field',
            object: { kind: 'Namespace', name: 'tenant-c' },
            path: 'metadata.labels["resource.kubernetes.io/admin-access"]',
            value: 'true',
          },
        ],
        remediation:
          'Remove the label: kubectl label namespace tenant-c resource.kubernetes.io/admin-access- and run monitoring that needs adminAccess from a platform namespace. If tenant-c really is a platform namespace, label it dra-posture.io/role=platform. Restrict who can update/patch Namespace objects (see CLAIM003).',
      },
    ]);
  });
  it('does not fire for a platform namespace, the value "false", or the legacy key', () => {
    const out = run(claim001, { namespaces: namespaces.filter((n) => n.metadata.name !== 'tenant-c') });
    expect(out).toStrictEqual([]);
  });
});

describe('CLAIM002', () => {
  it('fires for a tenant template and the claim generated from it', () => {
    const generated = claim('tenant-c', 'debug-gpus-5c8wq', adminAll, {
      annotations: { 'resource.kubernetes.io/pod-claim-name': 'gpus' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'debug', controller: true }],
    });
    generated.status = {
      allocation: {
        devices: {
          results: [
            { request: 'gpus', driver: 'gpu.nvidia.com', pool: 'gpu-h100-01', device: 'gpu-0', adminAccess: true },
            { request: 'gpus', driver: 'gpu.nvidia.com', pool: 'gpu-h100-01', device: 'gpu-1', adminAccess: true },
          ],
        },
      },
    };
    const out = run(claim002, { namespaces, resourceClaimTemplates: [claimTemplate('tenant-c', 'debug-all', adminAll)], resourceClaims: [generated] });
    expect(out).toStrictEqual([
      {
        subjects: [],
        objects: [{ kind: 'ResourceClaimTemplate', namespace: 'tenant-c', name: 'debug-all' }],
        message:
          "ResourceClaimTemplate tenant-c/debug-all in tenant namespace tenant-c requests adminAccess for request gpus (DeviceClass gpu.nvidia.com, allocationMode All). Admin-access claims are ignored by the scheduler's in-use accounting and can reach devices already allocated to other tenants (the namespace carries resource.kubernetes.io/admin-access=true, so the API server admits it).",
        evidence: [
          {
            type: 'field',
            object: { kind: 'ResourceClaimTemplate', namespace: 'tenant-c', name: 'debug-all' },
            path: 'spec.spec.devices.requests[0].exactly.adminAccess',
            value: true,
          },
        ],
        remediation:
          'Remove adminAccess from ResourceClaimTemplate tenant-c/debug-all (or delete it) and run device monitoring that needs admin access from a platform namespace; guard claim creation with a ValidatingAdmissionPolicy that rejects adminAccess outside platform namespaces (see CLAIM004).',
      },
      {
        subjects: [],
        objects: [{ kind: 'ResourceClaim', namespace: 'tenant-c', name: 'debug-gpus-5c8wq' }],
        message:
          "ResourceClaim tenant-c/debug-gpus-5c8wq (generated for Pod tenant-c/debug) in tenant namespace tenant-c requests adminAccess for request gpus (DeviceClass gpu.nvidia.com, allocationMode All). Admin-access claims are ignored by the scheduler's in-use accounting and can reach devices already allocated to other tenants (the namespace carries resource.kubernetes.io/admin-access=true, so the API server admits it). It is allocated with admin access to 2 devices: gpu.nvidia.com/gpu-h100-01/gpu-0, gpu.nvidia.com/gpu-h100-01/gpu-1.",
        evidence: [
          {
            type: 'field',
            object: { kind: 'ResourceClaim', namespace: 'tenant-c', name: 'debug-gpus-5c8wq' },
            path: 'spec.devices.requests[0].exactly.adminAccess',
            value: true,
          },
        ],
        remediation:
          'Remove adminAccess from ResourceClaim tenant-c/debug-gpus-5c8wq (or delete it) and run device monitoring that needs admin access from a platform namespace; guard claim creation with a ValidatingAdmissionPolicy that rejects adminAccess outside platform namespaces (see CLAIM004).',
      },
    ]);
  });
  it('does not fire for admin access in a platform namespace or ordinary tenant claims', () => {
    const out = run(claim002, {
      namespaces,
      resourceClaimTemplates: [claimTemplate('platform', 'dcgm-admin', adminAll)],
      resourceClaims: [
        claim('tenant-a', 'mig-pool', [{ name: 'gpu', firstAvailable: [{ name: 'mig', deviceClassName: 'mig.nvidia.com', count: 2 }] }]),
        claim('tenant-b', 'shared-gpu', [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', adminAccess: false } }]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

const edit = clusterRole('edit', [
  { verbs: ['create', 'delete', 'patch', 'update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims', 'resourceclaimtemplates'] },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['namespaces'] },
]);

describe('CLAIM003', () => {
  it('fires for a tenant group that can patch its own Namespace through a resourceNames-scoped Role', () => {
    const out = run(claim003, {
      namespaces,
      clusterRoles: [edit],
      roles: [role('tenant-c', 'self-ns-labeler', [{ verbs: ['get', 'patch'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['tenant-c'] }])],
      roleBindings: [
        rb('tenant-c', 'self-ns-labeler', { kind: 'Role', name: 'self-ns-labeler' }, [Group('tenant-c-devs')]),
        rb('tenant-c', 'tenant-c-devs-edit', { kind: 'ClusterRole', name: 'edit' }, [Group('tenant-c-devs')]),
      ],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'Group', name: 'tenant-c-devs' }],
        objects: [
          { kind: 'Namespace', name: 'tenant-c' },
          { kind: 'Role', namespace: 'tenant-c', name: 'self-ns-labeler' },
          { kind: 'RoleBinding', namespace: 'tenant-c', name: 'self-ns-labeler' },
        ],
        message:
          'Group tenant-c-devs, an identity of tenant namespace tenant-c, can patch Namespace tenant-c through RoleBinding tenant-c/self-ns-labeler → Role tenant-c/self-ns-labeler rule #0 (verbs [get, patch], apiGroups [""], resources [namespaces], resourceNames [tenant-c]). It can set resource.kubernetes.io/admin-access=true on its own namespace, after which it (and every other claim creator there) can request adminAccess to devices in use by other tenants (kubernetes/kubernetes#141293).',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'RoleBinding', namespace: 'tenant-c', name: 'self-ns-labeler' },
            role: { kind: 'Role', namespace: 'tenant-c', name: 'self-ns-labeler' },
            ruleIndex: 0,
            rule: { verbs: ['get', 'patch'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['tenant-c'] },
          },
        ],
        remediation:
          "Remove update/patch on namespaces from Role tenant-c/self-ns-labeler rule #0 (tenants rarely need to edit their Namespace object). If self-service labelling is required, block the admin-access label for everyone but platform administrators:\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: protect-dra-admin-access-label\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules:\n    - apiGroups: [\"\"]\n      apiVersions: [v1]\n      operations: [CREATE, UPDATE]\n      resources: [namespaces]\n  matchConditions:\n  - name: not-platform-admin\n    expression: \"!('system:masters' in request.userInfo.groups)\"\n  validations:\n  - expression: \"(has(object.metadata.labels) && 'resource.kubernetes.io/admin-access' in object.metadata.labels ? object.metadata.labels['resource.kubernetes.io/admin-access'] : '') == (oldObject != null && has(oldObject.metadata.labels) && 'resource.kubernetes.io/admin-access' in oldObject.metadata.labels ? oldObject.metadata.labels['resource.kubernetes.io/admin-access'] : '')\"\n    message: \"only platform administrators may change resource.kubernetes.io/admin-access\"\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: protect-dra-admin-access-label\nspec:\n  policyName: protect-dra-admin-access-label\n  validationActions: [Deny]",
      },
    ]);
  });
  it('does not fire for read-only namespace access, a platform operator, or a Role naming another namespace', () => {
    const out = run(claim003, {
      namespaces: [...namespaces, namespace('gpu-operator', { 'dra-posture.io/role': 'platform' })],
      clusterRoles: [edit, clusterRole('ns-writer', [{ verbs: ['update', 'patch'], apiGroups: [''], resources: ['namespaces'] }])],
      roles: [role('tenant-a', 'other-ns', [{ verbs: ['patch'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['tenant-b'] }])],
      roleBindings: [
        rb('tenant-a', 'alice-edit', { kind: 'ClusterRole', name: 'edit' }, [User('alice')]),
        rb('tenant-a', 'other-ns', { kind: 'Role', name: 'other-ns' }, [User('alice')]),
      ],
      clusterRoleBindings: [crb('gpu-operator', { kind: 'ClusterRole', name: 'ns-writer' }, [SA('gpu-operator', 'gpu-operator')])],
    });
    expect(out).toStrictEqual([]);
  });
});

const deviceClass: DeviceClass = { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu.example.com' } };
// A v1 guard: refuses adminAccess and every class outside `allowed` (written as a platform team would).
const V1_GUARD = [
  { expression: '!variables.requests.exists(r, has(r.exactly) && has(r.exactly.adminAccess) && r.exactly.adminAccess)', message: 'adminAccess is reserved' },
  {
    expression:
      'variables.requests.all(r, has(r.exactly) ? r.exactly.deviceClassName in variables.allowed : r.firstAvailable.all(s, s.deviceClassName in variables.allowed))',
  },
];
const vap = (
  name: string,
  resources: string[],
  operations = ['CREATE', 'UPDATE'],
  validations: { expression: string; message?: string }[] = V1_GUARD,
  allowed: string[] = [],
): ValidatingAdmissionPolicy => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name },
  spec: {
    matchConstraints: { resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['*'], operations, resources }] },
    variables: [
      { name: 'spec', expression: "object.kind == 'ResourceClaimTemplate' ? object.spec.spec : object.spec" },
      { name: 'requests', expression: 'has(variables.spec.devices) && has(variables.spec.devices.requests) ? variables.spec.devices.requests : []' },
      { name: 'allowed', expression: JSON.stringify(allowed) },
    ],
    validations,
  },
});
const vapBinding = (name: string, policyName: string, actions: string[]): ValidatingAdmissionPolicyBinding => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name },
  spec: { policyName, validationActions: actions },
});

describe('CLAIM004', () => {
  it('fires for resourceclaimtemplates when their policy is unbound (claims are covered)', () => {
    const out = run(claim004, {
      deviceClasses: [deviceClass],
      validatingAdmissionPolicies: [vap('dra-claim-guard', ['resourceclaims']), vap('dra-claimtemplate-guard', ['resourceclaimtemplates'])],
      validatingAdmissionPolicyBindings: [vapBinding('dra-claim-guard', 'dra-claim-guard', ['Deny'])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [],
        objects: [{ kind: 'ValidatingAdmissionPolicy', name: 'dra-claimtemplate-guard' }],
        message:
          'No ValidatingAdmissionPolicy bound with validationActions Deny covers CREATE of resourceclaimtemplates (resource.k8s.io). Any identity that can create claims can pick any DeviceClass (1 in the cluster) and, in a namespace with resource.kubernetes.io/admin-access=true, request adminAccess.',
        evidence: [
          {
            type: 'note',
            text: 'ValidatingAdmissionPolicy dra-claimtemplate-guard covers CREATE of resourceclaimtemplates but no ValidatingAdmissionPolicyBinding references it.',
          },
        ],
        remediation:
          'Bind the existing policy dra-claimtemplate-guard with validationActions [Deny], limited to tenant namespaces:\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: dra-claimtemplate-guard\nspec:\n  policyName: dra-claimtemplate-guard\n  validationActions: [Deny]\n  matchResources:\n    namespaceSelector:\n      matchExpressions:\n      - key: dra-posture.io/role\n        operator: NotIn\n        values: [platform]\nOr add one policy for both resources that rejects adminAccess outside platform namespaces and allow-lists DeviceClasses whose devices are zeroed between tenants or are not accelerators (here every class is an accelerator without a zeroing indicator, so the list is empty until one has one; edit the list per tenant):\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata:\n  name: dra-claim-guard\nspec:\n  failurePolicy: Fail\n  matchConstraints:\n    resourceRules:\n    - apiGroups: [resource.k8s.io]\n      apiVersions: ["*"]\n      operations: [CREATE, UPDATE]\n      resources: [resourceclaims, resourceclaimtemplates]\n  variables:\n  - name: requests\n    expression: "object.kind == \'ResourceClaimTemplate\' ? (has(object.spec.spec.devices) && has(object.spec.spec.devices.requests) ? object.spec.spec.devices.requests : []) : (has(object.spec.devices) && has(object.spec.devices.requests) ? object.spec.devices.requests : [])"\n  validations:\n  - expression: "!variables.requests.exists(r, has(r.exactly) && has(r.exactly.adminAccess) && r.exactly.adminAccess)"\n    message: "adminAccess is reserved for platform namespaces"\n  - expression: "variables.requests.all(r, has(r.exactly) ? r.exactly.deviceClassName in [] : r.firstAvailable.all(s, s.deviceClassName in []))"\n    message: "this DeviceClass is not allowed in this namespace"\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: dra-claim-guard\nspec:\n  policyName: dra-claim-guard\n  validationActions: [Deny]\n  matchResources:\n    namespaceSelector:\n      matchExpressions:\n      - key: dra-posture.io/role\n        operator: NotIn\n        values: [platform]',
      },
    ]);
  });
  it('does not fire when a bound Deny policy covers both (wildcards count), or when DRA is not used', () => {
    const out = run(claim004, {
      deviceClasses: [deviceClass],
      validatingAdmissionPolicies: [vap('dra-guard', ['*'], ['*'])],
      validatingAdmissionPolicyBindings: [vapBinding('dra-guard', 'dra-guard', ['Deny', 'Audit'])],
    });
    expect(out).toStrictEqual([]);
    expect(run(claim004, { validatingAdmissionPolicies: [], validatingAdmissionPolicyBindings: [] })).toStrictEqual([]);
  });

  const zeroed: DeviceClass = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: 'zeroed.example.com', annotations: { 'dra-posture.io/zero-on-release': 'true' } },
  };
  const both = ['resourceclaims', 'resourceclaimtemplates'];

  it('fires for a bound policy written against pre-v1 fields: on a v1 claim r.adminAccess and r.deviceClassName are absent, so it refuses nothing', () => {
    const preV1 = vap(
      'old-guard',
      both,
      ['CREATE'],
      [
        { expression: 'variables.requests.all(r, !has(r.adminAccess) || !r.adminAccess)' },
        { expression: 'variables.requests.all(r, !has(r.deviceClassName) || r.deviceClassName in variables.allowed)' },
      ],
    );
    const out = run(claim004, {
      namespaces: [namespace('tenant-a', { 'dra-posture.io/role': 'tenant' })],
      deviceClasses: [deviceClass, zeroed],
      validatingAdmissionPolicies: [preV1],
      validatingAdmissionPolicyBindings: [vapBinding('old-guard', 'old-guard', ['Deny'])],
    });
    expect(out).toHaveLength(1);
    expect(out[0].message).toContain('The bound policies on resourceclaims and resourceclaimtemplates do not refuse');
    expect(out[0].evidence).toEqual(
      expect.arrayContaining([
        { type: 'note', text: 'A v1 ResourceClaim requesting adminAccess (DeviceClass zeroed.example.com) is admitted in tenant-a by old-guard.' },
        {
          type: 'note',
          text: 'A v1 ResourceClaim requesting accelerator DeviceClass gpu.example.com (no zeroing indicator) is admitted in tenant-a by old-guard.',
        },
      ]),
    );
  });

  it('does not probe classes that are not accelerators: a ComputeDomain channel class needs no zeroing', () => {
    const channel: DeviceClass = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'compute-domain-default-channel.nvidia.com' },
      spec: { selectors: [{ cel: { expression: 'device.driver == "compute-domain.nvidia.com"' } }] },
    } as DeviceClass;
    const guarded = (allowed: string[]) =>
      run(claim004, {
        namespaces: [namespace('tenant-a', { 'dra-posture.io/role': 'tenant' })],
        deviceClasses: [deviceClass, zeroed, channel],
        validatingAdmissionPolicies: [vap('guard', both, ['CREATE'], V1_GUARD, allowed)],
        validatingAdmissionPolicyBindings: [vapBinding('guard', 'guard', ['Deny'])],
      });
    expect(guarded(['zeroed.example.com', 'compute-domain-default-channel.nvidia.com'])).toStrictEqual([]);
    expect(guarded(['zeroed.example.com'])).toStrictEqual([]);
    const leaky = guarded(['zeroed.example.com', 'gpu.example.com', 'compute-domain-default-channel.nvidia.com']);
    expect(leaky[0].evidence.map((e) => (e.type === 'note' ? e.text : ''))).toStrictEqual([
      'A v1 ResourceClaim requesting accelerator DeviceClass gpu.example.com (no zeroing indicator) is admitted in tenant-a by guard.',
      'A v1 ResourceClaimTemplate requesting accelerator DeviceClass gpu.example.com (no zeroing indicator) is admitted in tenant-a by guard.',
    ]);
    // The suggested allow-list keeps the channel class.
    expect(leaky[0].remediation).toContain('here: compute-domain-default-channel.nvidia.com and zeroed.example.com');
  });

  it('is quiet for a v1 guard that refuses adminAccess and every class without zeroing, in every tenant namespace', () => {
    const parts = (allowed: string[], selector?: Record<string, string>) => ({
      namespaces: [namespace('tenant-a', { 'dra-posture.io/role': 'tenant' }), namespace('default')],
      deviceClasses: [deviceClass, zeroed],
      validatingAdmissionPolicies: [vap('guard', both, ['CREATE'], V1_GUARD, allowed)],
      validatingAdmissionPolicyBindings: [
        {
          ...vapBinding('guard', 'guard', ['Deny']),
          spec: { policyName: 'guard', validationActions: ['Deny'], ...(selector ? { matchResources: { namespaceSelector: { matchLabels: selector } } } : {}) },
        },
      ],
    });
    expect(run(claim004, parts(['zeroed.example.com']))).toStrictEqual([]);
    // Allowing the class without zeroing lets it through.
    const leaky = run(claim004, parts(['zeroed.example.com', 'gpu.example.com']));
    expect(leaky[0].evidence).toContainEqual({
      type: 'note',
      text: 'A v1 ResourceClaim requesting accelerator DeviceClass gpu.example.com (no zeroing indicator) is admitted in default and tenant-a by guard.',
    });
    // Bound only where role=tenant: the implicit tenant namespace default is not guarded.
    const partial = run(claim004, parts(['zeroed.example.com'], { 'dra-posture.io/role': 'tenant' }));
    expect(partial[0].evidence).toContainEqual({
      type: 'note',
      text: 'A v1 ResourceClaim requesting adminAccess (DeviceClass zeroed.example.com) is admitted in default by guard.',
    });
  });

  it('suggests an allow-list of the classes with a zeroing indicator only', () => {
    const out = run(claim004, { deviceClasses: [deviceClass, zeroed] });
    expect(out[0].remediation).toContain("r.exactly.deviceClassName in ['zeroed.example.com']");
    expect(out[0].remediation).not.toContain("'gpu.example.com'");
  });
});

describe('CLAIM005', () => {
  it('fires for the legacy admin-access label', () => {
    const out = run(claim005, { namespaces });
    expect(out).toStrictEqual([
      {
        subjects: [],
        objects: [{ kind: 'Namespace', name: 'kube-system' }],
        message:
          'Namespace kube-system carries the legacy label resource.k8s.io/admin-access="true", which only Kubernetes 1.33 honoured; since 1.34 only resource.kubernetes.io/admin-access counts (not set here, so adminAccess claims are refused).',
        evidence: [
          {
            type: 'field',
            object: { kind: 'Namespace', name: 'kube-system' },
            path: 'metadata.labels["resource.k8s.io/admin-access"]',
            value: 'true',
          },
        ],
        remediation:
          'Remove the stale label (kubectl label namespace kube-system resource.k8s.io/admin-access-); if the namespace needs admin access on 1.34+, set resource.kubernetes.io/admin-access="true" deliberately (platform namespaces only).',
      },
    ]);
  });
  it('does not fire for the active key alone', () => {
    const out = run(claim005, { namespaces: namespaces.filter((n) => n.metadata.name !== 'kube-system') });
    expect(out).toStrictEqual([]);
  });
});

// CLAIM003 against a direct reading of the rules: in each tenant namespace, every member (a subject
// of a RoleBinding there, or one of its service accounts or their group) that a binding naming it
// (a ClusterRoleBinding, or a RoleBinding of the namespace) lets update or patch the Namespace object
// by its name. Random roles mix named and unnamed rules, so which rule matches first varies.
describe('CLAIM003 on random RBAC', () => {
  const NSS = ['t0', 't1', 't2', 't3'];
  const RULES = [
    { verbs: ['patch'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['update', 'patch'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['t1'] },
    { verbs: ['update'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['t0', 't3'] },
    { verbs: ['*'], apiGroups: [''], resources: ['namespaces'], resourceNames: ['t2'] },
    { verbs: ['get', 'patch'], apiGroups: ['*'], resources: ['namespaces'] },
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['namespaces'] },
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] },
  ];
  const pool = [...NSS.flatMap((ns) => [SA(ns, 'app'), Group(`system:serviceaccounts:${ns}`)]), User('alice'), User('bob'), Group('devs'), Group('ops')];
  const key = (s: { kind: string; namespace?: string; name: string }) => `${s.kind}/${s.namespace ?? ''}/${s.name}`;

  for (let seed = 1; seed <= 60; seed++) {
    it(`reports exactly the members that can write their own Namespace (seed ${seed})`, () => {
      const r = createRandom(3000 + seed);
      const some = <T>(list: readonly T[], max: number) => Array.from({ length: 1 + r.int(max) }, () => r.pick(list));
      const clusterRoles = Array.from({ length: 5 }, (_, i) => clusterRole(`c${i}`, some(RULES, 3)));
      const roles = NSS.map((ns, i) => role(ns, `r${i}`, some(RULES, 3)));
      const clusterRoleBindings = Array.from({ length: 1 + r.int(3) }, (_, i) =>
        crb(`crb${i}`, { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name }, some(pool, 2)),
      );
      const roleBindings = Array.from({ length: 3 + r.int(8) }, (_, i) => {
        const ns = r.pick(NSS);
        const roleRef = r.chance(0.5)
          ? { kind: 'Role', name: roles[NSS.indexOf(ns)].metadata.name }
          : { kind: 'ClusterRole', name: r.pick(clusterRoles).metadata.name };
        return rb(ns, `rb${i}`, roleRef, some(pool, 2));
      });
      const out = run(claim003, {
        namespaces: NSS.map((ns) => namespace(ns, { 'dra-posture.io/role': 'tenant' })),
        clusterRoles,
        roles,
        clusterRoleBindings,
        roleBindings,
      });
      const got = out.map((f) => `${f.objects.find((o) => o.kind === 'Namespace')!.name} ${key(f.subjects[0])}`).sort();

      const rulesOf = (ref: { kind: string; name: string }, ns: string) =>
        (ref.kind === 'ClusterRole' ? clusterRoles.find((c) => c.metadata.name === ref.name) : ref.kind === 'Role' ? roles[NSS.indexOf(ns)] : undefined)
          ?.rules ?? [];
      const writes = (ref: { kind: string; name: string }, ns: string) =>
        rulesOf(ref, ns).some((rule) =>
          ['update', 'patch'].some((verb) => ruleAllowsResource(rule, { verb, group: '', resource: 'namespaces', subresource: '', namespace: ns, name: ns })),
        );
      const expected: string[] = [];
      for (const ns of NSS) {
        const members = new Set([
          ...roleBindings
            .filter((b) => b.metadata.namespace === ns)
            .flatMap((b) => (b.subjects ?? []).map((s) => key({ ...s, namespace: s.kind === 'ServiceAccount' ? s.namespace : undefined }))),
          key(SA(ns, 'app')),
          key(Group(`system:serviceaccounts:${ns}`)),
        ]);
        const bindings = [...clusterRoleBindings, ...roleBindings.filter((b) => b.metadata.namespace === ns)];
        for (const s of pool) {
          const k = key({ ...s, namespace: s.kind === 'ServiceAccount' ? s.namespace : undefined });
          if (!members.has(k)) continue;
          const named = bindings.filter((b) =>
            (b.subjects ?? []).some((x) => key({ ...x, namespace: x.kind === 'ServiceAccount' ? x.namespace : undefined }) === k),
          );
          if (named.some((b) => writes(b.roleRef, ns))) expected.push(`${ns} ${k}`);
        }
      }
      expect(got).toEqual([...new Set(expected)].sort());
    });
  }
});
