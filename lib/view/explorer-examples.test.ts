import { describe, expect, it } from 'vitest';
import type { Finding, NodeReport } from '@/lib/analysis/types';
import { node, singleNodeSelector, slice, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { ResourceClaim } from '@/lib/k8s/types';
import { explorerExamples } from './explorer-examples';

// The explorer's examples name only what the loaded source has (a fixed list named the demo's objects).

const claim = (namespace: string, name: string, nodeName?: string): ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace },
  spec: {},
  ...(nodeName
    ? {
        status: {
          allocation: {
            devices: { results: [{ request: 'r', driver: 'gpu.example.com', pool: nodeName, device: 'd0' }] },
            nodeSelector: singleNodeSelector(nodeName),
          },
        },
      }
    : {}),
});

const state: ClusterState = stateOf({
  nodes: [node('cp'), node('worker-2'), node('worker-1')],
  resourceSlices: [slice('s2', 'gpu.example.com', 'worker-2'), slice('s1', 'gpu.example.com', 'worker-1')],
  resourceClaims: [claim('a-team', 'pending'), claim('b-team', 'train', 'worker-2')],
});

const finding = (check: Finding['check'], subjects: Finding['subjects']): Finding => ({
  id: check,
  check,
  severity: 'high',
  issueId: check,
  subjects,
  objects: [],
  evidence: [],
});
const nodeReport = (name: string, writers: NodeReport['claimStatusWriters']): NodeReport => ({
  name,
  statusWriters: [],
  claimDrivers: [],
  claimStatusWriters: writers,
});

describe('explorerExamples', () => {
  it('names a node with devices, an allocated claim and an identity a finding is about', () => {
    const examples = explorerExamples(state, {
      findings: [
        finding('DRA005', [{ kind: 'User', name: 'eve' }]),
        finding('DRA007', [
          { kind: 'Group', name: 'ops' },
          { kind: 'ServiceAccount', namespace: 'b-team', name: 'sched' },
        ]),
      ],
      nodes: [],
    });
    const named = examples.filter((e) => e.params.name || e.params.user);
    expect(named.map((e) => e.params)).toEqual([
      { mode: 'who-can', verb: 'patch', resource: 'nodes/status', name: 'worker-1' },
      { mode: 'who-can', verb: 'update', resource: 'resourceclaims/status', namespace: 'b-team', name: 'train' },
      { mode: 'can-i', verb: 'update', resource: 'resourceclaims/binding', user: 'system:serviceaccount:b-team:sched' },
    ]);
    expect(named.map((e) => e.label)).toEqual([
      'Who can patch the status of node worker-1?',
      'Who can update the status of claim b-team/train?',
      'Can b-team/sched update resourceclaims/binding?',
    ]);
  });

  it('asks a node-local driver about a claim allocated on its node, with that node’s token', () => {
    const examples = explorerExamples(state, {
      findings: [],
      nodes: [
        nodeReport('worker-1', [
          { driver: 'gpu.example.com', subject: { kind: 'ServiceAccount', namespace: 'drv', name: 'plugin' }, mode: 'associated-node', via: [] },
        ]),
        nodeReport('worker-2', [
          { driver: 'gpu.example.com', subject: { kind: 'ServiceAccount', namespace: 'drv', name: 'plugin' }, mode: 'associated-node', via: [] },
        ]),
      ],
    });
    // worker-1 has no claim of the driver: the example is the one on worker-2.
    expect(examples.at(-1)!.params).toEqual({
      mode: 'can-i',
      verb: 'associated-node:update',
      resource: 'resourceclaims/driver',
      namespace: 'b-team',
      name: 'gpu.example.com',
      user: 'system:serviceaccount:drv:plugin',
      node: 'worker-2',
    });
  });

  it('names nothing when the source has no nodes, claims or findings', () => {
    const examples = explorerExamples(stateOf({}), { findings: [], nodes: [] });
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.every((e) => !e.params.name && !e.params.user && !e.params.namespace)).toBe(true);
  });
});
