import { describe, expect, it } from 'vitest';

import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { SubjectRef } from '@/lib/k8s/types';
import { memoPerSubject } from './memo-per-subject';

// The memo only keys by the context object and the subject: plain objects stand in for contexts.
const ctxA = {} as AnalysisContext;
const ctxB = {} as AnalysisContext;
const sa = (namespace: string, name: string): SubjectRef => ({ kind: 'ServiceAccount', namespace, name });

describe('memoPerSubject', () => {
  it('reads once per context and subject, and again for another subject or another analysis', () => {
    const reads: string[] = [];
    const nameOf = memoPerSubject((_ctx, s) => {
      reads.push(`${s.namespace}/${s.name}`);
      return s.name.length > 3 ? `${s.name}!` : undefined;
    });
    expect(nameOf(ctxA, sa('a', 'plugin'))).toBe('plugin!');
    expect(nameOf(ctxA, sa('a', 'plugin'))).toBe('plugin!');
    // An answer of undefined is kept too.
    expect(nameOf(ctxA, sa('a', 'x'))).toBeUndefined();
    expect(nameOf(ctxA, sa('a', 'x'))).toBeUndefined();
    // Same name in another namespace, and a group of that name, are other subjects.
    expect(nameOf(ctxA, sa('b', 'plugin'))).toBe('plugin!');
    expect(nameOf(ctxA, { kind: 'Group', name: 'plugin' })).toBe('plugin!');
    expect(nameOf(ctxB, sa('a', 'plugin'))).toBe('plugin!');
    expect(reads).toEqual(['a/plugin', 'a/x', 'b/plugin', 'undefined/plugin', 'a/plugin']);
  });
});
