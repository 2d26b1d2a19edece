import { refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';

/**
 * `read(ctx, ...args)` answered once per analysis and key of the arguments: for facts several checks,
 * fixes and attack paths ask about the same identities. Kept with the context, so a new analysis (a
 * new version of a live cluster, a fix's holder-scoped context) reads afresh. Undefined answers are
 * kept too.
 */
export function memoPerAnalysis<A extends unknown[], T>(
  keyOf: (...args: A) => string,
  read: (ctx: AnalysisContext, ...args: A) => T,
): (ctx: AnalysisContext, ...args: A) => T {
  const byContext = new WeakMap<AnalysisContext, Map<string, T>>();
  return (ctx, ...args) => {
    let known = byContext.get(ctx);
    if (!known) byContext.set(ctx, (known = new Map()));
    const key = keyOf(...args);
    if (known.has(key)) return known.get(key) as T;
    const found = read(ctx, ...args);
    known.set(key, found);
    return found;
  };
}

/**
 * `read(ctx)` answered once per analysis: a fact of the whole state several checks read (a WeakMap
 * by context, no key to build per call).
 */
export function oncePerAnalysis<T>(read: (ctx: AnalysisContext) => T): (ctx: AnalysisContext) => T {
  const byContext = new WeakMap<AnalysisContext, { value: T }>();
  return (ctx) => {
    let known = byContext.get(ctx);
    if (!known) byContext.set(ctx, (known = { value: read(ctx) }));
    return known.value;
  };
}

/** memoPerAnalysis keyed by one subject. */
export function memoPerSubject<T>(read: (ctx: AnalysisContext, subject: SubjectRef) => T): (ctx: AnalysisContext, subject: SubjectRef) => T {
  return memoPerAnalysis((subject: SubjectRef) => refKey(subject), read);
}
