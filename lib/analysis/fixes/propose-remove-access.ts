import type { ResourceAttributes } from '@/lib/authz/types';
import { describeRef, describeSubject, objectRef, refKey } from '@/lib/k8s/refs';
import type { ClusterRoleBinding, ObjectRef, RoleBinding, SubjectRef } from '@/lib/k8s/types';
import { isStockRole } from '@/lib/analysis/issues/root-cause';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Capability } from '@/lib/analysis/capabilities';
import type { Finding } from '@/lib/analysis/types';
import { list } from '@/lib/analysis/checks/check-helpers';
import type { DeferredProbe } from './deferred-probe';
import { todayAllowed } from './fixed-access';
import { holderOf, type Holder } from './holder';
import { RbacEdits } from './role-edits';
import { distinctSources, ruleSitesOf } from './rule-sites';
import { clusterRoleBindingNamed, roleBindingNamed } from './state-objects';
import { subtractAccess, type AccessToRemove } from './subtract-access';
import type { Proposal, Proposed } from './verify-fix';

// The common fix of a permission finding: take the capability's verbs on its resources out of the
// rules that grant it (in the source role when the rule is aggregated), leaving the rest of each rule.
// A stock role (cluster-admin, admin/edit/view, the bootstrap system:* roles) is not edited: the API
// server reconciles the bootstrap roles' rules at every start (rbac.authorization.kubernetes.io/autoupdate)
// and every other holder of the role would lose the access too. The fix is then on the binding: the
// finding's subjects come out of the bindings that give them the stock role. A stock binding (system:*
// or labelled kubernetes.io/bootstrapping=rbac-defaults) is reconciled too: no safe automatic fix.

export interface RemoveAccess {
  /** One access to take out, or several (each taken out of what the previous left). */
  remove: AccessToRemove | readonly AccessToRemove[];
  /** What is removed, in words, when listing the verbs says it badly (every verb of a subresource). */
  what?: string;
  capabilities: readonly Capability[];
  /** Requests each holder makes today that the fix must refuse (only those allowed today are kept as probes). */
  refused: (h: Holder) => ResourceAttributes[];
}

export function holdersOfIssue(ctx: AnalysisContext, findings: readonly Finding[]): Holder[] {
  const seen = new Map<string, Holder>();
  for (const f of findings) for (const s of f.subjects) seen.set(`${s.kind}/${s.namespace ?? ''}/${s.name}`, holderOf(ctx, s));
  return [...seen.values()];
}

/**
 * Requests allowed today that the fix must refuse, as probes (deferred: most are checked, not listed).
 * Today's answers are todayAllowed's: CLAIM003's holders ask ~160,000 on the diverse bench cluster.
 */
export function refusedProbes(ctx: AnalysisContext, holders: readonly Holder[], refused: (h: Holder) => ResourceAttributes[]): DeferredProbe[] {
  const out: DeferredProbe[] = [];
  const allowedToday = todayAllowed(
    ctx.engine,
    holders.map((h) => h.user),
  );
  for (const h of holders) {
    let who: string | undefined;
    for (const attrs of refused(h)) {
      if (!allowedToday({ user: h.user, resource: attrs })) continue;
      who ??= describeSubject(h.subject);
      out.push({ deferred: true, expect: 'denied', who, user: h.user, attrs });
    }
  }
  return out;
}

const isStockSource = (o: { kind: string; metadata: { name: string; namespace?: string } }) =>
  isStockRole(objectRef(o.kind, o.metadata.name, o.metadata.namespace || undefined));

/** The binding a grant names, as the snapshot holds it. */
export function bindingObject(ctx: AnalysisContext, ref: ObjectRef): RoleBinding | ClusterRoleBinding | undefined {
  return ref.kind === 'ClusterRoleBinding' ? clusterRoleBindingNamed(ctx.state, ref.name) : roleBindingNamed(ctx.state, ref.namespace ?? '', ref.name);
}

export const isStockBinding = (b: RoleBinding | ClusterRoleBinding) =>
  b.metadata.name.startsWith('system:') || b.metadata.labels?.['kubernetes.io/bootstrapping'] === 'rbac-defaults';

export const sameSubject = (s: { kind: string; name: string; namespace?: string }, ref: SubjectRef) =>
  s.kind === ref.kind && s.name === ref.name && (ref.kind !== 'ServiceAccount' || (s.namespace ?? '') === (ref.namespace ?? ''));

