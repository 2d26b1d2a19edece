import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from './authz-engine';
import { node, pod, pv, res, slice, stateOf, user } from './__fixtures__/builders';
import type { ResourceAttributes } from './types';

// authz-semantics.md §6: the Node authorizer's graph and per-resource rules.
const state = stateOf({
  nodes: [node('n1'), node('n2')],
  pods: [
    pod(
      'team-a',
      'web',
      {
        nodeName: 'n1',
        serviceAccountName: 'web-sa',
        imagePullSecrets: [{ name: 'pull' }],
        containers: [
          { name: 'c', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'env-cm' } }] },
        ],
        volumes: [
          { name: 'v1', secret: { secretName: 'vol-secret' } },
          { name: 'v2', projected: { sources: [{ configMap: { name: 'proj-cm' } }] } },
          { name: 'v3', persistentVolumeClaim: { claimName: 'data' } },
        ],
        resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'tpl' }],
      },
      { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'web-gpu-abc' }] },
    ),
    pod('team-a', 'pending', { serviceAccountName: 'pending-sa', volumes: [{ name: 'v', secret: { secretName: 'pending-secret' } }] }),
  ],
  persistentVolumes: [pv('pv-data', { namespace: 'team-a', name: 'data' }, { namespace: 'csi', name: 'csi-creds' })],
  resourceSlices: [slice('n1-gpu', 'gpu.example.com', 'n1'), slice('n2-gpu', 'gpu.example.com', 'n2')],
});

