import { describe, expect, it } from 'vitest';
import { admitNodeRestriction, forbiddenLabels, type NodeRestrictionLookups } from './node-restriction';
import { res } from './__fixtures__/builders';
import { nodeUser } from './user-info';

// Cases from plugin/pkg/admission/noderestriction/admission_test.go (as facts; the code is ours).
const PODS: Record<string, { uid: string; nodeName: string }> = {
  'ns/mypod': { uid: 'pod-uid', nodeName: 'mynode' },
  'ns/otherpod': { uid: 'other-uid', nodeName: 'othernode' },
};
const lookups: NodeRestrictionLookups = {
  pod: (ns, name) => PODS[`${ns}/${name}`],
  nodeUid: (name) => (name === 'mynode' ? 'node-uid' : undefined),
};
const me = nodeUser('mynode');
const admit = (verb: string, group: string, resource: string, extra: Parameters<typeof res>[3], object?: unknown, oldObject?: unknown) =>
  admitNodeRestriction(me, { attributes: res(verb, group, resource, extra), object, oldObject }, lookups);
const node = (labels: Record<string, string> = {}, spec: Record<string, unknown> = {}) => ({ metadata: { name: 'mynode', labels }, spec });
const mirrorPod = (patch: Record<string, unknown> = {}, specPatch: Record<string, unknown> = {}) => ({
  metadata: {
    name: 'static',
    namespace: 'ns',
    annotations: { 'kubernetes.io/config.mirror': 'x' },
    ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'mynode', uid: 'node-uid', controller: true }],
    ...patch,
  },
  spec: { nodeName: 'mynode', containers: [{ name: 'c', image: 'i' }], ...specPatch },
});