/** The finding's subjects taken out of the bindings that give them a stock role, or why that cannot be done. */
function removeFromStockBindings(ctx: AnalysisContext, findings: readonly Finding[], edits: RbacEdits): string | undefined {
  const removed = new Map<string, { object: RoleBinding | ClusterRoleBinding; subjects: SubjectRef[] }>();
  for (const f of findings) {
    for (const e of f.evidence) {
      if (e.type !== 'grant' || !isStockRole(e.role)) continue;
      const object = bindingObject(ctx, e.binding);
      if (!object) return `${describeRef(e.binding)} is not in the snapshot`;
      if (isStockBinding(object))
        return `it comes from ${describeRef(e.role)} through ${describeRef(e.binding)}, a bootstrap binding the API server reconciles at every start (a removed subject comes back)`;
      const key = refKey(e.binding);
      const entry = removed.get(key) ?? { object, subjects: [] };
      for (const s of f.subjects) if ((object.subjects ?? []).some((x) => sameSubject(x, s))) entry.subjects.push(s);
      removed.set(key, entry);
    }
  }
  for (const { object, subjects } of removed.values()) {
    if (subjects.length === 0) continue;
    const kept = (object.subjects ?? []).filter((x) => !subjects.some((s) => sameSubject(x, s)));
    edits.setSubjects(
      object,
      kept,
      `remove ${list([...new Set(subjects.map(describeSubject))])} from the binding: ${describeRef({ kind: 'ClusterRole', name: object.roleRef.name })} is a stock role, not edited (the API server reconciles the bootstrap roles and its other holders need it)`,
    );
  }
  return undefined;
}

export function proposeRemoveAccess(ctx: AnalysisContext, findings: readonly Finding[], spec: RemoveAccess): Proposed {
  const sites = ruleSitesOf(ctx, findings);
  const edits = new RbacEdits();
  const removals: readonly AccessToRemove[] = Array.isArray(spec.remove) ? spec.remove : [spec.remove as AccessToRemove];
  const what = spec.what ?? removals.map((r) => `${list([...r.verbs])} on ${list([...r.resources])}`).join('; ');
  const stockProblem = removeFromStockBindings(ctx, findings, edits);
  if (stockProblem) return { none: stockProblem };
  for (const src of distinctSources(sites)) {
    if (isStockSource(src.object)) continue;
    const rule = src.object.rules?.[src.index];
    if (!rule) continue;
    let rules = [rule];
    let changed = false;
    for (const removal of removals) {
      const next: typeof rules = [];
      for (const r of rules) {
        const sub = subtractAccess(r, removal);
        if ('cannot' in sub)
          return {
            none: `rule #${src.index} of ${describeRef({ kind: src.object.kind, name: src.object.metadata.name, namespace: src.object.metadata.namespace })}: ${sub.cannot}`,
          };
        next.push(...sub.rules);
        changed ||= sub.changed;
      }
      rules = next;
    }
    if (changed) edits.replaceRule(src, rules, `remove ${what}`);
  }
  if (edits.empty) return { none: 'the grants behind it are not rules the fix can edit (no role in the snapshot holds them)' };
  const holders = holdersOfIssue(ctx, findings);
  const edited = [
    ...new Set(
      distinctSources(sites)
        .filter((s) => !isStockSource(s.object))
        .map((s) => describeRef({ kind: s.object.kind, name: s.object.metadata.name, namespace: s.object.metadata.namespace })),
    ),
  ];
  const unbound = findings.some((f) => f.evidence.some((e) => e.type === 'grant' && isStockRole(e.role)));
  const proposal: Proposal = {
    holders,
    edits,
    probes: refusedProbes(ctx, holders, spec.refused),
    capabilities: spec.capabilities,
    checks: [
      `the rules are valid for the API server`,
      spec.capabilities.length > 0 ? `no holder can then ${list(spec.capabilities.map((c) => c.label))}` : `no holder can then ${what}`,
    ],
    summary:
      edited.length > 0
        ? `Remove ${what} from ${list(edited)}${unbound ? ', and the holders from the bindings of stock roles that grant it' : ''}`
        : `Remove the holders from the bindings of stock roles that grant ${what}`,
  };
  return proposal;
}
