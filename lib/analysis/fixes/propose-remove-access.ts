import type { ResourceAttributes } from '@/lib/authz/types';
import { describeRef, describeSubject } from '@/lib/k8s/refs';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Capability } from '@/lib/analysis/capabilities';
import type { Finding, FixProbe } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import { holderOf, reviewOf, type Holder } from './holder';
import { describeAttrs } from './holder-needs';
import { RbacEdits } from './role-edits';
import { distinctSources, ruleSitesOf } from './rule-sites';
import { subtractAccess, type AccessToRemove } from './subtract-access';
import type { Proposal, Proposed } from './verify-fix';

// The common fix of a permission finding: take the capability's verbs on its resources out of the
// rules that grant it (in the source role when the rule is aggregated), leaving the rest of each rule.

export interface RemoveAccess {
  remove: AccessToRemove;
  capabilities: readonly Capability[];
  /** Requests each holder makes today that the fix must refuse (only those allowed today are kept as probes). */
  refused: (h: Holder) => ResourceAttributes[];
}

export function holdersOfIssue(ctx: AnalysisContext, findings: readonly Finding[]): Holder[] {
  const seen = new Map<string, Holder>();
  for (const f of findings) for (const s of f.subjects) seen.set(`${s.kind}/${s.namespace ?? ''}/${s.name}`, holderOf(ctx, s));
  return [...seen.values()];
}

/** Requests allowed today that the fix must refuse, as probes. */
export function refusedProbes(ctx: AnalysisContext, holders: readonly Holder[], refused: (h: Holder) => ResourceAttributes[]): FixProbe[] {
  const out: FixProbe[] = [];
  for (const h of holders) {
    for (const attrs of refused(h)) {
      if (!ctx.engine.authorize({ user: h.user, resource: attrs }).allowed) continue;
      out.push({ expect: 'denied', text: `${describeSubject(h.subject)}: ${describeAttrs(attrs)}`, review: reviewOf(h.user, attrs) });
    }
  }
  return out;
}

export function proposeRemoveAccess(ctx: AnalysisContext, findings: readonly Finding[], spec: RemoveAccess): Proposed {
  const sites = ruleSitesOf(ctx, findings);
  const edits = new RbacEdits();
  const what = `${list([...spec.remove.verbs])} on ${list([...spec.remove.resources])}`;
  for (const src of distinctSources(sites)) {
    const rule = src.object.rules?.[src.index];
    if (!rule) continue;
    const sub = subtractAccess(rule, spec.remove);
    if ('cannot' in sub)
      return {
        none: `rule #${src.index} of ${describeRef({ kind: src.object.kind, name: src.object.metadata.name, namespace: src.object.metadata.namespace })}: ${sub.cannot}`,
      };
    if (sub.changed) edits.replaceRule(src, sub.rules, `remove ${what}`);
  }
  if (edits.empty) return { none: 'the grants behind it are not rules the fix can edit (no role in the snapshot holds them)' };
  const holders = holdersOfIssue(ctx, findings);
  const edited = [
    ...new Set(distinctSources(sites).map((s) => describeRef({ kind: s.object.kind, name: s.object.metadata.name, namespace: s.object.metadata.namespace }))),
  ];
  const proposal: Proposal = {
    holders,
    edits,
    probes: refusedProbes(ctx, holders, spec.refused),
    capabilities: spec.capabilities,
    checks: [`the rules are valid for the API server`, `no holder can then ${list(spec.capabilities.map((c) => c.label))}`],
    summary: `Remove ${what} from ${list(edited)}`,
  };
  return proposal;
}