describe('NodeRestriction', () => {
  it('leaves non-node identities alone, including a node name without the system:nodes group', () => {
    for (const user of [
      { name: 'alice', groups: [] },
      { name: 'system:node:mynode', groups: ['system:authenticated'] },
    ])
      expect(admitNodeRestriction(user, { attributes: res('update', '', 'nodes', { name: 'othernode' }) }, lookups).allowed).toBe(true);
  });

  it('nodes: only its own Node; no taint changes; labels only in the kubelet set', () => {
    expect(admit('update', '', 'nodes', { name: 'othernode' }, node(), node()).reason).toContain('is not allowed to modify node "othernode"');
    expect(admit('patch', '', 'nodes', { name: 'mynode', subresource: 'status' }, node(), node()).allowed).toBe(true);
    expect(
      admit('update', '', 'nodes', { name: 'mynode' }, node({}, { taints: [] }), node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] })).reason,
    ).toContain('not allowed to modify taints');
    expect(admit('update', '', 'nodes', { name: 'mynode' }, node({ foo: 'bar', 'kubernetes.io/hostname': 'x' }), node()).allowed).toBe(true);
    expect(admit('update', '', 'nodes', { name: 'mynode' }, node({ 'node-restriction.kubernetes.io/x': 'y' }), node()).reason).toContain(
      'is not allowed to modify labels: node-restriction.kubernetes.io/x',
    );
    expect(admit('create', '', 'nodes', {}, node({ 'other.k8s.io/a': '1' })).reason).toContain('not allowed to set the following labels: other.k8s.io/a');
    expect(admit('create', '', 'nodes', {}, node({}, { configSource: { configMap: {} } })).reason).toContain('non-nil configSource');
  });

  it('the kubelet label set: kubernetes.io and k8s.io keys outside it are forbidden, kubelet/node namespaces allowed', () => {
    expect(
      forbiddenLabels([
        'foo',
        'example.com/x',
        'kubernetes.io/hostname',
        'topology.kubernetes.io/zone',
        'kubernetes.io/role',
        'node-role.kubernetes.io/master',
        'k8s.io/x',
        'a.k8s.io/x',
        'node.kubernetes.io/exclude',
        'x.kubelet.kubernetes.io/y',
        'node-restriction.kubernetes.io/z',
        'a.node-restriction.kubernetes.io/z',
      ]),
    ).toEqual([
      'kubernetes.io/role',
      'node-role.kubernetes.io/master',
      'k8s.io/x',
      'a.k8s.io/x',
      'node-restriction.kubernetes.io/z',
      'a.node-restriction.kubernetes.io/z',
    ]);
  });

  it('pods: only mirror pods bound to itself with its own controller owner reference, referencing nothing else', () => {
    expect(admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod()).allowed).toBe(true);
    expect(admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod({ annotations: {} })).reason).toContain('can only create mirror pods');
    expect(admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod({}, { nodeName: 'othernode' })).reason).toContain('spec.nodeName set to itself');
    expect(admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod({ ownerReferences: [] })).reason).toContain('an owner reference set to itself');
    expect(
      admit(
        'create',
        '',
        'pods',
        { namespace: 'ns' },
        mirrorPod({ ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'mynode', uid: 'other', controller: true }] }),
      ).reason,
    ).toContain('UID mismatch');
    expect(admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod({}, { serviceAccountName: 'sa' })).reason).toContain('reference a service account');
    expect(admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod({}, { volumes: [{ name: 'v', secret: { secretName: 's' } }] })).reason).toContain(
      'reference secrets',
    );
    expect(
      admit('create', '', 'pods', { namespace: 'ns' }, mirrorPod({}, { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] })).reason,
    ).toContain('persistentvolumeclaims');
    expect(admit('delete', '', 'pods', { namespace: 'ns', name: 'otherpod' }).reason).toContain('can only delete pods with spec.nodeName set to itself');
    expect(admit('delete', '', 'pods', { namespace: 'ns', name: 'mypod' }).allowed).toBe(true);
    expect(admit('update', '', 'pods', { namespace: 'ns', name: 'mypod' }).reason).toContain('can only create and delete mirror pods');
    expect(admit('create', '', 'pods', { namespace: 'ns', name: 'mypod', subresource: 'exec' }).reason).toContain("only 'status' and 'eviction' are allowed");
  });

  it('pods/status and eviction: only pods bound to itself; no label or resource-claim-status change', () => {
    const pod = (nodeName: string, labels = {}, claims: unknown[] = []) => ({
      metadata: { labels },
      spec: { nodeName },
      status: { resourceClaimStatuses: claims },
    });
    expect(admit('update', '', 'pods', { namespace: 'ns', name: 'p', subresource: 'status' }, pod('mynode'), pod('mynode')).allowed).toBe(true);
    expect(admit('patch', '', 'pods', { namespace: 'ns', name: 'p', subresource: 'status' }, pod('othernode'), pod('othernode')).reason).toContain(
      'pods with spec.nodeName set to itself',
    );
    expect(admit('update', '', 'pods', { namespace: 'ns', name: 'p', subresource: 'status' }, pod('mynode', { a: 'b' }), pod('mynode')).reason).toContain(
      'cannot update labels',
    );
    expect(
      admit(
        'update',
        '',
        'pods',
        { namespace: 'ns', name: 'p', subresource: 'status' },
        pod('mynode', {}, [{ name: 'gpu', resourceClaimName: 'x' }]),
        pod('mynode'),
      ).reason,
    ).toContain('resource claim statuses');
    expect(admit('create', '', 'pods', { namespace: 'ns', name: 'otherpod', subresource: 'eviction' }, {}).reason).toContain('can only evict pods');
    expect(admit('create', '', 'pods', { namespace: 'ns', name: 'mypod', subresource: 'eviction' }, {}).allowed).toBe(true);
  });

  it('ResourceSlices: create and delete only with its own spec.nodeName (updates are the Node authorizer’s)', () => {
    const slice = (nodeName: string) => ({ metadata: { name: 's' }, spec: { nodeName, driver: 'gpu.example.com' } });
    expect(admit('create', 'resource.k8s.io', 'resourceslices', {}, slice('mynode')).allowed).toBe(true);
    expect(admit('create', 'resource.k8s.io', 'resourceslices', {}, slice('othernode')).reason).toContain(
      'can only create ResourceSlice with the same NodeName',
    );
    expect(admit('delete', 'resource.k8s.io', 'resourceslices', { name: 's' }, undefined, slice('othernode')).reason).toContain(
      'can only delete ResourceSlice',
    );
    expect(admit('update', 'resource.k8s.io', 'resourceslices', { name: 's' }, slice('othernode'), slice('othernode')).allowed).toBe(true);
  });

  it('leases, CSINodes and tokens: its own only', () => {
    expect(admit('update', 'coordination.k8s.io', 'leases', { namespace: 'default', name: 'mynode' }).reason).toContain('kube-node-lease');
    expect(admit('update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'othernode' }).reason).toContain(
      'same name as the requesting node',
    );
    expect(admit('create', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease' }, { metadata: { name: 'mynode' } }).allowed).toBe(true);
    expect(admit('create', 'storage.k8s.io', 'csinodes', {}, { metadata: { name: 'othernode' } }).reason).toContain('CSINode with the same name');
    const token = (ref: Record<string, unknown>) => ({ spec: { boundObjectRef: ref } });
    expect(admit('create', '', 'serviceaccounts', { namespace: 'ns', name: 'sa', subresource: 'token' }, token({})).reason).toContain('not bound to a pod');
    expect(
      admit(
        'create',
        '',
        'serviceaccounts',
        { namespace: 'ns', name: 'sa', subresource: 'token' },
        token({ apiVersion: 'v1', kind: 'Pod', name: 'otherpod', uid: 'other-uid' }),
      ).reason,
    ).toContain('scheduled on a different node');
    expect(
      admit(
        'create',
        '',
        'serviceaccounts',
        { namespace: 'ns', name: 'sa', subresource: 'token' },
        token({ apiVersion: 'v1', kind: 'Pod', name: 'mypod', uid: 'pod-uid' }),
      ).allowed,
    ).toBe(true);
  });
});
