import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { readTar } from '@/lib/compliance/tar';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReport } from '@/lib/report/build-report';
import { reportJsonChunks } from '@/lib/report/report-json';
import type { Report } from '@/lib/analysis/types';
import { loadDemo } from '@/server/sources/demo-source';
import { loadSnapshot, loadSnapshotFromText } from '@/server/sources/snapshot-source';
import { verifyBundleBytes } from './read-bundle';
import { readPublicKey } from './signing';
import { bundleToBytes, makeBundle, writeBundleFile } from './write-bundle';

// Export → verify → import on the bundled demo, and tampering of each part.

const dir = mkdtempSync(join(tmpdir(), 'dra-bundle-'));
let demo: ClusterState;
let unsigned: Uint8Array;
let signed: Uint8Array;
const privatePath = join(dir, 'key.pem');
const publicPath = join(dir, 'key.pub.pem');
const otherPublicPath = join(dir, 'other.pub.pem');

function writeKeys(): void {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicPath, publicKey.export({ type: 'spki', format: 'pem' }));
  writeFileSync(otherPublicPath, generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }));
}

beforeAll(async () => {
  writeKeys();
  demo = await loadDemo();
  unsigned = bundleToBytes(await makeBundle(demo, { createdAt: '2026-01-02T03:04:05.000Z' })).bytes;
  signed = bundleToBytes(await makeBundle(demo, { createdAt: '2026-01-02T03:04:05.000Z', keyPath: privatePath })).bytes;
});

function entry(bytes: Uint8Array, name: string): Uint8Array {
  const e = readTar(bytes).find((x) => x.name === name);
  if (!e) throw new Error(`no ${name}`);
  return bytes.subarray(e.dataOffset, e.dataOffset + e.size);
}

/** A copy with one byte of `name` changed, at the first occurrence of `needle` in it (or `at`). */
function tamper(bytes: Uint8Array, name: string, where: { needle?: string; at?: number }): Uint8Array {
  const copy = new Uint8Array(bytes);
  const e = readTar(copy).find((x) => x.name === name)!;
  const text = Buffer.from(copy.subarray(e.dataOffset, e.dataOffset + e.size));
  const offset = where.needle !== undefined ? text.indexOf(where.needle) : (where.at ?? 0);
  expect(offset).toBeGreaterThanOrEqual(0);
  const i = e.dataOffset + offset;
  copy[i] = copy[i] === 0x61 ? 0x62 : 0x61;
  return copy;
}

const problemEntries = (bytes: Uint8Array, key?: Parameters<typeof verifyBundleBytes>[1]) => verifyBundleBytes(bytes, key).problems.map((p) => p.entry);

