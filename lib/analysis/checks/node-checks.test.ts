import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, node, pod, rb, SA, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { contextOf, dsPod, namespace } from '../__fixtures__/builders';
import type { Check } from './check-types';
import { node001, node002, node003, node004, node005 } from './node-checks';

type Parts = Partial<Omit<ClusterState, 'source' | 'warnings'>>;

const run = (check: Check, parts: Parts) => {
  return check.run(contextOf(parts));
};

const clusterAdmin = clusterRole('cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
const nodes = [node('gpu-01'), node('gpu-02'), node('gpu-dev-01')];
const reporterPod = (sa: string) => dsPod('kube-system', sa, 'x1', { nodeName: 'gpu-01', serviceAccountName: sa });

describe('NODE001', () => {
  it('fires for a reporter with plain nodes/status patch on every node', () => {
    const out = run(node001, {
      nodes,
      pods: [reporterPod('intel-reporter')],
      clusterRoles: [
        clusterRole('node-status-patch-role', [
          { verbs: ['get'], apiGroups: [''], resources: ['nodes'] },
          { verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] },
        ]),
      ],
      clusterRoleBindings: [crb('intel-reporter-node-status', { kind: 'ClusterRole', name: 'node-status-patch-role' }, [SA('kube-system', 'intel-reporter')])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'kube-system', name: 'intel-reporter' }],
        objects: [
          { kind: 'ClusterRole', name: 'node-status-patch-role' },
          { kind: 'ClusterRoleBinding', name: 'intel-reporter-node-status' },
        ],
        message:
          'ServiceAccount kube-system/intel-reporter can write nodes/status of every node through a plain RBAC grant: ClusterRoleBinding intel-reporter-node-status → ClusterRole node-status-patch-role rule #1: verbs [patch, update], apiGroups [""], resources [nodes/status]; its pods run on gpu-01. A compromise of any one of its credentials can mark any node Ready or NotReady and rewrite its conditions (readiness gates, taint controllers).',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'intel-reporter-node-status' },
            role: { kind: 'ClusterRole', name: 'node-status-patch-role' },
            ruleIndex: 1,
            rule: { verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] },
          },
        ],
        remediation:
          'In ClusterRole node-status-patch-role rule #1: Remove nodes/status from the plain grant and use constrained impersonation, so each pod can only write the status of the node it runs on (the client impersonates system:node:<its node>; needs ConstrainedImpersonation, beta in 1.36):\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: intel-reporter-node-impersonator\nrules:\n- apiGroups: [authentication.k8s.io]\n  resources: [nodes]\n  verbs: ["impersonate:associated-node"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: intel-reporter-node-constrained\nrules:\n- apiGroups: [""]\n  resources: [nodes]\n  verbs: ["impersonate-on:associated-node:get"]\n- apiGroups: [""]\n  resources: [nodes/status]\n  verbs: ["impersonate-on:associated-node:update", "impersonate-on:associated-node:patch"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: intel-reporter-node-impersonator\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: intel-reporter-node-impersonator\nsubjects:\n- kind: ServiceAccount\n  name: intel-reporter\n  namespace: kube-system\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: intel-reporter-node-constrained\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: intel-reporter-node-constrained\nsubjects:\n- kind: ServiceAccount\n  name: intel-reporter\n  namespace: kube-system',
      },
    ]);
  });
  it('does not fire for constrained impersonation, a named node, bootstrap controllers or admins', () => {
    const out = run(node001, {
      nodes,
      pods: [reporterPod('gpu-driver-reporter')],
      clusterRoles: [
        clusterRole('node-readiness-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
        clusterRole('node-status-patcher-constrained', [{ verbs: ['impersonate-on:associated-node:update'], apiGroups: [''], resources: ['nodes/status'] }]),
        clusterRole('dev-node-status-writer', [{ verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'], resourceNames: ['gpu-dev-01'] }]),
        clusterRole('system:controller:node-controller', [{ verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] }]),
        clusterAdmin,
      ],
      clusterRoleBindings: [
        crb('reporter-impersonator', { kind: 'ClusterRole', name: 'node-readiness-impersonator' }, [SA('kube-system', 'gpu-driver-reporter')]),
        crb('reporter-status', { kind: 'ClusterRole', name: 'node-status-patcher-constrained' }, [SA('kube-system', 'gpu-driver-reporter')]),
        crb('dev-node-status-writer', { kind: 'ClusterRole', name: 'dev-node-status-writer' }, [SA('nrr-system', 'dev-node-probe')]),
        crb('system:controller:node-controller', { kind: 'ClusterRole', name: 'system:controller:node-controller' }, [SA('kube-system', 'node-controller')]),
        crb('kubeadm:cluster-admins', { kind: 'ClusterRole', name: 'cluster-admin' }, [Group('kubeadm:cluster-admins')]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('NODE002', () => {
  it('fires for legacy impersonation of users, groups and service accounts cluster-wide', () => {
    const out = run(node002, {
      nodes,
      clusterRoles: [clusterRole('support-impersonator', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'] }])],
      clusterRoleBindings: [crb('support-impersonator', { kind: 'ClusterRole', name: 'support-impersonator' }, [Group('support-engineers')])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'Group', name: 'support-engineers' }],
        objects: [
          { kind: 'ClusterRole', name: 'support-impersonator' },
          { kind: 'ClusterRoleBinding', name: 'support-impersonator' },
        ],
        message:
          'Group support-engineers holds legacy impersonate on users (any name), groups (any name) and service accounts in every namespace through ClusterRoleBinding support-impersonator → ClusterRole support-impersonator rule #0 (verbs [impersonate], apiGroups [""], resources [users, groups, serviceaccounts]). Legacy impersonation is not tied to a node: it can act as system:node:<any node> (write any node\'s status, read its secrets), as other users, or as members of system:masters.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'support-impersonator' },
            role: { kind: 'ClusterRole', name: 'support-impersonator' },
            ruleIndex: 0,
            rule: { verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups', 'serviceaccounts'] },
          },
        ],
        remediation:
          'Remove impersonate from ClusterRole support-impersonator rule #0. If it acts for the node its pod runs on, use constrained impersonation (impersonate:associated-node plus impersonate-on:associated-node:<verb> for the exact requests); for a fixed service account use impersonate:serviceaccount with resourceNames. For example:\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: support-engineers-node-impersonator\nrules:\n- apiGroups: [authentication.k8s.io]\n  resources: [nodes]\n  verbs: ["impersonate:associated-node"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: support-engineers-node-constrained\nrules:\n- apiGroups: [""]\n  resources: [nodes/status]\n  verbs: ["impersonate-on:associated-node:update", "impersonate-on:associated-node:patch"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: support-engineers-node-impersonator\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: support-engineers-node-impersonator\nsubjects:\n- kind: Group\n  apiGroup: rbac.authorization.k8s.io\n  name: support-engineers\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: support-engineers-node-constrained\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: support-engineers-node-constrained\nsubjects:\n- kind: Group\n  apiGroup: rbac.authorization.k8s.io\n  name: support-engineers',
      },
    ]);
  });
  it('does not fire for namespaced service-account impersonation (stock edit), a harmless named user, or constrained impersonation', () => {
    const out = run(node002, {
      nodes,
      namespaces: [namespace('tenant-a')],
      clusterRoles: [
        clusterRole('edit', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] }]),
        clusterRole('impersonate-jane', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['jane'] }]),
        clusterRole('node-readiness-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
      ],
      roleBindings: [rb('tenant-a', 'alice-edit', { kind: 'ClusterRole', name: 'edit' }, [User('alice')])],
      clusterRoleBindings: [
        crb('impersonate-jane', { kind: 'ClusterRole', name: 'impersonate-jane' }, [User('bob')]),
        crb('reporter', { kind: 'ClusterRole', name: 'node-readiness-impersonator' }, [SA('kube-system', 'gpu-driver-reporter')]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('NODE003', () => {
  it('fires for a driver service account that can update/patch every node', () => {
    const out = run(node003, {
      nodes,
      clusterRoles: [clusterRole('nvidia-kubeletplugin', [{ verbs: ['get', 'list', 'watch', 'update', 'patch'], apiGroups: [''], resources: ['nodes'] }])],
      clusterRoleBindings: [crb('nvidia-kubeletplugin', { kind: 'ClusterRole', name: 'nvidia-kubeletplugin' }, [SA('gpu-operator', 'kubeletplugin')])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'kubeletplugin' }],
        objects: [
          { kind: 'ClusterRole', name: 'nvidia-kubeletplugin' },
          { kind: 'ClusterRoleBinding', name: 'nvidia-kubeletplugin' },
        ],
        message:
          'ServiceAccount gpu-operator/kubeletplugin can update, patch nodes (labels, taints, spec) of every node through ClusterRoleBinding nvidia-kubeletplugin → ClusterRole nvidia-kubeletplugin rule #0 (verbs [get, list, watch, update, patch], apiGroups [""], resources [nodes]). It can remove NoSchedule/NoExecute taints or change labels that node selectors and DeviceClass-aware scheduling rely on.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'nvidia-kubeletplugin' },
            role: { kind: 'ClusterRole', name: 'nvidia-kubeletplugin' },
            ruleIndex: 0,
            rule: { verbs: ['get', 'list', 'watch', 'update', 'patch'], apiGroups: [''], resources: ['nodes'] },
          },
        ],
        remediation:
          'Remove update/patch on nodes from ClusterRole nvidia-kubeletplugin rule #0 unless the component manages node labels by design. A node-local agent that labels its own node should use constrained impersonation instead:\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: kubeletplugin-node-impersonator\nrules:\n- apiGroups: [authentication.k8s.io]\n  resources: [nodes]\n  verbs: ["impersonate:associated-node"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: kubeletplugin-node-constrained\nrules:\n- apiGroups: [""]\n  resources: [nodes]\n  verbs: ["impersonate-on:associated-node:get", "impersonate-on:associated-node:patch"]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: kubeletplugin-node-impersonator\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: kubeletplugin-node-impersonator\nsubjects:\n- kind: ServiceAccount\n  name: kubeletplugin\n  namespace: gpu-operator\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: kubeletplugin-node-constrained\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: ClusterRole\n  name: kubeletplugin-node-constrained\nsubjects:\n- kind: ServiceAccount\n  name: kubeletplugin\n  namespace: gpu-operator',
      },
    ]);
  });
  it('does not fire for a named node, read-only access, or node identities', () => {
    const out = run(node003, {
      nodes,
      clusterRoles: [
        clusterRole('dev-node-labeler', [{ verbs: ['patch'], apiGroups: [''], resources: ['nodes'], resourceNames: ['gpu-dev-01'] }]),
        clusterRole('node-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['nodes'] }]),
        clusterRole('node-writer', [{ verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes'] }]),
      ],
      clusterRoleBindings: [
        crb('dev-node-labeler', { kind: 'ClusterRole', name: 'dev-node-labeler' }, [SA('nrr-system', 'dev-node-probe')]),
        crb('node-reader', { kind: 'ClusterRole', name: 'node-reader' }, [SA('intel', 'intel-sa')]),
        crb('nodes-write', { kind: 'ClusterRole', name: 'node-writer' }, [Group('system:nodes')]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

describe('NODE004', () => {
  it('fires for a token-audience grant on every audience', () => {
    const out = run(node004, {
      clusterRoles: [clusterRole('node-token-audience-wildcard', [{ verbs: ['request-serviceaccounts-token-audience'], apiGroups: [''], resources: ['*'] }])],
      clusterRoleBindings: [crb('node-token-audience-wildcard', { kind: 'ClusterRole', name: 'node-token-audience-wildcard' }, [Group('system:nodes')])],
    });
    expect(out).toStrictEqual([
      {
        subjects: [{ kind: 'Group', name: 'system:nodes' }],
        objects: [
          { kind: 'ClusterRole', name: 'node-token-audience-wildcard' },
          { kind: 'ClusterRoleBinding', name: 'node-token-audience-wildcard' },
        ],
        message:
          'ClusterRole node-token-audience-wildcard grants request-serviceaccounts-token-audience for any audience (resources: ["*"]) in rule #0 (verbs [request-serviceaccounts-token-audience], apiGroups [""], resources [*]); bound by ClusterRoleBinding node-token-audience-wildcard (Group system:nodes). Nodes holding it can request service-account tokens for audiences no pod on the node uses.',
        evidence: [
          {
            type: 'grant',
            binding: { kind: 'ClusterRoleBinding', name: 'node-token-audience-wildcard' },
            role: { kind: 'ClusterRole', name: 'node-token-audience-wildcard' },
            ruleIndex: 0,
            rule: { verbs: ['request-serviceaccounts-token-audience'], apiGroups: [''], resources: ['*'] },
          },
        ],
        remediation:
          'List the exact audiences in resources and the service accounts in resourceNames, e.g.:\nrules:\n- apiGroups: [""]\n  resources: ["<audience, e.g. vault.example.com>"]\n  resourceNames: ["<service-account-name>"]\n  verbs: [request-serviceaccounts-token-audience]',
      },
    ]);
  });
  it('does not fire for one audience and one service account, or an unbound wildcard', () => {
    const out = run(node004, {
      clusterRoles: [
        clusterRole('kubelet-credential-provider-audience', [
          { verbs: ['request-serviceaccounts-token-audience'], apiGroups: [''], resources: ['registry.platform.example.com'], resourceNames: ['image-puller'] },
        ]),
        clusterRole('unbound-wildcard', [{ verbs: ['request-serviceaccounts-token-audience'], apiGroups: [''], resources: ['*'] }]),
      ],
      clusterRoleBindings: [
        crb('kubelet-credential-provider-audience', { kind: 'ClusterRole', name: 'kubelet-credential-provider-audience' }, [Group('system:nodes')]),
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

const staticPod = (name: string, command: string[]) => {
  const p = pod('kube-system', `${name}-cp-01`, { nodeName: 'cp-01', hostNetwork: true, containers: [{ name, command }] });
  p.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'Node', name: 'cp-01', controller: true }];
  return p;
};

describe('NODE005', () => {
  it('fires for an API server without NodeRestriction, and one without the Node authorizer', () => {
    const out = run(node005, {
      pods: [
        staticPod('kube-apiserver', [
          'kube-apiserver',
          '--advertise-address=10.0.0.10',
          '--authorization-mode=Node,RBAC',
          '--enable-admission-plugins=NamespaceLifecycle,ServiceAccount,ResourceQuota',
        ]),
        {
          ...staticPod('kube-apiserver', ['/bin/sh', '-c', 'kube-apiserver --authorization-mode=RBAC --enable-admission-plugins=NodeRestriction']),
          metadata: { name: 'kube-apiserver-cp-02', namespace: 'kube-system' },
        },
      ],
    });
    expect(out).toStrictEqual([
      {
        subjects: [],
        objects: [{ kind: 'Pod', namespace: 'kube-system', name: 'kube-apiserver-cp-01' }],
        message:
          'kube-apiserver in Pod kube-system/kube-apiserver-cp-01 on cp-01: --enable-admission-plugins=NamespaceLifecycle,ServiceAccount,ResourceQuota lacks NodeRestriction (it is not on by default). So any kubelet credential can modify every Node object and the status of pods on other nodes, not only its own.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'Pod', namespace: 'kube-system', name: 'kube-apiserver-cp-01' },
            path: 'spec.containers[0].command[3]',
            value: '--enable-admission-plugins=NamespaceLifecycle,ServiceAccount,ResourceQuota',
          },
        ],
        remediation:
          'Start kube-apiserver with --enable-admission-plugins=NamespaceLifecycle,ServiceAccount,ResourceQuota,NodeRestriction; the static pod restarts when its manifest changes.',
      },
      {
        subjects: [],
        objects: [{ kind: 'Pod', namespace: 'kube-system', name: 'kube-apiserver-cp-02' }],
        message:
          'kube-apiserver in Pod kube-system/kube-apiserver-cp-02 on cp-01: --authorization-mode=RBAC lacks Node. So kubelets are authorized by the remaining authorizers alone: bound to system:node (or allowed by AlwaysAllow) they read every secret and configmap, not only those of their own pods.',
        evidence: [
          {
            type: 'field',
            object: { kind: 'Pod', namespace: 'kube-system', name: 'kube-apiserver-cp-02' },
            path: 'spec.containers[0].command[2]',
            value: '--authorization-mode=RBAC',
          },
        ],
        remediation: 'Start kube-apiserver with --authorization-mode=Node,RBAC; the static pod restarts when its manifest changes.',
      },
    ]);
  });
  it('does not fire for a complete API server, other control-plane pods, or --authorization-config with NodeRestriction', () => {
    const out = run(node005, {
      pods: [
        staticPod('kube-apiserver', ['kube-apiserver', '--authorization-mode', 'Node,RBAC', '--enable-admission-plugins=NodeRestriction,ResourceQuota']),
        staticPod('kube-controller-manager', ['kube-controller-manager', '--authorization-mode=RBAC']),
        {
          ...staticPod('kube-apiserver', ['kube-apiserver', '--authorization-config=/etc/kubernetes/authz.yaml', '--enable-admission-plugins=NodeRestriction']),
          metadata: { name: 'kube-apiserver-cp-02', namespace: 'kube-system' },
        },
      ],
    });
    expect(out).toStrictEqual([]);
  });
});

// The API server pods are read once per pods array (visibleApiServers): each context answers from its own pods.
describe('API server pods read once', () => {
  it('gives NODE001 and NODE005 on one context what each gives on a context of its own, for contexts of different pods', () => {
    const without = (name: string) => ({
      ...staticPod('kube-apiserver', ['kube-apiserver', '--authorization-mode=Node,RBAC', '--enable-admission-plugins=ResourceQuota']),
      metadata: { name, namespace: 'kube-system' },
    });
    const states: Parts[] = [
      { pods: [without('kube-apiserver-cp-01')] },
      { pods: [without('kube-apiserver-cp-02'), without('kube-apiserver-cp-03')] },
      { pods: [] },
    ];
    const seen: string[][] = [];
    for (const parts of states) {
      const ctx = contextOf(parts);
      const shared = [node001.run(ctx), node005.run(ctx), node001.run(ctx)];
      expect(shared).toStrictEqual([run(node001, parts), run(node005, parts), run(node001, parts)]);
      seen.push(shared[1].flatMap((f) => f.objects.map((o) => o.name)));
    }
    // Each context's own servers, not the first context's.
    expect(seen).toEqual([['kube-apiserver-cp-01'], ['kube-apiserver-cp-02', 'kube-apiserver-cp-03'], []]);
  });
});
