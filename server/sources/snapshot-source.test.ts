import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SnapshotError } from '@/lib/k8s/snapshot-error';

import { DEFAULT_MAX_SNAPSHOT_BYTES, MAX_SNAPSHOT_BYTES_ENV, loadSnapshot, loadSnapshotFromText } from './snapshot-source';

const fixtureFolder = join(import.meta.dirname, '__fixtures__', 'snapshot-folder');

async function rejection(promise: Promise<unknown>): Promise<SnapshotError> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof SnapshotError) return e;
    throw e;
  }
  throw new Error('expected a SnapshotError');
}

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'dra-posture-snapshot-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('loadSnapshot: folders', () => {
  it('reads .json, .yaml and .yml files recursively in path order, skipping hidden entries and other files', async () => {
    const state = await loadSnapshot(fixtureFolder);
    expect(state.source).toEqual({ kind: 'snapshot', name: 'fixture-cluster', kubernetesVersion: 'v1.36.3', collectedAt: '2026-07-01T10:00:00Z' });
    expect(state.clusterRoles.map((r) => r.metadata.name)).toEqual(['dra-driver']);
    expect(state.clusterRoleBindings[0].subjects).toEqual([{ kind: 'ServiceAccount', name: 'gpu-driver', namespace: 'gpu-operator' }]);
    // workloads/pods.json sorts before workloads/z-more-pods.yml.
    expect(state.pods.map((p) => p.metadata.name)).toEqual(['gpu-driver-abcde', 'trainer-0']);
    expect(state.namespaces).toEqual([]);
    expect(state.warnings).toEqual(['dropped 1 Secret object: Secrets are never loaded']);
    expect(JSON.stringify(state)).not.toContain('CANARY-9f2');
  });

  it('names the source after the folder when no ClusterInfo says otherwise, and `name` wins over both', async () => {
    writeFileSync(join(tmp, 'a.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n');
    const state = await loadSnapshot(tmp);
    expect(state.source).toEqual({ kind: 'snapshot', name: tmp.split('/').pop() });
    expect((await loadSnapshot(fixtureFolder, { name: 'chosen' })).source.name).toBe('chosen');
  });

  it('errors name the file relative to the folder and the document', async () => {
    mkdirSync(join(tmp, 'rbac'));
    writeFileSync(
      join(tmp, 'rbac', 'bad.yaml'),
      'apiVersion: v1\nkind: Namespace\nmetadata: {name: ok}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: x}\nrules:\n  - verbs: get\n',
    );
    const error = await rejection(loadSnapshot(tmp));
    expect(error.message).toBe('rbac/bad.yaml: document 2 (ClusterRole "x"): rules[0].verbs: expected an array of strings (got a string)');
    const skipped = await loadSnapshot(tmp, { onInvalid: 'skip' });
    expect(skipped.namespaces.map((n) => n.metadata.name)).toEqual(['ok']);
    expect(skipped.warnings).toEqual([
      'skipped invalid object: rbac/bad.yaml: document 2 (ClusterRole "x"): rules[0].verbs: expected an array of strings (got a string)',
    ]);
  });

  it('an empty folder, or one without snapshot files, is a clear error', async () => {
    const empty = await rejection(loadSnapshot(tmp));
    expect(empty.message).toBe(`no .json, .yaml or .yml files in snapshot folder ${tmp.split('/').pop()}`);
    writeFileSync(join(tmp, 'README.md'), '# nothing');
    mkdirSync(join(tmp, 'sub'));
    expect((await rejection(loadSnapshot(tmp))).message).toBe(empty.message);
  });

  it('a missing path is not_found', async () => {
    const error = await rejection(loadSnapshot(join(tmp, 'nope')));
    expect([error.code, error.message]).toEqual(['not_found', 'snapshot path not found: nope']);
  });

  it('does not follow symlinks inside a folder', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'dra-posture-outside-'));
    try {
      writeFileSync(join(outside, 'secret.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: outside}\n');
      writeFileSync(join(tmp, 'a.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: inside}\n');
      symlinkSync(join(outside, 'secret.yaml'), join(tmp, 'link.yaml'));
      symlinkSync(outside, join(tmp, 'linked-dir'));
      const state = await loadSnapshot(tmp);
      expect(state.namespaces.map((n) => n.metadata.name)).toEqual(['inside']);
      expect(state.warnings).toEqual([
        'skipped symlink link.yaml: symlinks in snapshot folders are not followed',
        'skipped symlink linked-dir: symlinks in snapshot folders are not followed',
      ]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

describe('loadSnapshot: size cap', () => {
  it('checks the total size before reading anything', async () => {
    // A sparse 300 MiB file: reading it would take seconds and allocate it all.
    const big = join(tmp, 'huge.json');
    writeFileSync(big, '');
    truncateSync(big, 300 * 1024 * 1024);
    const start = performance.now();
    const error = await rejection(loadSnapshot(big));
    expect(performance.now() - start).toBeLessThan(500);
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(
      `snapshot huge.json is 300.0 MiB (314572800 bytes), over the limit of 256.0 MiB (${DEFAULT_MAX_SNAPSHOT_BYTES} bytes); ` +
        `raise it with --max-snapshot-bytes (CLI), the maxBytes option or the ${MAX_SNAPSHOT_BYTES_ENV} environment variable`,
    );
  });

  it('sums the files of a folder against maxBytes', async () => {
    writeFileSync(join(tmp, 'a.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }));
    writeFileSync(join(tmp, 'b.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } }));
    const total = 2 * JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }).length;
    expect((await loadSnapshot(tmp, { maxBytes: total })).namespaces.length).toBe(2);
    const error = await rejection(loadSnapshot(tmp, { maxBytes: total - 1 }));
    expect(error.code).toBe('too_large');
    expect(error.message.startsWith(`snapshot folder ${tmp.split('/').pop()} is ${total} bytes (${total} bytes), over the limit of ${total - 1} bytes`)).toBe(
      true,
    );
  });

  it('takes the default cap from the environment', async () => {
    writeFileSync(join(tmp, 'a.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }));
    vi.stubEnv(MAX_SNAPSHOT_BYTES_ENV, '10');
    expect((await rejection(loadSnapshot(tmp))).code).toBe('too_large');
  });
});

describe('loadSnapshotFromText (uploads)', () => {
  const upload = [
    'apiVersion: v1',
    'kind: Pod',
    'metadata: {name: p, namespace: tenant-a}',
    'spec:',
    '  containers:',
    '    - name: c',
    '      env: [{name: TOKEN, value: CANARY-9f2-upload}]',
    '---',
    'apiVersion: v1',
    'kind: Secret',
    'metadata: {name: s, namespace: tenant-a}',
    'data: {k: Q0FOQVJZ}',
    '',
  ].join('\n');

  it('parses, normalises and drops Secrets like a file on disk', () => {
    const state = loadSnapshotFromText(upload, 'upload.yaml');
    expect(state.source).toEqual({ kind: 'snapshot', name: 'upload.yaml' });
    expect(state.pods[0].spec.containers[0].env).toEqual([{ name: 'TOKEN' }]);
    expect(state.warnings).toEqual(['dropped 1 Secret object: Secrets are never loaded']);
    const text = JSON.stringify(state);
    expect(text).not.toContain('CANARY-9f2');
    expect(text).not.toContain('Q0FOQVJZ');
  });

  it('applies the byte cap to bytes and to text', () => {
    const bytes = new TextEncoder().encode(upload);
    expect(loadSnapshotFromText(bytes, 'u.yaml', { maxBytes: bytes.length }).pods.length).toBe(1);
    const error = (() => {
      try {
        loadSnapshotFromText(upload, 'u.yaml', { maxBytes: 100 });
      } catch (e) {
        return e as SnapshotError;
      }
      throw new Error('expected an error');
    })();
    expect([error.code, error.message.startsWith(`snapshot u.yaml is ${bytes.length} bytes`)]).toEqual(['too_large', true]);
  });
});
