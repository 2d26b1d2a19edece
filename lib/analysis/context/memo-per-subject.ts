import { refKey } from '@/lib/k8s/refs';
import type { SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';

/**
 * `read(ctx, subject)` answered once per analysis and subject: for facts several checks, fixes and
 * attack paths ask about the same identities. Kept with the context, so a new analysis (a new
 * version of a live cluster) reads afresh.
 */
export function memoPerSubject<T>(read: (ctx: AnalysisContext, subject: SubjectRef) => T): (ctx: AnalysisContext, subject: SubjectRef) => T {
  const byContext = new WeakMap<AnalysisContext, Map<string, T>>();
  return (ctx, subject) => {
    let known = byContext.get(ctx);
    if (!known) byContext.set(ctx, (known = new Map()));
    const key = refKey(subject);
    if (known.has(key)) return known.get(key) as T;
    const found = read(ctx, subject);
    known.set(key, found);
    return found;
  };
}
