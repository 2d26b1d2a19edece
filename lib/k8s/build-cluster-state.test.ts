import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { buildClusterState, type RawItem } from './build-cluster-state';
import type { ClusterState, SourceInfo } from './cluster-state';
import { SnapshotError } from './snapshot-error';

const source: SourceInfo = { kind: 'snapshot', name: 'test' };

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(import.meta.dirname, '__fixtures__', name), 'utf8'));
}

function docs(file: string, ...values: unknown[]): RawItem[] {
  return values.map((value, document) => ({ value, origin: { file, document } }));
}

function counts(state: ClusterState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(state)) if (Array.isArray(value) && key !== 'warnings' && value.length > 0) out[key] = value.length;
  return out;
}

function errorOf(fn: () => unknown): SnapshotError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SnapshotError) return e;
    throw e;
  }
  throw new Error('expected a SnapshotError');
}

const pod = (name: string, namespace = 'tenant-a', extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { containers: [{ name: 'main' }] },
  ...extra,
});

describe('buildClusterState from `kubectl get -A -o json`', () => {
  it('sorts every item into its collection, drops Secrets and counts unknown kinds', () => {
    const state = buildClusterState(docs('cluster.json', fixture('kubectl-get-all.json')), source);
    expect(counts(state)).toEqual({
      namespaces: 1,
      configMaps: 1,
      serviceAccounts: 1,
      pods: 1,
      daemonSets: 1,
      clusterRoles: 1,
      clusterRoleBindings: 1,
      roleBindings: 1,
      resourceClaims: 1,
      deviceClasses: 1,
    });
    expect(state.warnings).toEqual([
      'dropped 1 Secret object: Secrets are never loaded',
      'ignored 3 objects of kinds dra-posture does not read: Service, Event ×2',
    ]);
    expect(state.source).toEqual({ kind: 'snapshot', name: 'test' });
  });

  it('keeps no env value, managedFields, last-applied annotation, ConfigMap value or Secret anywhere', () => {
    const raw = fixture('kubectl-get-all.json');
    expect(JSON.stringify(raw)).toContain('CANARY-9f2');
    const state = buildClusterState(docs('cluster.json', raw), source);
    const text = JSON.stringify(state);
    expect(text).not.toContain('CANARY-9f2');
    expect(text).not.toContain('managedFields');
    expect(text).not.toContain('last-applied-configuration');
    expect(text).not.toContain('Q0FOQVJZ');
    expect(state.configMaps[0].dataKeys).toEqual(['api-key', 'settings.yaml']);
    expect(state.pods[0].spec.containers[0].env).toEqual([
      { name: 'WANDB_API_KEY' },
      { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
    ]);
    expect(state.daemonSets[0].spec.template.spec.containers[0].env).toEqual([{ name: 'LICENSE' }]);
    expect(state.roleBindings[0].subjects).toEqual([]);
  });

  it('keeps the input order inside each collection', () => {
    const state = buildClusterState(docs('a.json', { apiVersion: 'v1', kind: 'List', items: [pod('c'), pod('a'), pod('b')] }), source);
    expect(state.pods.map((p) => p.metadata.name)).toEqual(['c', 'a', 'b']);
  });
});

describe('typed lists', () => {
  it('derives kind and apiVersion of items from the list', () => {
    const podList = { apiVersion: 'v1', kind: 'PodList', items: [{ metadata: { name: 'p1', namespace: 'n' }, spec: { containers: [{ name: 'c' }] } }] };
    const roleList = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleList',
      items: [{ metadata: { name: 'r', namespace: 'n' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
    };
    const claimList = {
      apiVersion: 'resource.k8s.io/v1beta1',
      kind: 'ResourceClaimList',
      items: [
        { metadata: { name: 'c', namespace: 'n' }, spec: { devices: { requests: [{ name: 'gpu', deviceClassName: 'gpu.example.com', adminAccess: true }] } } },
      ],
    };
    const state = buildClusterState(docs('lists.json', podList, roleList, claimList), source);
    expect(state.pods).toEqual([{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', namespace: 'n' }, spec: { containers: [{ name: 'c' }] } }]);
    expect(state.roles[0]).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r', namespace: 'n' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    });
    expect(state.resourceClaims[0]).toEqual({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'c', namespace: 'n' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com', adminAccess: true } }] } },
    });
    expect(state.warnings).toEqual([]);
  });

  it('drops every item of a SecretList and counts them', () => {
    const secretList = { apiVersion: 'v1', kind: 'SecretList', items: [{ metadata: { name: 'a' }, data: { k: 'Q0FOQVJZ' } }, { metadata: { name: 'b' } }] };
    const inList = { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'c' } }, pod('p')] };
    const state = buildClusterState(docs('s.json', secretList, inList), source);
    expect(state.warnings).toEqual(['dropped 3 Secret objects: Secrets are never loaded']);
    expect(state.pods.length).toBe(1);
    expect(JSON.stringify(state)).not.toContain('Q0FOQVJZ');
  });

  it('counts items of a typed list of an unknown kind', () => {
    const state = buildClusterState(
      docs('e.json', { apiVersion: 'v1', kind: 'EventList', items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }] }),
      source,
    );
    expect(state.warnings).toEqual(['ignored 2 objects of kinds dra-posture does not read: Event ×2']);
  });

  it('a plain List item needs its own kind', () => {
    const error = errorOf(() => buildClusterState(docs('l.json', { apiVersion: 'v1', kind: 'List', items: [pod('a'), { metadata: { name: 'x' } }] }), source));
    expect(error.message).toBe('l.json: document 1, item 2: kind: missing (expected a string)');
    expect([error.file, error.document, error.item, error.path]).toEqual(['l.json', 0, 1, 'kind']);
  });
});

describe('invalid objects', () => {
  const badRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'x' },
    rules: [{ apiGroups: [''], resources: ['pods'], verbs: 'get' }],
  };

  it('fails by default with the file, document, object and field', () => {
    const error = errorOf(() => buildClusterState(docs('snapshot.yaml', pod('a'), pod('b'), pod('c'), badRole), source));
    expect(error.message).toBe('snapshot.yaml: document 4 (ClusterRole "x"): rules[0].verbs: expected an array of strings (got a string)');
    expect(String(error)).toBe(error.message);
    expect([error.file, error.document, error.item, error.object, error.path]).toEqual(['snapshot.yaml', 3, undefined, 'ClusterRole "x"', 'rules[0].verbs']);
  });

  it('names the list item and the namespaced object', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [pod('ok'), pod('bad', 'tenant-b', { spec: { containers: 'main' } })] };
    expect(errorOf(() => buildClusterState(docs('dump.json', list), source)).message).toBe(
      'dump.json: document 1, item 2 (Pod "tenant-b/bad"): spec.containers: expected an array (got a string)',
    );
  });

  it('skip mode leaves the bad objects out with one warning each and loads the rest', () => {
    const state = buildClusterState(
      docs('snapshot.yaml', pod('a'), badRole, 'just text', pod('b', 'tenant-a', { metadata: { namespace: 'tenant-a' } }), pod('c')),
      source,
      { onInvalid: 'skip' },
    );
    expect(state.pods.map((p) => p.metadata.name)).toEqual(['a', 'c']);
    expect(state.clusterRoles).toEqual([]);
    expect(state.warnings).toEqual([
      'skipped invalid object: snapshot.yaml: document 2 (ClusterRole "x"): rules[0].verbs: expected an array of strings (got a string)',
      'skipped invalid object: snapshot.yaml: document 3: expected a Kubernetes object (a mapping with apiVersion and kind)',
      'skipped invalid object: snapshot.yaml: document 4 (Pod): metadata.name: missing (expected a string)',
    ]);
  });

  it('skip mode summarises past 100 skipped objects', () => {
    const many = Array.from({ length: 105 }, () => 42);
    const state = buildClusterState(docs('n.json', ...many), source, { onInvalid: 'skip' });
    expect(state.warnings.length).toBe(101);
    expect(state.warnings[100]).toBe('skipped 5 more invalid objects');
  });

  it('a known kind without apiVersion is invalid; an empty document is nothing', () => {
    const state = buildClusterState(docs('m.yaml', null, { kind: 'Pod', metadata: { name: 'p' } }), source, { onInvalid: 'skip' });
    expect(state.warnings).toEqual(['skipped invalid object: m.yaml: document 2 (Pod "p"): apiVersion: missing (expected a string)']);
  });

  it('lists inside lists are refused', () => {
    const nested = { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'List', items: [pod('p')] }] };
    expect(errorOf(() => buildClusterState(docs('n.json', nested), source)).message).toBe(
      'n.json: document 1, item 1 (List): items: lists nested in lists are not read',
    );
  });

  it('stops at the object cap whatever onInvalid says', () => {
    const error = errorOf(() =>
      buildClusterState(docs('big.json', { apiVersion: 'v1', kind: 'List', items: [pod('a'), pod('b'), pod('c')] }), source, {
        onInvalid: 'skip',
        maxObjects: 2,
      }),
    );
    expect(error.code).toBe('too_large');
    expect(error.message).toBe('big.json: document 1, item 3: more than 2 objects: this is over the object limit');
  });
});

