import { describe, expect, it } from 'vitest';
import { findingId, findingIdInput, fnv1a64 } from './finding-id';
import { refKey } from '@/lib/k8s/refs';
import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit test vectors', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });
  it('agrees with a 64-bit BigInt FNV-1a on ASCII, multi-byte and long inputs', () => {
    const encoder = new TextEncoder();
    const reference = (text: string) => {
      let h = 0xcbf29ce484222325n;
      for (const b of encoder.encode(text)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return h.toString(16).padStart(16, '0');
    };
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 500; i++) {
      let text = '';
      const length = next() % 300;
      for (let k = 0; k < length; k++) text += String.fromCharCode(next() % 8 === 0 ? 0x80 + (next() % 0x7000) : 32 + (next() % 95));
      expect(fnv1a64(text)).toBe(reference(text));
    }
  });
  it('hashes UTF-8 bytes', () => {
    expect(fnv1a64('→')).toBe(fnv1a64('\u2192'));
    expect(fnv1a64('→')).not.toBe(fnv1a64('?'));
  });
});

describe('findingId', () => {
  const sa = { kind: 'ServiceAccount' as const, namespace: 'drivers', name: 'plugin' };
  const group = { kind: 'Group' as const, name: 'gpu-ops' };
  const crb = { kind: 'ClusterRoleBinding', name: 'x' };
  const role = { kind: 'ClusterRole', name: 'x' };

  it('is a 16-digit hex string, stable across input order and duplicates', () => {
    const id = findingId('DRA001', [sa, group], [crb, role]);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(findingId('DRA001', [group, sa, sa], [role, crb])).toBe(id);
  });
  it('changes with the check, the subjects or the objects', () => {
    const id = findingId('DRA001', [sa], [crb]);
    expect(findingId('DRA002', [sa], [crb])).not.toBe(id);
    expect(findingId('DRA001', [group], [crb])).not.toBe(id);
    expect(findingId('DRA001', [sa], [role])).not.toBe(id);
    // A subject and an object with the same key do not collide.
    expect(findingId('X', [{ kind: 'Group', name: 'a' }], [])).not.toBe(findingId('X', [], [{ kind: 'Group', name: 'a' }]));
  });
  it('hashes a readable canonical string', () => {
    expect(findingIdInput('NODE001', [sa], [role, crb])).toBe('NODE001\nServiceAccount/drivers/plugin\nClusterRole//x\u001fClusterRoleBinding//x');
  });
  it('is the plain canonical text (distinct keys, sorted, joined) for any refs, duplicates and order', () => {
    const plain = (check: string, subjects: readonly SubjectRef[], objects: readonly ObjectRef[]) =>
      [check, [...new Set(subjects.map(refKey))].sort().join('\u001f'), [...new Set(objects.map(refKey))].sort().join('\u001f')].join('\n');
    const pool: ObjectRef[] = [
      sa,
      group,
      crb,
      role,
      { kind: 'Node', name: 'n1' },
      { kind: 'Node', name: 'n10' },
      { kind: 'Pod', namespace: 'a', name: 'p' },
      { kind: 'Pod', namespace: 'a/b', name: '' },
      { kind: 'Pod', namespace: 'a', name: 'b/' },
      { kind: 'ResourceClaim', namespace: 'é', name: 'claim' },
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const subjectPool: SubjectRef[] = [sa, group, { kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', namespace: 'drivers', name: 'plugin-2' }];
    const refs = <T>(from: readonly T[]) => Array.from({ length: next() % 6 }, () => from[next() % from.length]);
    for (let i = 0; i < 500; i++) {
      const subjects = refs(subjectPool);
      const objects = refs(pool);
      expect(findingIdInput('CHK', subjects, objects)).toBe(plain('CHK', subjects, objects));
    }
  });
});
