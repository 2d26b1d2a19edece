import 'server-only';
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { BundleSigning } from '@/lib/compliance/build-bundle';
import type { Manifest } from '@/lib/compliance/bundle-format';
import type { SignatureCheck } from '@/lib/compliance/verify-bundle';

// ed25519 over manifest.json's bytes, keys as PEM files (PKCS#8 private, SPKI public), the same
// raw signature `openssl pkeyutl -sign -rawin` makes.

export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

async function readKey(path: string, kind: 'private' | 'public'): Promise<KeyObject> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new KeyFileError(`cannot read key file ${basename(path)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  } catch {
    throw new KeyFileError(`${basename(path)} is not a PEM ${kind} key`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new KeyFileError(`${basename(path)} is a ${key.asymmetricKeyType} key; bundles are signed with ed25519`);
  return key;
}

export function publicKeySha256(key: KeyObject): string {
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

export async function loadSigningKey(path: string): Promise<BundleSigning> {
  const privateKey = await readKey(path, 'private');
  const publicKey = createPublicKey(privateKey);
  return {
    signer: { publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(), publicKeySha256: publicKeySha256(publicKey) },
    sign: (message) => new Uint8Array(sign(null, message, privateKey)),
  };
}

/** Reads a trusted public key file for signatureCheck. */
export function readPublicKey(path: string): Promise<KeyObject> {
  return readKey(path, 'public');
}

/**
 * With a trusted public key: the signature must verify with it. Without one: it is checked against
 * the key the manifest names, which proves integrity but not who signed.
 */
export function signatureCheck(trusted?: KeyObject): (message: Uint8Array, signature: Uint8Array, manifest: Manifest | undefined) => SignatureCheck {
  return (message, signature, manifest) => {
    let key = trusted;
    if (!key) {
      if (!manifest?.signer?.publicKey) return { ok: false, detail: 'signed, but the manifest names no signer key' };
      try {
        key = createPublicKey(manifest.signer.publicKey);
      } catch {
        return { ok: false, detail: 'the signer key in the manifest is not a valid public key' };
      }
    }
    const fingerprint = publicKeySha256(key);
    let ok = false;
    try {
      ok = signature.byteLength === 64 && verify(null, message, key, signature);
    } catch {
      ok = false;
    }
    if (!ok)
      return { ok: false, detail: `the signature does not verify with ${trusted ? 'the given key' : "the manifest's signer key"} (sha256 ${fingerprint})` };
    if (trusted) return { ok: true, detail: `signature valid: signed by the given key (sha256 ${fingerprint})` };
    return { ok: true, detail: `signature valid for the signer key in the manifest (sha256 ${fingerprint}); pass --key to check who signed` };
  };
}
