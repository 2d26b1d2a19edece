import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, node, rb, role, SA } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { contextOf, daemonSet, dsPod, namespace, pluginPod, sliceWriter } from '../__fixtures__/builders';
import { capabilitiesOf, CAPABILITIES } from '../capabilities';
import { CATALOG } from '../catalog';
import type { Check } from './check-types';
import { dra011, dra012 } from './dra-capability-checks';
import { dra005, dra008 } from './dra-checks';
import { node001, node006 } from './node-checks';

// The scenarios of the capability-model issue, each written from the API server's semantics
// (authz-semantics.md §2-§8) rather than from this tool's output: an attack path through a
// mechanism an older check did not name must now be reported, and the well-made look-alike not.

type Parts = Partial<Omit<ClusterState, 'source' | 'warnings'>>;
const run = (check: Check, parts: Parts, version?: string) => check.run(contextOf(parts, undefined, version));
const who = (out: ReturnType<Check['run']>) => out.map((f) => f.subjects.map((s) => `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`).join(', '));

const nodes = [node('n1'), node('n2'), node('n3')];
const DRA = 'resource.k8s.io';
const AUTHN = 'authentication.k8s.io';

describe('NODE001: status of other nodes by any path', () => {
  const reporter = dsPod('kube-system', 'reporter', 'a', { nodeName: 'n1', serviceAccountName: 'reporter' });
  const impersonation = (mode: 'arbitrary-node' | 'associated-node'): Parts => ({
    nodes,
    pods: [reporter],
    clusterRoles: [
      clusterRole('node-impersonator', [{ verbs: [`impersonate:${mode}`], apiGroups: [AUTHN], resources: ['nodes'] }]),
      clusterRole('node-status-constrained', [
        { verbs: [`impersonate-on:${mode}:get`], apiGroups: [''], resources: ['nodes'] },
        { verbs: [`impersonate-on:${mode}:update`], apiGroups: [''], resources: ['nodes/status'] },
      ]),
    ],
    clusterRoleBindings: [
      crb('reporter-impersonator', { kind: 'ClusterRole', name: 'node-impersonator' }, [SA('kube-system', 'reporter')]),
      crb('reporter-status', { kind: 'ClusterRole', name: 'node-status-constrained' }, [SA('kube-system', 'reporter')]),
    ],
  });

  it('fires for a reporter that may impersonate any node (arbitrary-node), naming the impersonation grants', () => {
    const out = run(node001, impersonation('arbitrary-node'), 'v1.36.3');
    expect(who(out)).toEqual(['ServiceAccount kube-system/reporter']);
    expect(out[0].objects.map((o) => o.name).sort()).toEqual(['node-impersonator', 'node-status-constrained', 'reporter-impersonator', 'reporter-status']);
    expect(out[0].message).toContain('every node');
    expect(out[0].remediation).toContain('impersonate:associated-node');
  });

  it('does not fire for the same reporter with associated-node impersonation (its own node only)', () => {
    expect(run(node001, impersonation('associated-node'), 'v1.36.3')).toEqual([]);
  });
});