const n1 = user('system:node:n1', 'system:nodes');
const cases: { name: string; u?: ReturnType<typeof user>; attrs: ResourceAttributes; allowed: boolean }[] = [
  { name: 'secret of a pod on the node (volume)', attrs: res('get', '', 'secrets', { namespace: 'team-a', name: 'vol-secret' }), allowed: true },
  { name: 'secret via env valueFrom', attrs: res('get', '', 'secrets', { namespace: 'team-a', name: 'env-secret' }), allowed: true },
  { name: 'image pull secret', attrs: res('get', '', 'secrets', { namespace: 'team-a', name: 'pull' }), allowed: true },
  {
    name: 'secret of a pod on another node is denied',
    u: user('system:node:n2', 'system:nodes'),
    attrs: res('get', '', 'secrets', { namespace: 'team-a', name: 'vol-secret' }),
    allowed: false,
  },
  { name: 'secret of an unscheduled pod is denied', attrs: res('get', '', 'secrets', { namespace: 'team-a', name: 'pending-secret' }), allowed: false },
  { name: 'same secret name in another namespace is denied', attrs: res('get', '', 'secrets', { namespace: 'team-b', name: 'vol-secret' }), allowed: false },
  { name: 'list of one secret via metadata.name', attrs: res('list', '', 'secrets', { namespace: 'team-a', name: 'vol-secret' }), allowed: true },
  { name: 'unfiltered secret list is denied', attrs: res('list', '', 'secrets', { namespace: 'team-a' }), allowed: false },
  { name: 'secrets cannot be written', attrs: res('update', '', 'secrets', { namespace: 'team-a', name: 'vol-secret' }), allowed: false },
  { name: 'configmap via envFrom', attrs: res('get', '', 'configmaps', { namespace: 'team-a', name: 'env-cm' }), allowed: true },
  { name: 'configmap via projected volume', attrs: res('watch', '', 'configmaps', { namespace: 'team-a', name: 'proj-cm' }), allowed: true },
  { name: 'pvc get', attrs: res('get', '', 'persistentvolumeclaims', { namespace: 'team-a', name: 'data' }), allowed: true },
  { name: 'pvc list is denied', attrs: res('list', '', 'persistentvolumeclaims', { namespace: 'team-a', name: 'data' }), allowed: false },
  {
    name: 'pvc status update',
    attrs: res('update', '', 'persistentvolumeclaims', { namespace: 'team-a', name: 'data', subresource: 'status' }),
    allowed: true,
  },
  { name: 'pv bound to a related pvc', attrs: res('get', '', 'persistentvolumes', { name: 'pv-data' }), allowed: true },
  { name: 'secret referenced by a related pv', attrs: res('get', '', 'secrets', { namespace: 'csi', name: 'csi-creds' }), allowed: true },
  {
    name: 'resourceclaim of a pod on the node (from status)',
    attrs: res('get', 'resource.k8s.io', 'resourceclaims', { namespace: 'team-a', name: 'web-gpu-abc' }),
    allowed: true,
  },
  {
    name: 'resourceclaim status cannot be written by a kubelet',
    attrs: res('update', 'resource.k8s.io', 'resourceclaims', { namespace: 'team-a', name: 'web-gpu-abc', subresource: 'status' }),
    allowed: false,
  },
  {
    name: 'token for the SA of a pod on the node',
    attrs: res('create', '', 'serviceaccounts', { namespace: 'team-a', name: 'web-sa', subresource: 'token' }),
    allowed: true,
  },
  {
    name: 'token for the SA of an unscheduled pod is denied',
    attrs: res('create', '', 'serviceaccounts', { namespace: 'team-a', name: 'pending-sa', subresource: 'token' }),
    allowed: false,
  },
  { name: 'update nodes/status of any node name', attrs: res('update', '', 'nodes', { name: 'n2', subresource: 'status' }), allowed: true },
  { name: 'patch nodes of any node name', attrs: res('patch', '', 'nodes', { name: 'n2' }), allowed: true },
  { name: 'get own node', attrs: res('get', '', 'nodes', { name: 'n1' }), allowed: true },
  { name: 'get another node is denied', attrs: res('get', '', 'nodes', { name: 'n2' }), allowed: false },
  { name: 'unfiltered node list is denied', attrs: res('list', '', 'nodes'), allowed: false },
  { name: 'delete a node is denied', attrs: res('delete', '', 'nodes', { name: 'n1' }), allowed: false },
  { name: 'get a pod bound to the node', attrs: res('get', '', 'pods', { namespace: 'team-a', name: 'web' }), allowed: true },
  {
    name: 'list pods with spec.nodeName=own',
    attrs: res('list', '', 'pods', { fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] }),
    allowed: true,
  },
  {
    name: 'list pods with spec.nodeName=other is denied',
    attrs: res('list', '', 'pods', { fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n2' }] }),
    allowed: false,
  },
  {
    name: 'list pods with spec.nodeName!=own is denied',
    attrs: res('list', '', 'pods', { fieldSelector: [{ field: 'spec.nodeName', operator: '!=', value: 'n1' }] }),
    allowed: false,
  },
  { name: 'pod exec is denied', attrs: res('create', '', 'pods', { namespace: 'team-a', name: 'web', subresource: 'exec' }), allowed: false },
  { name: 'pod status update', attrs: res('patch', '', 'pods', { namespace: 'team-a', name: 'x', subresource: 'status' }), allowed: true },
  { name: 'own lease in kube-node-lease', attrs: res('update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'n1' }), allowed: true },
  {
    name: 'another node’s lease is denied',
    attrs: res('update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'n2' }),
    allowed: false,
  },
  {
    name: 'lease outside kube-node-lease is denied',
    attrs: res('get', 'coordination.k8s.io', 'leases', { namespace: 'kube-system', name: 'n1' }),
    allowed: false,
  },
  { name: 'own csinode', attrs: res('patch', 'storage.k8s.io', 'csinodes', { name: 'n1' }), allowed: true },
  { name: 'create any resourceslice (admission checks it)', attrs: res('create', 'resource.k8s.io', 'resourceslices'), allowed: true },
  { name: 'update own resourceslice', attrs: res('update', 'resource.k8s.io', 'resourceslices', { name: 'n1-gpu' }), allowed: true },
  { name: 'update another node’s resourceslice is denied', attrs: res('update', 'resource.k8s.io', 'resourceslices', { name: 'n2-gpu' }), allowed: false },
  {
    name: 'list resourceslices with spec.nodeName=own',
    attrs: res('list', 'resource.k8s.io', 'resourceslices', { fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'n1' }] }),
    allowed: true,
  },
  { name: 'unfiltered resourceslice list is denied', attrs: res('list', 'resource.k8s.io', 'resourceslices'), allowed: false },
  { name: 'static node rules: list services', attrs: res('list', '', 'services'), allowed: true },
  { name: 'static node rules: create events', attrs: res('create', '', 'events', { namespace: 'default' }), allowed: true },
  { name: 'static node rules do not cover events.k8s.io', attrs: res('create', 'events.k8s.io', 'events', { namespace: 'default' }), allowed: false },
  {
    name: 'a user named system:node:n1 without group system:nodes gets nothing from the Node authorizer',
    u: user('system:node:n1'),
    attrs: res('update', '', 'nodes', { name: 'n1', subresource: 'status' }),
    allowed: false,
  },
  { name: 'empty node name gets nothing', u: user('system:node:', 'system:nodes'), attrs: res('list', '', 'services'), allowed: false },
];

describe('Node authorizer', () => {
  const engine = createAuthzEngine(state);
  it.each(cases)('$name → $allowed', ({ u, attrs, allowed }) => {
    expect(engine.authorize({ user: u ?? n1, resource: attrs }).allowed).toBe(allowed);
  });
  it('says why a graph answer is yes', () => {
    const d = engine.authorize({ user: n1, resource: res('get', '', 'secrets', { namespace: 'team-a', name: 'vol-secret' }) });
    expect(d.decidedBy).toBe('node');
    expect(d.reason).toContain('related to node "n1"');
  });
});

describe('Node authorizer: each question on a fresh graph', () => {
  // Reach maps are built on the first question about a type, and a namespace without bound pods is
  // answered without one: each case on its own engine, so that no earlier question built the map.
  it.each(cases)('$name → $allowed', ({ u, attrs, allowed }) => {
    expect(createAuthzEngine(state).authorize({ user: u ?? n1, resource: attrs }).allowed).toBe(allowed);
  });
  it('a Secret of a PersistentVolume, in a namespace with no pods, reaches the node of the claim', () => {
    const fresh = createAuthzEngine(state);
    expect(fresh.nodeGraph.nodesReaching('secret', 'csi', 'csi-creds')).toEqual(['n1']);
    expect(fresh.nodeGraph.nodesReaching('pod', 'csi', 'csi-creds')).toEqual([]);
  });
});
