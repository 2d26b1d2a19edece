import 'server-only';
import type { KeyObject } from 'node:crypto';
import { verifyBundle, type VerifyBundleResult } from '@/lib/compliance/verify-bundle';
import { nodeSha256 } from './node-sha256';
import { signatureCheck } from './signing';

const USTAR = [0x75, 0x73, 0x74, 0x61, 0x72, 0x00]; // "ustar\0" at offset 257

/** A tar archive (what bundles are); snapshot loaders use this to tell bundles from JSON or YAML. */
export function looksLikeBundle(bytes: Uint8Array): boolean {
  if (bytes.byteLength < 512) return false;
  return USTAR.every((b, i) => bytes[257 + i] === b);
}

/** Verifies every digest and, when present (or when a trusted key is given), the signature. */
export function verifyBundleBytes(bytes: Uint8Array, trustedKey?: KeyObject): VerifyBundleResult {
  return verifyBundle(bytes, { sha256: nodeSha256, checkSignature: signatureCheck(trustedKey), requireSignature: trustedKey !== undefined });
}
