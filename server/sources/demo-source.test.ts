import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SnapshotError } from '@/lib/k8s/snapshot-error';

import { DEMO_DIR_ENV, findDemo, loadDemo, loadDemoInfo } from './demo-source';

// The real demo/ is written by someone else; these tests use a small stand-in of the same layout.
const fixtureDemo = join(import.meta.dirname, '__fixtures__', 'demo');

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'dra-posture-demo-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('loadDemo', () => {
  it('loads the manifests with the metadata of cluster.yaml as a demo source', async () => {
    vi.stubEnv(DEMO_DIR_ENV, fixtureDemo);
    const state = await loadDemo();
    expect(state.source).toEqual({ kind: 'demo', name: 'fixture-demo', kubernetesVersion: 'v1.36.3' });
    // platform/ sorts before tenants/.
    expect(state.namespaces.map((n) => n.metadata.name)).toEqual(['gpu-operator', 'tenant-a']);
    expect(state.deviceClasses.map((d) => d.metadata.name)).toEqual(['gpu.nvidia.com']);
    expect(state.resourceClaimTemplates[0].spec.spec.devices?.requests?.[0].exactly?.deviceClassName).toBe('gpu.nvidia.com');
    expect(state.warnings).toEqual([]);
  });

  it('fails on an invalid manifest instead of skipping it', async () => {
    cpSync(fixtureDemo, join(tmp, 'demo'), { recursive: true });
    writeFileSync(join(tmp, 'demo', 'manifests', 'broken.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: 5}\n');
    const error = await loadDemo({ location: findDemo(tmp) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as SnapshotError).message).toBe('broken.yaml: document 1 (Namespace): metadata.name: expected a string (got a number)');
  });

  it('says how to point at the demo when it cannot be found', async () => {
    vi.stubEnv(DEMO_DIR_ENV, join(tmp, 'missing'));
    const error = (await loadDemo().catch((e: unknown) => e)) as SnapshotError;
    expect(error.code).toBe('not_found');
    expect(error.message).toBe(
      `the demo cluster was not found: no demo/manifests folder in the working directory or above it; set ${DEMO_DIR_ENV} to the demo folder`,
    );
  });
});

describe('findDemo', () => {
  it('walks up from the working directory to the folder holding demo/manifests', () => {
    vi.stubEnv(DEMO_DIR_ENV, '');
    cpSync(fixtureDemo, join(tmp, 'demo'), { recursive: true });
    mkdirSync(join(tmp, 'app', 'nested'), { recursive: true });
    expect(findDemo(join(tmp, 'app', 'nested'))).toEqual({ manifests: join(tmp, 'demo', 'manifests'), clusterFile: join(tmp, 'demo', 'cluster.yaml') });
  });

  it('takes the environment variable first: a demo folder or directly a manifests folder', () => {
    vi.stubEnv(DEMO_DIR_ENV, fixtureDemo);
    expect(findDemo(tmp)).toEqual({ manifests: join(fixtureDemo, 'manifests'), clusterFile: join(fixtureDemo, 'cluster.yaml') });
    vi.stubEnv(DEMO_DIR_ENV, join(fixtureDemo, 'manifests'));
    expect(findDemo(tmp)).toEqual({ manifests: join(fixtureDemo, 'manifests'), clusterFile: undefined });
  });
});

describe('loadDemoInfo', () => {
  it('defaults the name when there is no cluster.yaml and checks field types', async () => {
    expect(await loadDemoInfo({ manifests: tmp })).toEqual({ name: 'demo' });
    const clusterFile = join(tmp, 'cluster.yaml');
    writeFileSync(clusterFile, 'name: x\nkubernetesVersion: 1.36\n');
    const error = (await loadDemoInfo({ manifests: tmp, clusterFile }).catch((e: unknown) => e)) as SnapshotError;
    expect(error.message).toBe('cluster.yaml: document 1: kubernetesVersion: expected a string');
  });
});
