import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { readTar } from '@/lib/compliance/tar';
import { countPdfPages } from '@/server/compliance/html-to-pdf';
import { runCli as run } from '../__fixtures__/run-cli';

// `dra-posture export` and `verify`: files, exit codes and messages, with real keys and Chromium.

const dir = mkdtempSync(join(tmpdir(), 'dra-export-'));

function keys(): { priv: string; pub: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const priv = join(dir, `k${Math.random().toString(36).slice(2)}.pem`);
  const pub = `${priv}.pub`;
  writeFileSync(priv, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(pub, publicKey.export({ type: 'spki', format: 'pem' }));
  return { priv, pub };
}

describe('dra-posture export / verify', () => {
  it('exports a signed bundle that verifies with the key, and fails with a changed byte', async () => {
    const { priv, pub } = keys();
    const out = join(dir, 'signed.tar');
    const e = await run('export', '--demo', '--out', out, '--key', priv);
    expect(e.code).toBe(0);
    expect(e.out).toMatch(/wrote .*signed\.tar .*62 findings.*signed; manifest sha256 [0-9a-f]{64}/);
    const v = await run('verify', out, '--key', pub);
    expect(v).toMatchObject({ code: 0, err: '' });
    expect(v.out).toMatch(/verified: 6 entries match the manifest/);
    expect(v.out).toMatch(/signed by the given key/);

    const bytes = new Uint8Array(readFileSync(out));
    const report = readTar(bytes).find((x) => x.name === ENTRY.report)!;
    bytes[report.dataOffset + 40] ^= 0x20;
    const bad = join(dir, 'tampered.tar');
    writeFileSync(bad, bytes);
    const t = await run('verify', bad, '--key', pub);
    expect(t.code).toBe(1);
    expect(t.err).toMatch(/^tampered\.tar: report\.json: content changed/m);
    expect(t.err).toMatch(/NOT VERIFIED \(1 problem\)/);
  });

  it('fails verify with another key or no signature when a key is given', async () => {
    const { priv } = keys();
    const other = keys();
    const out = join(dir, 'k.tar');
    expect((await run('export', '--demo', '--out', out, '--key', priv)).code).toBe(0);
    const v = await run('verify', out, '--key', other.pub);
    expect(v.code).toBe(1);
    expect(v.err).toMatch(/manifest\.sig: the signature does not verify with the given key/);
    const plain = join(dir, 'plain.tar');
    expect((await run('export', '--demo', '--out', plain)).code).toBe(0);
    expect((await run('verify', plain)).code).toBe(0);
    expect((await run('verify', plain, '--key', other.pub)).err).toMatch(/manifest\.sig: missing/);
  });

  it('usage errors exit 2 with one line and leave no file', async () => {
    const out = join(dir, 'none.tar');
    expect(await run('export', '--demo')).toMatchObject({ code: 2, err: expect.stringMatching(/--out FILE is required/) });
    const notAKey = join(dir, 'not-a-key.pem');
    writeFileSync(notAKey, 'hello');
    expect(await run('export', '--demo', '--out', out, '--key', notAKey)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--key: not-a-key\.pem is not a PEM private key/),
    });
    expect(existsSync(out)).toBe(false);
    expect(await run('verify')).toMatchObject({ code: 2 });
    expect(await run('verify', join(dir, 'missing.tar'))).toMatchObject({ code: 2, err: expect.stringMatching(/no such bundle file/) });
    const notBundle = join(dir, 'list.json');
    writeFileSync(notBundle, '{"kind":"List","items":[]}');
    expect(await run('verify', notBundle)).toMatchObject({ code: 1, err: expect.stringMatching(/archive: not a readable dra-posture bundle/) });
  });

  it('--pdf adds report.pdf printed by Chromium, within the expected page range', async () => {
    const out = join(dir, 'pdf.tar');
    const e = await run('export', '--demo', '--out', out, '--pdf');
    expect(e.code).toBe(0);
    expect(e.out).toMatch(/7 entries/);
    const bytes = new Uint8Array(readFileSync(out));
    const pdf = readTar(bytes).find((x) => x.name === ENTRY.pdf)!;
    const pdfBytes = bytes.subarray(pdf.dataOffset, pdf.dataOffset + pdf.size);
    expect(Buffer.from(pdfBytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const pages = countPdfPages(pdfBytes);
    // Cover page, 62 findings with evidence, node table, quotas, zeroing: tens of A4 pages, not hundreds.
    expect(pages).toBeGreaterThanOrEqual(10);
    expect(pages).toBeLessThanOrEqual(60);
    expect((await run('verify', out)).code).toBe(0);
  }, 120_000);
});
