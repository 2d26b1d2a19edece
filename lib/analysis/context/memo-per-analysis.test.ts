import { describe, expect, it } from 'vitest';

import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { SubjectRef } from '@/lib/k8s/types';
import { memoPerAnalysis, memoPerSubject, oncePerAnalysis } from './memo-per-analysis';

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

describe('memoPerAnalysis', () => {
  it('keys by what keyOf makes of the arguments, per context', () => {
    const reads: string[] = [];
    const sum = memoPerAnalysis(
      (a: number, b: number) => `${a}+${b}`,
      (_ctx, a: number, b: number) => {
        reads.push(`${a}+${b}`);
        return a + b;
      },
    );
    expect([sum(ctxA, 1, 2), sum(ctxA, 1, 2), sum(ctxA, 2, 1), sum(ctxB, 1, 2)]).toEqual([3, 3, 3, 3]);
    expect(reads).toEqual(['1+2', '2+1', '1+2']);
  });
});

describe('oncePerAnalysis', () => {
  it('reads once per context, keeps an undefined answer, and reads again for another analysis', () => {
    const reads: AnalysisContext[] = [];
    const fact = oncePerAnalysis((ctx): number | undefined => {
      reads.push(ctx);
      return ctx === ctxA ? undefined : reads.length;
    });
    expect([fact(ctxA), fact(ctxA), fact(ctxB), fact(ctxB)]).toEqual([undefined, undefined, 2, 2]);
    expect(reads).toEqual([ctxA, ctxB]);
  });
});
