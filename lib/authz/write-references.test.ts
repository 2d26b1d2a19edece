import { describe, expect, it } from 'vitest';
import { node, pod, res, singleNodeSelector, slice, stateOf } from './__fixtures__/builders';
import { nodeUser, serviceAccountUser } from './user-info';
import type { WriteSimulation } from './simulate-write';
import { describeMissingReference, missingReferences } from './write-references';

// What a simulated write names that the loaded source does not have: the explorer warns beside the answer.

const state = stateOf({
  namespaces: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } }],
  serviceAccounts: [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'app', namespace: 'team' } }],
  nodes: [node('n1')],
  resourceClaims: [{ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'c', namespace: 'team' }, spec: {} }],
});

const write = (user: WriteSimulation['user'], attributes: WriteSimulation['attributes'], object: unknown): WriteSimulation => ({ user, attributes, object });

describe('missingReferences', () => {
  it('flags a slice for a node the source does not have, and the sending node', () => {
    const sim = write(nodeUser('n9'), res('create', 'resource.k8s.io', 'resourceslices'), slice('s', 'gpu.example.com', 'n8'));
    expect(missingReferences(state, sim).map(describeMissingReference)).toEqual(['node n9 (the sender)', 'node n8 (spec.nodeName)']);
  });

  it('is empty when every name exists', () => {
    const sim = write(nodeUser('n1'), res('create', 'resource.k8s.io', 'resourceslices'), slice('s', 'gpu.example.com', 'n1'));
    expect(missingReferences(state, sim)).toEqual([]);
  });

  it('flags a namespace, a service account, its token’s node and an updated claim that do not exist', () => {
    const claim = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'gone', namespace: 'team' },
      spec: {},
      status: { allocation: { nodeSelector: singleNodeSelector('n7') } },
    };
    const sim = write(
      serviceAccountUser('team', 'ghost', 'n6'),
      res('update', 'resource.k8s.io', 'resourceclaims', { namespace: 'team', name: 'gone', subresource: 'status' }),
      claim,
    );
    expect(missingReferences(state, sim).map((m) => `${m.kind}:${m.namespace ?? ''}/${m.name}`)).toEqual([
      'Node:/n6',
      'ServiceAccount:team/ghost',
      'ResourceClaim:team/gone',
      'Node:/n7',
    ]);
    const other = write(serviceAccountUser('elsewhere', 'app'), res('create', 'resource.k8s.io', 'resourceclaims', { namespace: 'elsewhere' }), {
      ...claim,
      metadata: { name: 'x', namespace: 'elsewhere' },
      status: undefined,
    });
    // A new claim is not missing (create makes it); the namespace is, once.
    expect(missingReferences(state, other).map(describeMissingReference)).toEqual(['namespace elsewhere (the sender)']);
  });

  it('checks a pod’s node and the claims it references by name', () => {
    const p = pod('team', 'p', {
      nodeName: 'n1',
      resourceClaims: [
        { name: 'gpu', resourceClaimName: 'c' },
        { name: 'x', resourceClaimName: 'nope' },
      ],
    });
    const sim = write({ name: 'alice', groups: [] }, res('create', '', 'pods', { namespace: 'team' }), p);
    expect(missingReferences(state, sim).map(describeMissingReference)).toEqual(['claim team/nope (spec.resourceClaims)']);
  });

  it('says nothing about a kind the source could not read', () => {
    const partial = { ...state, source: { ...state.source, unreadKinds: [{ kind: 'Node', reason: 'forbidden' }] } };
    const sim = write(nodeUser('n9'), res('create', 'resource.k8s.io', 'resourceslices'), slice('s', 'gpu.example.com', 'n8'));
    expect(missingReferences(partial, sim)).toEqual([]);
  });
});
