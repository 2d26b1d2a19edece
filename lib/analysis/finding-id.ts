import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

// Stable finding IDs: FNV-1a (64-bit) over a canonical string of the check ID and the sorted refs
// the finding is about. Pure TypeScript (no node:crypto) so lib/ stays isomorphic.

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;
const SEP = '\u001f';

const encoder = new TextEncoder();

/** FNV-1a 64-bit of the UTF-8 bytes of `text`, as 16 lower-case hex digits. */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
}

export function refKey(ref: { kind: string; namespace?: string; name: string }): string {
  return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

/** The canonical text a finding ID hashes: independent of the order subjects and objects are listed in. */
export function findingIdInput(check: string, subjects: readonly SubjectRef[], objects: readonly ObjectRef[]): string {
  const s = [...new Set(subjects.map(refKey))].sort();
  const o = [...new Set(objects.map(refKey))].sort();
  return [check, s.join(SEP), o.join(SEP)].join('\n');
}

/** A stable short hash of a check ID and the refs a finding is about. */
export function findingId(check: string, subjects: readonly SubjectRef[], objects: readonly ObjectRef[]): string {
  return fnv1a64(findingIdInput(check, subjects, objects));
}