describe('compliance bundle', () => {
  it('verifies as written, signed or not, and SHA256SUMS holds for sha256sum', () => {
    expect(verifyBundleBytes(unsigned)).toMatchObject({ ok: true, problems: [] });
    expect(verifyBundleBytes(signed)).toMatchObject({ ok: true, problems: [] });
    const out = mkdtempSync(join(dir, 'x-'));
    writeFileSync(join(out, 'b.tar'), signed);
    execFileSync('tar', ['-xf', 'b.tar'], { cwd: out });
    expect(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out, encoding: 'utf8' })).toMatch(/manifest.json: OK/);
    // The signature is the raw ed25519 one openssl checks.
    expect(
      execFileSync('openssl', ['pkeyutl', '-verify', '-pubin', '-inkey', publicPath, '-rawin', '-in', 'manifest.json', '-sigfile', 'manifest.sig'], {
        cwd: out,
        encoding: 'utf8',
      }),
    ).toMatch(/Signature Verified Successfully/);
  });

  it('is the same bytes for the same cluster and time', async () => {
    const again = bundleToBytes(await makeBundle(await loadDemo(), { createdAt: '2026-01-02T03:04:05.000Z' })).bytes;
    expect(Buffer.compare(Buffer.from(again), Buffer.from(unsigned))).toBe(0);
  });

  it('holds the report of the cluster, its objects without Secrets, and metadata', () => {
    // report.json is the report exactly as `report -o json` prints it.
    expect(Buffer.from(entry(unsigned, ENTRY.report)).toString('utf8')).toBe(`${[...reportJsonChunks(buildReport(demo))].join('\n')}\n`);
    const objects = JSON.parse(Buffer.from(entry(unsigned, ENTRY.objects)).toString('utf8'));
    expect(objects.kind).toBe('List');
    expect(objects.items.some((o: { kind: string }) => o.kind === 'Secret')).toBe(false);
    expect(objects.items.filter((o: { kind: string }) => o.kind === 'ClusterRoleBinding').length).toBe(demo.clusterRoleBindings.length);
    const metadata = JSON.parse(Buffer.from(entry(unsigned, ENTRY.metadata)).toString('utf8'));
    expect(metadata).toMatchObject({
      kubernetesVersion: 'v1.36.3',
      createdAt: '2026-01-02T03:04:05.000Z',
      tool: { name: 'dra-posture' },
      authorizers: ['Node', 'RBAC'],
    });
    expect(metadata.settings.quotaHighWatermark).toBe(0.9);
    const html = Buffer.from(entry(unsigned, ENTRY.html)).toString('utf8');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<svg');
  });

  it('imports as a snapshot source with byte-identical findings (file and upload)', async () => {
    const file = join(dir, 'demo.tar');
    writeFileSync(file, signed);
    const exported = JSON.parse(Buffer.from(entry(signed, ENTRY.report)).toString('utf8')) as Report;
    const fromFile = buildReport(await loadSnapshot(file));
    const fromUpload = buildReport(loadSnapshotFromText(signed, 'demo.tar'));
    expect(JSON.stringify(fromFile.findings)).toBe(JSON.stringify(exported.findings));
    expect(JSON.stringify(fromUpload.findings)).toBe(JSON.stringify(exported.findings));
    // Everything but the source kind and name is the same report.
    const strip = (r: Report) => JSON.stringify({ ...r, source: { ...r.source, kind: 'x', name: 'x' } });
    expect(strip(fromFile)).toBe(strip(exported));
    expect(fromFile.source).toMatchObject({ kind: 'snapshot', name: 'demo.tar', kubernetesVersion: 'v1.36.3' });
  });

  it('names the changed entry: an object, the report, the manifest, SHA256SUMS, the signature', () => {
    expect(problemEntries(tamper(signed, ENTRY.objects, { needle: 'tenant-a' }))).toEqual([ENTRY.objects]);
    expect(problemEntries(tamper(signed, ENTRY.report, { needle: '"critical"' }))).toEqual([ENTRY.report]);
    expect(problemEntries(tamper(signed, ENTRY.html, { needle: '<h1>' }))).toEqual([ENTRY.html]);
    // A digest in the manifest: the manifest is named, not the entry it lists; the signature breaks with it.
    const reportDigest = JSON.parse(Buffer.from(entry(signed, ENTRY.manifest)).toString('utf8')).entries[1].sha256 as string;
    expect(problemEntries(tamper(signed, ENTRY.manifest, { needle: reportDigest }))).toEqual([ENTRY.manifest, ENTRY.signature]);
    expect(problemEntries(tamper(unsigned, ENTRY.manifest, { needle: '2026-01-02' }))).toEqual([ENTRY.manifest]);
    expect(problemEntries(tamper(unsigned, ENTRY.sums, { needle: 'a' }))).toEqual([ENTRY.sums]);
    expect(problemEntries(tamper(signed, ENTRY.signature, { at: 10 }))).toEqual([ENTRY.signature]);
  });

  it('fails on any changed byte anywhere in the file', () => {
    // Every 199th byte (and every byte of each header block) of the bundle, one at a time.
    const headers = readTar(unsigned).flatMap((e) => Array.from({ length: 512 }, (_, i) => e.headerOffset + i));
    const offsets = new Set([...headers, ...Array.from({ length: Math.ceil(unsigned.length / 199) }, (_, i) => i * 199), unsigned.length - 1]);
    const survived: number[] = [];
    for (const offset of offsets) {
      const copy = new Uint8Array(unsigned);
      copy[offset] ^= 0x01;
      if (verifyBundleBytes(copy).ok) survived.push(offset);
    }
    expect(survived).toEqual([]);
    expect(verifyBundleBytes(Buffer.concat([unsigned, Buffer.alloc(512)])).problems[0].message).toMatch(/end of the archive/);
    // Thousands of whole-bundle verifications: ~8 s alone, over the default 20 s on a loaded machine.
  }, 120_000);

  it('checks the signature against a trusted key', async () => {
    const trusted = await readPublicKey(publicPath);
    const result = verifyBundleBytes(signed, trusted);
    expect(result.ok).toBe(true);
    expect(result.notes.join('\n')).toMatch(/signed by the given key/);
    expect(verifyBundleBytes(signed, await readPublicKey(otherPublicPath)).problems).toEqual([
      { entry: ENTRY.signature, message: expect.stringMatching(/does not verify with the given key/) },
    ]);
    expect(problemEntries(unsigned, trusted)).toEqual([ENTRY.signature]);
  });

  it('refuses to import a tampered bundle, naming the entry', () => {
    expect(() => loadSnapshotFromText(tamper(signed, ENTRY.objects, { needle: 'tenant-a' }), 'bad.tar')).toThrow(/bad\.tar.*objects\.json: content changed/);
  });

  it('writes the file atomically', async () => {
    const out = join(dir, 'written.tar');
    const { size, fingerprint } = await writeBundleFile(await makeBundle(demo, { createdAt: '2026-01-02T03:04:05.000Z' }), out);
    const bytes = readFileSync(out);
    expect(bytes.length).toBe(size);
    expect(verifyBundleBytes(bytes).fingerprint).toBe(fingerprint);
    expect(Buffer.compare(bytes, Buffer.from(unsigned))).toBe(0);
  });
});