describe('NODE001 without NodeRestriction', () => {
  const apiServer = (plugins: string) => {
    const p = dsPod('kube-system', 'x', 'y', {
      containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', '--authorization-mode=Node,RBAC', `--enable-admission-plugins=${plugins}`] }],
    });
    p.metadata.name = 'kube-apiserver-cp';
    delete p.metadata.ownerReferences;
    return p;
  };
  const reporter = dsPod('kube-system', 'reporter', 'a', { nodeName: 'n1', serviceAccountName: 'reporter' });
  const parts = (plugins: string): Parts => ({
    nodes,
    pods: [reporter, apiServer(plugins)],
    clusterRoles: [
      clusterRole('node-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: [AUTHN], resources: ['nodes'] }]),
      clusterRole('node-status-constrained', [{ verbs: ['impersonate-on:associated-node:update'], apiGroups: [''], resources: ['nodes/status'] }]),
    ],
    clusterRoleBindings: [
      crb('reporter-impersonator', { kind: 'ClusterRole', name: 'node-impersonator' }, [SA('kube-system', 'reporter')]),
      crb('reporter-status', { kind: 'ClusterRole', name: 'node-status-constrained' }, [SA('kube-system', 'reporter')]),
    ],
  });

  it('reports Group system:nodes once, naming the associated-node reporter that acts as its own node, and fixes the API server', () => {
    const out = run(node001, parts('NamespaceLifecycle'), 'v1.36.3');
    expect(who(out)).toEqual(['Group system:nodes']);
    expect(out[0].objects).toEqual([{ kind: 'Pod', namespace: 'kube-system', name: 'kube-apiserver-cp' }]);
    expect(out[0].message).toContain('ServiceAccount kube-system/reporter');
    expect(out[0].remediation).toContain('NodeRestriction');
  });
  it('reports nothing for the same cluster with NodeRestriction', () => {
    expect(run(node001, parts('NamespaceLifecycle,NodeRestriction'), 'v1.36.3')).toEqual([]);
  });
});

describe('NODE006: node identities granted more than the Node authorizer', () => {
  const parts = (rules: Parameters<typeof clusterRole>[1]): Parts => ({
    nodes,
    clusterRoles: [clusterRole('node-extra', rules)],
    clusterRoleBindings: [crb('node-extra', { kind: 'ClusterRole', name: 'node-extra' }, [Group('system:nodes')])],
  });

  it('fires when system:nodes may read every Secret (the Node authorizer gives only its own pods\u2019 secrets)', () => {
    const out = run(
      node006,
      parts([
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] },
        { verbs: ['create', 'update', 'delete'], apiGroups: [DRA], resources: ['resourceslices'] },
      ]),
    );
    expect(who(out)).toEqual(['Group system:nodes']);
    expect(out[0].evidence.map((e) => (e.type === 'grant' ? e.ruleIndex : -1))).toEqual([0]);
    expect(out[0].message).toContain('secrets');
  });

  it('reports other nodes\u2019 ResourceSlice writes only when NodeRestriction is off', () => {
    const rules = [{ verbs: ['create', 'update', 'delete'], apiGroups: [DRA], resources: ['resourceslices'] }];
    expect(run(node006, parts(rules))).toEqual([]);
    const apiServer = dsPod('kube-system', 'x', 'y', {
      containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', '--authorization-mode=Node,RBAC', '--enable-admission-plugins=NamespaceLifecycle'] }],
    });
    apiServer.metadata.name = 'kube-apiserver-cp';
    delete apiServer.metadata.ownerReferences;
    expect(who(run(node006, { ...parts(rules), pods: [apiServer] }))).toEqual(['Group system:nodes']);
  });

  it('does not fire for what kubelets already hold or kubeadm grants them', () => {
    expect(
      run(
        node006,
        parts([
          { verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes/status'] },
          { verbs: ['create', 'update', 'patch'], apiGroups: [''], resources: ['events'] },
          { verbs: ['create'], apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/selfnodeclient'] },
          { verbs: ['request-serviceaccounts-token-audience'], apiGroups: [''], resources: ['*'] },
        ]),
      ),
    ).toEqual([]);
    const kubeadm: Parts = {
      roles: [
        role('kube-system', 'kubeadm:kubelet-config', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kubelet-config'] }]),
      ],
      roleBindings: [rb('kube-system', 'kubeadm:kubelet-config', { kind: 'Role', name: 'kubeadm:kubelet-config' }, [Group('system:nodes')])],
    };
    expect(run(node006, kubeadm)).toEqual([]);
  });
});

describe('DRA005: device status for any node, by any identity', () => {
  const forge = [{ verbs: ['arbitrary-node:update'], apiGroups: [DRA], resources: ['resourceclaims/driver'], resourceNames: ['gpu.example.com'] }];
  it('names a broad group that holds arbitrary-node writes', () => {
    const out = run(dra005, {
      clusterRoles: [clusterRole('forge', forge)],
      clusterRoleBindings: [crb('forge', { kind: 'ClusterRole', name: 'forge' }, [Group('system:authenticated')])],
    });
    expect(who(out)).toEqual(['Group system:authenticated']);
  });
  it('names a tenant\u2019s default service account bound through a RoleBinding', () => {
    const out = run(dra005, {
      namespaces: [namespace('tenant-a', { 'dra-posture.io/role': 'tenant' })],
      clusterRoles: [clusterRole('forge', forge)],
      roleBindings: [rb('tenant-a', 'forge', { kind: 'ClusterRole', name: 'forge' }, [SA('tenant-a', 'default')])],
    });
    expect(who(out)).toEqual(['ServiceAccount tenant-a/default']);
    expect(out[0].message).toContain('in namespace tenant-a');
  });
  it('names who can impersonate a device-status writer (constrained serviceaccount mode, or legacy impersonation of it in its namespace)', () => {
    const parts: Parts = {
      namespaces: [namespace('drivers', { 'dra-posture.io/role': 'platform' })],
      clusterRoles: [
        clusterRole('forge', [...forge, { verbs: ['update'], apiGroups: [DRA], resources: ['resourceclaims/status'] }]),
        clusterRole('sa-impersonator', [
          { verbs: ['impersonate:serviceaccount'], apiGroups: [AUTHN], resources: ['serviceaccounts'], resourceNames: ['controller'] },
          { verbs: ['impersonate-on:serviceaccount:update'], apiGroups: [DRA], resources: ['resourceclaims/status'] },
        ]),
        clusterRole('legacy-sa', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] }]),
      ],
      clusterRoleBindings: [
        crb('forge', { kind: 'ClusterRole', name: 'forge' }, [SA('drivers', 'controller')]),
        crb('sa-impersonator', { kind: 'ClusterRole', name: 'sa-impersonator' }, [SA('ops', 'debugger')]),
      ],
      roleBindings: [rb('drivers', 'legacy-sa', { kind: 'ClusterRole', name: 'legacy-sa' }, [Group('driver-editors')])],
    };
    const out = run(dra005, parts, 'v1.36.3');
    expect(who(out)).toEqual(['Group driver-editors', 'ServiceAccount ops/debugger']);
    expect(out.map((f) => f.message.includes('(serviceaccount impersonation)'))).toEqual([false, true]);
    expect(out[0].message).toContain('(legacy impersonation)');
    // Without the action grant the constrained mode refuses, and a 1.35 server (gate off by default) has no constrained modes.
    expect(who(run(dra005, parts, 'v1.35.2'))).toEqual(['Group driver-editors']);
  });
  it('accepts a multi-node controller of a platform namespace scoped to its driver name', () => {
    expect(
      run(dra005, {
        namespaces: [namespace('drivers', { 'dra-posture.io/role': 'platform' })],
        clusterRoles: [clusterRole('forge', forge)],
        clusterRoleBindings: [crb('forge', { kind: 'ClusterRole', name: 'forge' }, [SA('drivers', 'controller')])],
      }),
    ).toEqual([]);
  });
});