describe('kinds, versions and duplicates', () => {
  it('ignores a known kind name from another group or an unread version', () => {
    const crdRole = { apiVersion: 'example.com/v1', kind: 'Role', metadata: { name: 'r' } };
    const alphaClaim = { apiVersion: 'resource.k8s.io/v1alpha3', kind: 'ResourceClaim', metadata: { name: 'c', namespace: 'n' }, spec: {} };
    const state = buildClusterState(docs('x.yaml', crdRole, alphaClaim), source);
    expect([state.roles.length, state.resourceClaims.length]).toEqual([0, 0]);
    expect(state.warnings).toEqual(['ignored 2 objects of kinds dra-posture does not read: Role (example.com/v1), ResourceClaim (resource.k8s.io/v1alpha3)']);
  });

  it('keeps the last copy of a duplicate in the first one’s place and warns', () => {
    const first = pod('p', 'tenant-a', { status: { phase: 'Pending' } });
    const other = pod('p', 'tenant-b');
    const last = pod('p', 'tenant-a', { status: { phase: 'Running' } });
    const items: RawItem[] = [
      { value: first, origin: { file: 'a.json', document: 0 } },
      { value: other, origin: { file: 'a.json', document: 1 } },
      { value: pod('q'), origin: { file: 'a.json', document: 2 } },
      { value: last, origin: { file: 'b.json', document: 0 } },
    ];
    const state = buildClusterState(items, source);
    expect(state.pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}:${p.status?.phase ?? '-'}`)).toEqual([
      'tenant-a/p:Running',
      'tenant-b/p:-',
      'tenant-a/q:-',
    ]);
    expect(state.warnings).toEqual(['duplicate Pod "tenant-a/p": kept the last copy (b.json, document 1)']);
  });

  it('the same name in two kinds or two namespaces is not a duplicate', () => {
    const sa = (namespace: string) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
    const state = buildClusterState(docs('d.json', sa('a'), sa('b'), sa('c'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }), source);
    expect([state.serviceAccounts.length, state.namespaces.length, state.warnings]).toEqual([3, 1, []]);
    const again = buildClusterState(docs('d.json', sa('a'), sa('b'), sa('b')), source);
    expect(again.warnings).toEqual(['duplicate ServiceAccount "b/default": kept the last copy (d.json, document 3)']);
  });

  it('a ClusterInfo document fills the source', () => {
    const info = { apiVersion: 'dra-posture.io/v1', kind: 'ClusterInfo', name: 'prod-eu', kubernetesVersion: 'v1.36.3', collectedAt: '2026-07-01T10:00:00Z' };
    const state = buildClusterState(docs('s.json', { apiVersion: 'v1', kind: 'List', items: [info, pod('p')] }), { kind: 'snapshot', name: 's.json' });
    expect(state.source).toEqual({ kind: 'snapshot', name: 'prod-eu', kubernetesVersion: 'v1.36.3', collectedAt: '2026-07-01T10:00:00Z' });
    expect(state.warnings).toEqual([]);
    const bad = { apiVersion: 'dra-posture.io/v1', kind: 'ClusterInfo', kubernetesVersion: 1.36 };
    expect(errorOf(() => buildClusterState(docs('s.json', bad), source)).message).toBe(
      's.json: document 1 (ClusterInfo): kubernetesVersion: expected a string',
    );
  });

  it('does not change the SourceInfo it was given', () => {
    const given: SourceInfo = { kind: 'snapshot', name: 'given' };
    buildClusterState(docs('s.json', { apiVersion: 'dra-posture.io/v1', kind: 'ClusterInfo', name: 'other' }), given);
    expect(given).toEqual({ kind: 'snapshot', name: 'given' });
  });
});
