import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_DIR_ENV, buildParsedDemo, findDemo, loadDemo, parseDemo } from './demo-source';
import { parsedDemoPath, readParsedDemo, writeParsedDemo, type ParsedDemo } from './parsed-demo';

// The demo parsed once at build time (issue #26): the build's file answers only for the exact demo
// files it was made from; any edit, new or removed file sends the loader back to the YAML.

const ROOT = join(import.meta.dirname, '..', '..');
const fixtureDemo = join(import.meta.dirname, '__fixtures__', 'demo');

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'dra-posture-parsed-demo-'));
  vi.stubEnv(DEMO_DIR_ENV, '');
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

const namespaces = async (location: Parameters<typeof loadDemo>[0]) => (await loadDemo(location)).namespaces.map((n) => n.metadata.name);

describe('the parsed demo', () => {
  it('gives the same cluster as parsing the bundled demo YAML', async () => {
    const location = findDemo(ROOT)!;
    const out = join(tmp, 'demo-cluster.json');
    await writeParsedDemo(location, parseDemo, out);
    const parsed = await readParsedDemo(location, out);
    expect(parsed).toBeDefined();
    const fromYaml = await parseDemo(location);
    expect(parsed!.items.length).toBeGreaterThan(100);
    // Through JSON and back, nothing is lost: the same documents, metadata and warnings.
    expect({ info: parsed!.info, items: parsed!.items, warnings: parsed!.warnings }).toEqual(fromYaml);
  });

  it('is read when it was made from exactly these files, and the YAML otherwise', async () => {
    const demoDir = join(tmp, 'demo');
    cpSync(fixtureDemo, demoDir, { recursive: true });
    const location = findDemo(tmp)!;
    const out = parsedDemoPath(location);
    expect(out).toBe(join(tmp, 'dist', 'cli', 'demo-cluster.json'));
    expect(await buildParsedDemo(demoDir, out)).toEqual([
      join(demoDir, 'cluster.yaml'),
      join(demoDir, 'manifests', 'platform', 'driver.yaml'),
      join(demoDir, 'manifests', 'tenants', 'tenant-a.yaml'),
    ]);
    // Marks the build's file so the test can tell which one answered.
    const file = JSON.parse(readFileSync(out, 'utf8')) as ParsedDemo;
    const marked = JSON.parse(JSON.stringify(file).replaceAll('"tenant-a"', '"from-the-build"')) as ParsedDemo;
    writeFileSync(out, JSON.stringify(marked));
    const fromBuild = ['gpu-operator', 'from-the-build'];
    const fromYaml = ['gpu-operator', 'tenant-a'];
    expect(await namespaces({ location })).toEqual(fromBuild);
    expect((await loadDemo({ location })).source).toEqual({ kind: 'demo', name: 'fixture-demo', kubernetesVersion: 'v1.36.3' });

    // An edited manifest (one byte): the YAML answers, until the file is as it was.
    const tenant = join(demoDir, 'manifests', 'tenants', 'tenant-a.yaml');
    const original = readFileSync(tenant, 'utf8');
    writeFileSync(tenant, original.replace('tenant: a', 'tenant: b'));
    expect(await namespaces({ location })).toEqual(fromYaml);
    writeFileSync(tenant, original);
    expect(await namespaces({ location })).toEqual(fromBuild);

    // An edited cluster.yaml, a new manifest, a removed one.
    const clusterYaml = readFileSync(location.clusterFile!, 'utf8');
    writeFileSync(location.clusterFile!, clusterYaml.replace('fixture-demo', 'renamed'));
    expect((await loadDemo({ location })).source.name).toBe('renamed');
    writeFileSync(location.clusterFile!, clusterYaml);
    writeFileSync(join(demoDir, 'manifests', 'extra.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: extra\n');
    expect(await namespaces({ location })).toEqual(['extra', 'gpu-operator', 'tenant-a']);
    unlinkSync(join(demoDir, 'manifests', 'extra.yaml'));
    expect(await namespaces({ location })).toEqual(fromBuild);
    unlinkSync(tenant);
    expect(await namespaces({ location })).toEqual(['gpu-operator']);
    writeFileSync(tenant, original);

    // A file of another format version, or not JSON: ignored.
    writeFileSync(out, JSON.stringify({ ...marked, format: 0 }));
    expect(await namespaces({ location })).toEqual(fromYaml);
    writeFileSync(out, '{"format":');
    expect(await namespaces({ location })).toEqual(fromYaml);
  });
});