describe('DRA008: escalation-grade access of DRA workloads', () => {
  const writer = sliceWriter('drivers', 'plugin');
  const base: Parts = {
    nodes,
    pods: [pluginPod('drivers', 'plugin', 'a', 'plugin', 'n1')],
    clusterRoles: [writer.clusterRole],
    clusterRoleBindings: [writer.binding],
  };
  it('reports pods create/patch, service-account tokens and ConfigMap writes cluster-wide for a kubelet plugin', () => {
    const out = run(dra008, {
      ...base,
      clusterRoles: [
        writer.clusterRole,
        clusterRole('plugin-extra', [
          { verbs: ['create', 'patch'], apiGroups: [''], resources: ['pods'] },
          { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] },
          { verbs: ['update'], apiGroups: [''], resources: ['configmaps'] },
        ]),
      ],
      clusterRoleBindings: [writer.binding, crb('plugin-extra', { kind: 'ClusterRole', name: 'plugin-extra' }, [SA('drivers', 'plugin')])],
    });
    expect(who(out)).toEqual(['ServiceAccount drivers/plugin']);
    for (const part of ['create or change pods', 'create service-account tokens', 'write ConfigMaps in every namespace'])
      expect(out[0].message).toContain(part);
  });
  it('reports a daemon of the driver namespace that may patch any pod (ComputeDomain daemon)', () => {
    const out = run(dra008, {
      ...base,
      pods: [...base.pods!, dsPod('drivers', 'domain-daemon', 'b', { nodeName: 'n2', serviceAccountName: 'domain-daemon' })],
      clusterRoles: [writer.clusterRole, clusterRole('domain-daemon', [{ verbs: ['get', 'list', 'watch', 'patch'], apiGroups: [''], resources: ['pods'] }])],
      clusterRoleBindings: [writer.binding, crb('domain-daemon', { kind: 'ClusterRole', name: 'domain-daemon' }, [SA('drivers', 'domain-daemon')])],
    });
    expect(who(out)).toEqual(['ServiceAccount drivers/domain-daemon']);
    expect(out[0].message).toContain('in every namespace [patch]');
  });
  it('reports DaemonSet writes in a namespace that admits privileged pods, not in one that enforces baseline', () => {
    const parts = (labels?: Record<string, string>): Parts => ({
      ...base,
      namespaces: [namespace('drivers', labels)],
      daemonSets: [daemonSet('drivers', 'plugin', {})],
      roles: [role('drivers', 'controller', [{ verbs: ['create', 'update', 'patch'], apiGroups: ['apps'], resources: ['daemonsets'] }])],
      roleBindings: [rb('drivers', 'controller', { kind: 'Role', name: 'controller' }, [SA('drivers', 'plugin')])],
    });
    const out = run(dra008, parts());
    expect(who(out)).toEqual(['ServiceAccount drivers/plugin']);
    expect(out[0].message).toContain('in namespace drivers (admits privileged pods)');
    expect(run(dra008, parts({ 'pod-security.kubernetes.io/enforce': 'baseline' }))).toEqual([]);
  });
});

