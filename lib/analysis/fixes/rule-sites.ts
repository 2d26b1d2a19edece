import { describeRef, refKey } from '@/lib/k8s/refs';
import type { ObjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding } from '@/lib/analysis/types';
import { ruleSources, type RuleSource } from './role-edits';

// The rules behind an issue's findings (their grant evidence), as the objects a fix edits.

export interface RuleSite {
  role: ObjectRef;
  ruleIndex: number;
  sources: RuleSource[];
}

export function ruleSitesOf(
  ctx: AnalysisContext,
  findings: readonly Finding[],
  keep: (role: ObjectRef, ruleIndex: number) => boolean = () => true,
): RuleSite[] {
  const out = new Map<string, RuleSite>();
  for (const f of findings) {
    for (const e of f.evidence) {
      if (e.type !== 'grant' || !keep(e.role, e.ruleIndex)) continue;
      const key = `${refKey(e.role)}#${e.ruleIndex}`;
      if (!out.has(key)) out.set(key, { role: e.role, ruleIndex: e.ruleIndex, sources: ruleSources(ctx, e.role, e.ruleIndex) });
    }
  }
  return [...out.values()];
}

/** Sources listed once even when several sites share them (two aggregated roles copying one rule). */
export function distinctSources(sites: readonly RuleSite[]): RuleSource[] {
  const seen = new Set<string>();
  const out: RuleSource[] = [];
  for (const s of sites)
    for (const src of s.sources) {
      const key = `${src.object.kind}/${src.object.metadata.namespace ?? ''}/${src.object.metadata.name}#${src.index}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(src);
    }
  return out;
}

/** The roles a fix edits, in words, each once (the sources of the sites' rules). */
export function sourceRoleNames(sites: readonly RuleSite[]): string[] {
  return [
    ...new Set(distinctSources(sites).map((s) => describeRef({ kind: s.object.kind, name: s.object.metadata.name, namespace: s.object.metadata.namespace }))),
  ];
}
