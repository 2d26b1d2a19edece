import { beforeAll, describe, expect, it } from 'vitest';
import { driftDigestOf } from '@/lib/compliance/drift-digest';
import { objectsJsonChunks } from '@/lib/compliance/objects-json';
import { permissionLinesOfObjectsJson } from '@/lib/compliance/objects-json-permissions';
import { permissionInputsOf } from '@/lib/compliance/permission-inputs';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { loadDemo } from './demo-source';
import { openBundle } from './bundle-source';
import { bundleDriftDigest, decodeDriftDigest, encodeDriftDigest } from './bundle-drift-digest';
import { bundleToBytes, makeBundle } from '@/server/compliance/write-bundle';

// The digest read from a bundle (its report, and from objects.json only the RBAC, API server pods,
// node and driver names) is the digest of the bundle opened whole.

let demo: ClusterState;
let bytes: Uint8Array;

beforeAll(async () => {
  demo = await loadDemo();
  bytes = bundleToBytes(await makeBundle(demo, { createdAt: '2026-01-02T03:04:05.000Z' })).bytes;
});

const encode = (text: string) => new TextEncoder().encode(text);

describe('bundleDriftDigest', () => {
  it('equals the digest of the bundle opened whole, and survives the store encoding', () => {
    const opened = openBundle(bytes, 'demo.tar');
    const digest = bundleDriftDigest(bytes, 'demo.tar');
    expect(digest).toEqual(driftDigestOf(opened.report, opened.state));
    expect(digest.permissions.drivers.length).toBeGreaterThan(0);
    expect(digest.permissions.nodes).toEqual(demo.nodes.map((n) => n.metadata.name).sort());
    expect(decodeDriftDigest(encodeDriftDigest(digest))).toEqual(digest);
  });

  it('refuses a bundle that does not verify', () => {
    const damaged = new Uint8Array(bytes);
    damaged[damaged.length - 2048] ^= 1;
    expect(() => bundleDriftDigest(damaged, 'damaged.tar')).toThrow(/damaged\.tar|bundle does not verify/);
  });
});

describe('permissionLinesOfObjectsJson', () => {
  it('keeps RBAC, ClusterInfo and API server pods whole, node and driver names only, and no other object', () => {
    const lines = permissionLinesOfObjectsJson(encode([...objectsJsonChunks(demo)].join('')))!;
    const kinds = lines.objects.map((o) => (JSON.parse(o) as { kind: string }).kind);
    const rbac = demo.roles.length + demo.clusterRoles.length + demo.roleBindings.length + demo.clusterRoleBindings.length;
    const apiServers = demo.pods.filter((p) => p.metadata.namespace === 'kube-system' && p.metadata.name.startsWith('kube-apiserver'));
    expect(kinds.filter((k) => k !== 'Pod' && k !== 'ClusterInfo')).toHaveLength(rbac);
    expect(kinds.filter((k) => k === 'ClusterInfo')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'Pod').length).toBeGreaterThanOrEqual(apiServers.length);
    expect(kinds.filter((k) => k === 'Pod').length).toBeLessThan(demo.pods.length);
    expect([...lines.nodes].sort()).toEqual(permissionInputsOf(demo).nodes);
    expect([...lines.drivers].sort()).toEqual(permissionInputsOf(demo).drivers);
  });

  it('leaves any other layout to the ordinary parser', () => {
    const text = [...objectsJsonChunks(demo)].join('');
    expect(permissionLinesOfObjectsJson(encode(JSON.stringify(JSON.parse(text), null, 2)))).toBeUndefined();
    expect(permissionLinesOfObjectsJson(encode(text.replace(',\n', '\n')))).toBeUndefined();
    expect(permissionLinesOfObjectsJson(encode(text.slice(0, -2)))).toBeUndefined();
  });
});

describe('permissionLinesOfObjectsJson, a slice of lines at a time', () => {
  it('reads the same whatever the slice size', () => {
    const bytes = encode([...objectsJsonChunks(demo)].join(''));
    const whole = permissionLinesOfObjectsJson(bytes, bytes.length);
    for (const size of [1, 100, 4096]) expect(permissionLinesOfObjectsJson(bytes, size)).toEqual(whole);
  });
});