describe('DRA011: DeviceTaintRule writers', () => {
  it('fires for a driver role that creates DeviceTaintRules cluster-wide, not for admins', () => {
    const out = run(dra011, {
      clusterRoles: [
        clusterRole('gaudi-driver', [{ verbs: ['get', 'list', 'watch', 'create'], apiGroups: [DRA], resources: ['devicetaintrules'] }]),
        clusterRole('cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]),
      ],
      clusterRoleBindings: [
        crb('gaudi-driver', { kind: 'ClusterRole', name: 'gaudi-driver' }, [SA('intel-gaudi', 'driver')]),
        crb('admins', { kind: 'ClusterRole', name: 'cluster-admin' }, [Group('admins')]),
      ],
    });
    expect(who(out)).toEqual(['ServiceAccount intel-gaudi/driver']);
    expect(out[0].message).toContain('create DeviceTaintRules');
    expect(out[0].message).toContain('DRADeviceTaintRules feature gate is off');
  });
});

describe('DRA012: ResourceSlice writes not pinned to the writer\u2019s node', () => {
  const writer = sliceWriter('drivers', 'plugin');
  const policy = (username: string, extra: Partial<NonNullable<ValidatingAdmissionPolicy['spec']>> = {}): ValidatingAdmissionPolicy => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'slices-own-node' },
    spec: {
      matchConstraints: {
        resourceRules: [{ apiGroups: [DRA], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['resourceslices'] }],
      },
      matchConditions: [{ name: 'isDriver', expression: `request.userInfo.username == "${username}"` }],
      variables: [
        { name: 'userNodeName', expression: "request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')" },
        { name: 'objectNodeName', expression: '(request.operation == "DELETE" ? oldObject : object).spec.?nodeName.orValue("")' },
      ],
      validations: [{ expression: 'variables.userNodeName == variables.objectNodeName' }],
      ...extra,
    },
  });
  const binding = (actions: string[]): ValidatingAdmissionPolicyBinding => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: 'slices-own-node' },
    spec: { policyName: 'slices-own-node', validationActions: actions },
  });
  const parts = (vap: ValidatingAdmissionPolicy[], vapb: ValidatingAdmissionPolicyBinding[]): Parts => ({
    nodes,
    pods: [pluginPod('drivers', 'plugin', 'a', 'plugin', 'n1')],
    clusterRoles: [writer.clusterRole],
    clusterRoleBindings: [writer.binding],
    validatingAdmissionPolicies: vap,
    validatingAdmissionPolicyBindings: vapb,
  });
  const me = 'system:serviceaccount:drivers:plugin';

  it('fires for a kubelet plugin with no pinning policy', () => {
    expect(who(run(dra012, parts([], [])))).toEqual(['ServiceAccount drivers/plugin']);
  });
  it('is quiet when a bound Deny policy pins its writes', () => {
    expect(run(dra012, parts([policy(me)], [binding(['Deny'])]))).toEqual([]);
  });
  it('fires when the policy names another (nonexistent) account, is only audited, or checks nothing about the node', () => {
    const other = run(dra012, parts([policy('system:serviceaccount:drivers:plugin-sa')], [binding(['Deny'])]));
    expect(who(other)).toEqual(['ServiceAccount drivers/plugin']);
    expect(other[0].message).toContain('pins only system:serviceaccount:drivers:plugin-sa');
    expect(who(run(dra012, parts([policy(me)], [binding(['Audit'])])))).toEqual(['ServiceAccount drivers/plugin']);
    expect(who(run(dra012, parts([policy(me, { validations: [{ expression: 'object.spec.driver == "gpu.example.com"' }] })], [binding(['Deny'])])))).toEqual([
      'ServiceAccount drivers/plugin',
    ]);
  });
});

