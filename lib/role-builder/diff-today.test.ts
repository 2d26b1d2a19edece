import { beforeAll, describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { clusterRole, Group, rb, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { loadDemo } from '@/server/sources/demo-source';
import { buildBundle } from './build-bundle';
import { diffAgainstToday, escalationPrimitives } from './diff-today';
import { GOLDEN_INPUTS } from './golden-inputs';

let demo: ClusterState;
beforeAll(async () => {
  demo = await loadDemo();
});

const diffFor = (state: ClusterState, input: Parameters<typeof buildBundle>[0]) => diffAgainstToday(createAuthzEngine(state), buildBundle(input));

describe('diffAgainstToday', () => {
  it('a new identity holds nothing: every bundle rule is missing, nothing to remove', () => {
    const d = diffFor(demo, GOLDEN_INPUTS['node-local-driver']);
    expect(d.noGrantsToday).toBe(true);
    expect(d.toRemove).toEqual([]);
    expect(d.missing.map((m) => m.rule.rule.resources)).toEqual([
      ['resourceslices'],
      ['resourceclaims'],
      ['resourceclaims/status'],
      ['resourceclaims/driver'],
      ['nodes'],
    ]);
  });

  it('the NVIDIA kubelet plugin: extra grants to remove, including the unscoped arbitrary-node rule, and the associated-node rule it lacks', () => {
    const d = diffFor(demo, {
      persona: 'node-local-driver',
      identity: { kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'dra-driver-nvidia-gpu-service-account-kubeletplugin', create: false },
      drivers: ['gpu.nvidia.com'],
    });
    const removed = d.toRemove.map((g) => `${g.role.name}#${g.ruleIndex} ${g.rule.resources?.join(',')} ${g.rule.verbs.join(',')}`);
    expect(removed).toContain('nv-status-writer#1 resourceclaims/driver arbitrary-node:update,arbitrary-node:patch');
    expect(removed.some((r) => r.includes(' nodes ') && r.includes('update'))).toBe(true);
    // A rule the bundle covers (resourceclaims get/list/watch) is not listed.
    expect(d.toRemove.some((g) => g.rule.resources?.join() === 'resourceclaims' && g.rule.verbs.every((v) => ['get', 'list', 'watch'].includes(v)))).toBe(
      false,
    );
    expect(d.missing.map((m) => m.rule.rule.resources?.[0])).toContain('resourceclaims/driver');
    expect(d.bindings.map((b) => b.name)).toContain('nv-status-writer');
  });

  it('lists escalation primitives of a cluster-admin bound identity', () => {
    const d = diffFor(demo, {
      persona: 'node-local-driver',
      identity: { kind: 'ServiceAccount', namespace: 'intel-gpu-resource-driver', name: 'intel-gpu-sa', create: false },
      drivers: ['gpu.intel.com'],
    });
    const admin = d.escalation.find((e) => e.grant.role.name === 'cluster-admin');
    expect(admin?.primitives).toEqual(
      expect.arrayContaining([
        'verbs: * (includes bind, escalate, impersonate)',
        'resources: * (every resource, including secrets and synthetic subresources)',
      ]),
    );
    expect(d.missing).toEqual([]);
  });

  it('namespaced grants count only in their namespace', () => {
    // alice holds edit in tenant-a only: as a tenant of tenant-a the claim rules are covered, DeviceClass read is not.
    const d = diffFor(demo, { persona: 'tenant', identity: { kind: 'User', name: 'alice' }, drivers: [], namespace: 'tenant-a' });
    expect(d.missing.map((m) => `${m.namespace}:${m.rule.rule.resources?.join(',')}`)).toEqual([':deviceclasses']);
    const elsewhere = diffFor(demo, { persona: 'tenant', identity: { kind: 'User', name: 'alice' }, drivers: [], namespace: 'tenant-b' });
    expect(elsewhere.missing.map((m) => `${m.namespace}:${m.rule.rule.resources?.join(',')}`)).toEqual([
      ':deviceclasses',
      'tenant-b:resourceclaims',
      'tenant-b:resourceclaimtemplates',
    ]);
  });
});

describe('escalationPrimitives', () => {
  it('names bind, escalate, impersonate and wildcards, but not associated-node impersonation', () => {
    expect(escalationPrimitives({ verbs: ['bind', 'escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] })).toEqual([
      'verb bind',
      'verb escalate',
    ]);
    expect(escalationPrimitives({ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] })).toEqual([]);
    expect(escalationPrimitives({ verbs: ['impersonate:arbitrary-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] })).toEqual([
      'verb impersonate:arbitrary-node',
    ]);
    expect(escalationPrimitives({ verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] })).toEqual([
      'resources: * (every resource, including secrets and synthetic subresources)',
      'apiGroups: *',
    ]);
  });

  it('finds RoleBinding grants in every namespace that names the service account, its namespace group or its username', () => {
    // A service account's token carries system:serviceaccounts:<its namespace>; a User subject with its username is the same identity.
    const read = [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }];
    const state = stateOf({
      namespaces: ['ops', 'ns-a', 'ns-b', 'ns-c', 'ns-d'].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
      clusterRoles: [clusterRole('reader', read)],
      roleBindings: [
        rb('ns-a', 'as-sa', { kind: 'ClusterRole', name: 'reader' }, [SA('ops', 'helper')]),
        rb('ns-b', 'as-group', { kind: 'ClusterRole', name: 'reader' }, [Group('system:serviceaccounts:ops')]),
        rb('ns-c', 'as-user', { kind: 'ClusterRole', name: 'reader' }, [User('system:serviceaccount:ops:helper')]),
        rb('ns-d', 'someone-else', { kind: 'ClusterRole', name: 'reader' }, [SA('ops', 'other')]),
      ],
    });
    const d = diffFor(state, {
      persona: 'tenant',
      identity: { kind: 'ServiceAccount', namespace: 'ops', name: 'helper', create: false },
      drivers: [],
      namespace: 'ops',
    });
    expect(d.toRemove.map((g) => `${g.namespace} ${g.binding.name}`)).toEqual(['ns-a as-sa', 'ns-b as-group', 'ns-c as-user']);
  });
});
