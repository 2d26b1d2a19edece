import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, node, pod, rb, SA, User } from '@/lib/authz/__fixtures__/builders';
import type { ReplicaSet } from '@/lib/k8s/types';
import { contextOf, daemonSet, namespace, pluginPod, sliceWriter } from '../__fixtures__/builders';
import { DEFAULT_SETTINGS } from '../settings';
import { createRandom } from '@/scripts/bench/prng';
import { exposesPluginDir, normaliseHostPath, resolvePathSegments } from './pod-facts';

const star = clusterRole('star', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
const draStar = clusterRole('dra-star', [{ verbs: ['*'], apiGroups: ['resource.k8s.io'], resources: ['*'] }]);
const writer = sliceWriter('drivers', 'plugin');
const names = (pods: { metadata: { namespace?: string; name: string } }[]) => pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`);

const rs: ReplicaSet = {
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name: 'web-5d8f', namespace: 'tenant-a', ownerReferences: [{ kind: 'Deployment', name: 'web', controller: true }] },
  spec: {},
};
const webPod = pod('tenant-a', 'web-5d8f-abc', { nodeName: 'n2', serviceAccountName: 'web' });
webPod.metadata.ownerReferences = [{ kind: 'ReplicaSet', name: 'web-5d8f', controller: true }];

const ctx = contextOf(
  {
    namespaces: [
      namespace('kube-system'),
      namespace('drivers'),
      namespace('tenant-a'),
      namespace('ops', { 'dra-posture.io/role': 'platform' }),
      namespace('lab', { 'dra-posture.io/role': 'tenant' }),
      namespace('extra-platform'),
    ],
    nodes: [node('n1'), node('n2')],
    pods: [
      pluginPod('drivers', 'gpu-plugin', 'a1', 'plugin', 'n1'),
      pluginPod('drivers', 'gpu-plugin', 'b2', 'plugin', 'n2'),
      // Labelled tenant: a driver pod does not make it platform.
      pluginPod('lab', 'lab-plugin', 'x', 'plugin', 'n1'),
      // Mounts the plugin dir but its SA cannot write ResourceSlices.
      pod('tenant-a', 'debug', {
        nodeName: 'n1',
        serviceAccountName: 'runner',
        volumes: [{ name: 'k', hostPath: { path: '/var/lib/kubelet/' } }],
        containers: [{ name: 'c', volumeMounts: [{ name: 'k', mountPath: '/k' }] }],
      }),
      // A kubelet hostPath that is not a plugin dir.
      pod('tenant-a', 'profiler', {
        nodeName: 'n1',
        volumes: [{ name: 'pr', hostPath: { path: '/var/lib/kubelet/pod-resources' } }],
        containers: [{ name: 'c', volumeMounts: [{ name: 'pr', mountPath: '/pr' }] }],
      }),
      // Declares the plugin hostPath but no container mounts it.
      pod('tenant-a', 'unmounted', { nodeName: 'n1', volumes: [{ name: 'p', hostPath: { path: '/var/lib/kubelet/plugins' } }] }),
      webPod,
    ],
    replicaSets: [rs],
    // A DaemonSet without pods: its template stands in for them.
    daemonSets: [daemonSet('kube-system', 'reporter', { serviceAccountName: 'reporter' })],
    clusterRoles: [
      writer.clusterRole,
      star,
      draStar,
      clusterRole('claim-status', [{ verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }]),
      clusterRole('binding', [{ verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/binding'] }]),
    ],
    clusterRoleBindings: [
      writer.binding,
      crb('ops-admin', { kind: 'ClusterRole', name: 'star' }, [Group('ops-admins'), SA('ops', 'automation')]),
      crb('dra-ops', { kind: 'ClusterRole', name: 'dra-star' }, [Group('dra-ops')]),
      // A User subject naming a service account is that service account.
      crb('allocator', { kind: 'ClusterRole', name: 'binding' }, [User('system:serviceaccount:ops:allocator')]),
      crb('system:controller:thing', { kind: 'ClusterRole', name: 'binding' }, [SA('kube-system', 'thing-controller')]),
    ],
    roleBindings: [
      rb('tenant-a', 'status', { kind: 'ClusterRole', name: 'claim-status' }, [SA('tenant-a', 'queue')]),
      // cluster-wide * through a RoleBinding is not admin-equivalent.
      rb('tenant-a', 'local-admin', { kind: 'ClusterRole', name: 'star' }, [User('bob')]),
    ],
  },
  { ...DEFAULT_SETTINGS, platformNamespaces: [...DEFAULT_SETTINGS.platformNamespaces, 'extra-platform'] },
);

describe('buildAnalysisContext', () => {
  it('collects namespaces from Namespace objects and namespaced objects, sorted', () => {
    expect(ctx.namespaces).toEqual(['drivers', 'extra-platform', 'kube-system', 'lab', 'ops', 'tenant-a']);
  });

  it('classifies platform and tenant namespaces (built-ins, settings, label, driver pods)', () => {
    expect(ctx.namespaces.filter(ctx.isPlatformNamespace)).toEqual(['drivers', 'extra-platform', 'kube-system', 'ops']);
    expect(ctx.namespaces.filter(ctx.isTenantNamespace)).toEqual(['lab', 'tenant-a']);
    expect(ctx.isPlatformNamespace('kube-node-lease')).toBe(true);
    expect(ctx.isTenantNamespace('never-seen')).toBe(true);
  });

  it('finds plugin-dir pods and, among them, driver pods (SA can write ResourceSlices)', () => {
    expect(names(ctx.pluginDirPods)).toEqual(['drivers/gpu-plugin-a1', 'drivers/gpu-plugin-b2', 'lab/lab-plugin-x', 'tenant-a/debug']);
    expect(names(ctx.driverPods)).toEqual(['drivers/gpu-plugin-a1', 'drivers/gpu-plugin-b2']);
    expect(ctx.isDriverPod(ctx.state.pods[0])).toBe(true);
    expect(ctx.isDriverPod(ctx.state.pods[3])).toBe(false);
  });

  it('lists DRA component service accounts with the reasons', () => {
    expect(ctx.draComponents).toEqual([
      { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
      { kind: 'ServiceAccount', namespace: 'kube-system', name: 'thing-controller' },
      { kind: 'ServiceAccount', namespace: 'ops', name: 'allocator' },
      { kind: 'ServiceAccount', namespace: 'ops', name: 'automation' },
    ]);
    expect(ctx.isDraComponent({ kind: 'User', name: 'system:serviceaccount:ops:allocator' })).toBe(true);
    // tenant-a/queue holds only resourceclaims/status: on 1.36 (granular status authorization) none
    // of its status writes goes through; before, it writes every status field.
    expect(ctx.isDraComponent({ kind: 'User', name: 'system:serviceaccount:tenant-a:queue' })).toBe(false);
    const { source: _source, warnings: _warnings, ...parts } = ctx.state;
    const before = contextOf(parts, ctx.settings, 'v1.35.2');
    expect(before.isDraComponent({ kind: 'User', name: 'system:serviceaccount:tenant-a:queue' })).toBe(true);
    expect(before.componentReasons({ kind: 'ServiceAccount', namespace: 'tenant-a', name: 'queue' }).capabilities).toEqual([
      'can update resourceclaims/status',
    ]);
    expect(ctx.isDraComponent({ kind: 'Group', name: 'dra-ops' })).toBe(false);
    expect(ctx.componentReasons({ kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' })).toEqual({
      capabilities: ['can write ResourceSlices'],
      driverWorkloads: [{ kind: 'DaemonSet', namespace: 'drivers', name: 'gpu-plugin' }],
    });
  });

  it('lists node-local identities: DaemonSet pods (also from a template) and driver pods', () => {
    expect(ctx.nodeLocalIdentities).toEqual([
      { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin' },
      { kind: 'ServiceAccount', namespace: 'kube-system', name: 'reporter' },
      { kind: 'ServiceAccount', namespace: 'lab', name: 'plugin' },
    ]);
    expect(ctx.isNodeLocalIdentity({ kind: 'ServiceAccount', namespace: 'tenant-a', name: 'runner' })).toBe(false);
  });

  it('decides admin-equivalence exactly: * / * / * cluster-wide only', () => {
    expect(ctx.isAdminEquivalent({ kind: 'Group', name: 'system:masters' })).toBe(true);
    expect(ctx.isAdminEquivalent({ kind: 'Group', name: 'ops-admins' })).toBe(true);
    expect(ctx.isAdminEquivalent({ kind: 'ServiceAccount', namespace: 'ops', name: 'automation' })).toBe(true);
    expect(ctx.isAdminEquivalent({ kind: 'User', name: 'system:serviceaccount:ops:automation' })).toBe(true);
    expect(ctx.isAdminEquivalent({ kind: 'Group', name: 'dra-ops' })).toBe(false);
    expect(ctx.isAdminEquivalent({ kind: 'User', name: 'bob' })).toBe(false);
  });

  it('treats system:* users and groups (not the everyone-groups), bootstrap-bound kube-system SAs and allocators as system identities', () => {
    expect(ctx.isSystemIdentity({ kind: 'User', name: 'system:kube-scheduler' })).toBe(true);
    expect(ctx.isSystemIdentity({ kind: 'Group', name: 'system:nodes' })).toBe(true);
    expect(ctx.isSystemIdentity({ kind: 'Group', name: 'system:authenticated' })).toBe(false);
    expect(ctx.isSystemIdentity({ kind: 'Group', name: 'system:serviceaccounts:tenant-a' })).toBe(false);
    expect(ctx.isSystemIdentity({ kind: 'ServiceAccount', namespace: 'kube-system', name: 'thing-controller' })).toBe(true);
    expect(ctx.isSystemIdentity({ kind: 'ServiceAccount', namespace: 'kube-system', name: 'resource-claim-controller' })).toBe(true);
    expect(ctx.isSystemIdentity({ kind: 'ServiceAccount', namespace: 'kube-system', name: 'reporter' })).toBe(false);
  });

  it('knows the nodes of a service account and the workload of a pod', () => {
    expect(ctx.podIndex.nodesOfServiceAccount('drivers', 'plugin')).toEqual(['n1', 'n2']);
    expect(ctx.podIndex.nodesOfServiceAccount('kube-system', 'reporter')).toEqual([]);
    expect(ctx.ownerOf(webPod)).toEqual({ kind: 'Deployment', namespace: 'tenant-a', name: 'web' });
    expect(ctx.ownerOf(ctx.state.pods[0])).toEqual({ kind: 'DaemonSet', namespace: 'drivers', name: 'gpu-plugin' });
    expect(ctx.ownerOf(ctx.state.pods[3])).toEqual({ kind: 'Pod', namespace: 'tenant-a', name: 'debug' });
    // ReplicaSet missing from the snapshot: the Deployment follows from the pod-template-hash.
    const orphan = pod('tenant-a', 'api-7c9d5-x', {});
    orphan.metadata.labels = { 'pod-template-hash': '7c9d5' };
    orphan.metadata.ownerReferences = [{ kind: 'ReplicaSet', name: 'api-7c9d5', controller: true }];
    expect(ctx.ownerOf(orphan)).toEqual({ kind: 'Deployment', namespace: 'tenant-a', name: 'api' });
  });

  it('lists the pods of a service account (spec.serviceAccountName, else spec.serviceAccount, else default), in pod order', () => {
    // Namespaces and accounts interleaved: the pods of one account are not one run of the list.
    const spread = [
      pod('a', 'p1', { serviceAccountName: 'x' }),
      pod('a', 'p2', {}),
      pod('b', 'p3', { serviceAccountName: 'x' }),
      pod('a', 'p4', { serviceAccountName: 'x' }),
      pod('a', 'p5', { serviceAccount: 'x' }),
      pod('a', 'p6', { serviceAccountName: 'y', serviceAccount: 'x' }),
      pod('b', 'p7', { serviceAccountName: 'x' }),
      pod('a', 'p8', { serviceAccountName: 'default' }),
      pod('b', 'p9', {}),
    ];
    const c = contextOf({ namespaces: [namespace('a'), namespace('b')], pods: spread }, DEFAULT_SETTINGS);
    const of = (ns: string, name: string) => c.podsOfServiceAccount(ns, name).map((p) => p.metadata.name);
    expect(of('a', 'x')).toEqual(['p1', 'p4', 'p5']);
    expect(of('a', 'y')).toEqual(['p6']);
    expect(of('a', 'default')).toEqual(['p2', 'p8']);
    expect(of('b', 'x')).toEqual(['p3', 'p7']);
    expect(of('b', 'default')).toEqual(['p9']);
    expect(of('b', 'y')).toEqual([]);
    expect(of('c', 'x')).toEqual([]);
  });
});

describe('host paths', () => {
  it('normalises and matches plugin directories, their parents and sub-directories', () => {
    expect(normaliseHostPath('//var/lib/kubelet/./plugins/')).toBe('/var/lib/kubelet/plugins');
    expect(exposesPluginDir('/')).toBe(true);
    expect(exposesPluginDir('/var/lib')).toBe(true);
    expect(exposesPluginDir('/var/lib/kubelet/plugins/gpu.example.com')).toBe(true);
    expect(exposesPluginDir('/var/lib/kubelet/plugins_registry')).toBe(true);
    expect(exposesPluginDir('/var/lib/kubelet/pod-resources')).toBe(false);
    expect(exposesPluginDir('/var/lib/kubelet/pluginsX')).toBe(false);
  });

  it('normalises any path as splitting on "/" and resolving "." and ".." does (already normal paths are returned as they are)', () => {
    const parts = ['/', '/', '.', '..', 'var', 'lib', 'kubelet', 'plugins', '.hidden', 'a..b', 'x.'];
    const r = createRandom(11);
    for (let i = 0; i < 2000; i++) {
      let path = '';
      for (let k = r.int(8); k > 0; k--) path += r.pick(parts);
      expect(normaliseHostPath(path)).toBe(resolvePathSegments(path));
    }
    for (const path of ['', '/', '//', '/.', '/..', '/var/', '/var/.', 'var/lib', '/var/lib', '/var/..x'])
      expect(normaliseHostPath(path)).toBe(resolvePathSegments(path));
  });
});