describe('DRA012: policies that look like pinning but are not', () => {
  const writer = sliceWriter('drivers', 'plugin');
  const me = 'system:serviceaccount:drivers:plugin';
  const vap = (validation: string, apiVersions = ['v1']): ValidatingAdmissionPolicy => ({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'p' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [DRA], apiVersions, operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['resourceslices'] }] },
      matchConditions: [{ name: 'isDriver', expression: `request.userInfo.username == '${me}'` }],
      variables: [{ name: 'nodeName', expression: "request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')" }],
      validations: [{ expression: validation }],
    },
  });
  const parts = (p: ValidatingAdmissionPolicy, runtimeConfig?: string): Parts => {
    const apiServer = dsPod('kube-system', 'x', 'y', {
      containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', ...(runtimeConfig ? [`--runtime-config=${runtimeConfig}`] : [])] }],
    });
    apiServer.metadata.name = 'kube-apiserver-cp';
    delete apiServer.metadata.ownerReferences;
    return {
      nodes,
      pods: [pluginPod('drivers', 'plugin', 'a', 'plugin', 'n1'), apiServer],
      clusterRoles: [writer.clusterRole],
      clusterRoleBindings: [writer.binding],
      validatingAdmissionPolicies: [p],
      validatingAdmissionPolicyBindings: [
        {
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'ValidatingAdmissionPolicyBinding',
          metadata: { name: 'p' },
          spec: { policyName: 'p', validationActions: ['Deny'] },
        },
      ],
    };
  };
  const pinned = 'variables.nodeName == object.spec.nodeName';

  it('a single-quoted username and a direct comparison pin', () => {
    expect(run(dra012, parts(vap(pinned)))).toEqual([]);
  });
  it('an escape for allNodes or nodeSelector slices does not pin (any node may then publish cluster-wide devices)', () => {
    const out = run(dra012, parts(vap(`${pinned} || object.spec.allNodes == true || has(object.spec.nodeSelector)`)));
    expect(who(out)).toEqual(['ServiceAccount drivers/plugin']);
  });
  it('a policy matching only resource.k8s.io/v1beta1 pins only where --runtime-config serves it', () => {
    const out = run(dra012, parts(vap(pinned, ['v1beta1'])));
    expect(who(out)).toEqual(['ServiceAccount drivers/plugin']);
    expect(out[0].message).toContain('it matches only resource.k8s.io v1beta1');
    expect(run(dra012, parts(vap(pinned, ['v1beta1']), 'resource.k8s.io/v1beta1=true'))).toEqual([]);
  });
});

describe('capability table', () => {
  it('names an existing check for every capability, and every capability question is exact', () => {
    for (const c of CAPABILITIES) {
      expect(CATALOG[c.check]).toBeDefined();
      for (const q of c.questions) expect(q.verbs.every((v) => v !== '' && !v.endsWith(':*'))).toBe(true);
    }
    expect(capabilitiesOf('DRA008').map((c) => c.id)).toContain('write-pods');
    expect(capabilitiesOf('NODE001').map((c) => c.id)).toEqual(['write-other-node-status']);
  });
});
