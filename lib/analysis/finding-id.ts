import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import { refKey } from '@/lib/k8s/refs';

// Stable finding IDs: FNV-1a (64-bit) over a canonical string of the check ID and the sorted refs
// the finding is about. Pure TypeScript (no node:crypto) so lib/ stays isomorphic.

const SEP = '\u001f';

const encoder = new TextEncoder();

const hex16 = (n: number) => n.toString(16).padStart(4, '0');

/**
 * FNV-1a 64-bit of the UTF-8 bytes of `text`, as 16 lower-case hex digits. The 64-bit state is kept
 * in four 16-bit limbs so every product stays exact in a double (BigInt was the report's hot spot).
 * The prime is 2^40 + 0x1b3: h·prime = h·0x1b3 + (h << 40).
 */
export function fnv1a64(text: string): string {
  // An ASCII text is its own UTF-8 bytes: hashed from its char codes, with no byte array per finding;
  // any other text is hashed from its encoding, one char code per byte.
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      text = byteString(encoder.encode(text));
      break;
    }
  }
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < text.length; i++) {
    h0 ^= text.charCodeAt(i);
    const t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + (h0 << 8);
    let t3 = h3 * 0x1b3 + (h1 << 8);
    t1 += t0 >>> 16;
    t2 += t1 >>> 16;
    t3 += t2 >>> 16;
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return hex16(h3) + hex16(h2) + hex16(h1) + hex16(h0);
}

/** The bytes as a string of one char code (0–255) each. */
function byteString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) out += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return out;
}

/** The refs' distinct keys, sorted and joined: sorting first, a duplicate is next to its twin (no set per finding). */
function joinedKeys(refs: readonly (SubjectRef | ObjectRef)[]): string {
  if (refs.length === 0) return '';
  if (refs.length === 1) return refKey(refs[0]);
  const keys = refs.map(refKey).sort();
  let out = keys[0];
  for (let i = 1; i < keys.length; i++) if (keys[i] !== keys[i - 1]) out += SEP + keys[i];
  return out;
}

/** The canonical text a finding ID hashes: independent of the order subjects and objects are listed in. */
export function findingIdInput(check: string, subjects: readonly SubjectRef[], objects: readonly ObjectRef[]): string {
  return `${check}\n${joinedKeys(subjects)}\n${joinedKeys(objects)}`;
}

/** A stable short hash of a check ID and the refs a finding is about. */
export function findingId(check: string, subjects: readonly SubjectRef[], objects: readonly ObjectRef[]): string {
  return fnv1a64(findingIdInput(check, subjects, objects));
}
