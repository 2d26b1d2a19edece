import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { SubjectRef } from '@/lib/k8s/types';
import { refKey } from '@/lib/k8s/refs';
import { memoPerAnalysis } from './context/memo-per-analysis';
import type { AnalysisContext } from './context-types';
import type { Capability } from './capabilities';
import { mergeGrants, type AccessEntry } from './context/access';

// How one identity holds one capability through RBAC: its entries (its own and those of the groups
// it carries) for each of the capability's questions, kept only where the capability's scope counts
// (every namespace, namespaces admitting privileged pods, namespaces other than its own).

export interface Holding {
  grants: WhoCanGrant[];
  /** Every namespace, or the counted namespaces (empty for a cluster-scoped capability). */
  everyNamespace: boolean;
  namespaces: string[];
  verbs: string[];
}

/**
 * What `subject` holds of `cap` through RBAC, or undefined: its RBAC entries and those of the groups
 * it carries (without system:masters and the Node authorizer, reported on their own), found from the
 * bindings that name them rather than from the whole cluster's answer to each question. Read once per
 * analysis: the checks (DRA008, DRA011, DRA012) and the fixes (DRA008's, NODE001's) ask the same
 * identities about the same capabilities, ~2,800 repeated questions on a large cluster.
 */
export const holdingOf: (ctx: AnalysisContext, cap: Capability, subject: SubjectRef) => Holding | undefined = memoPerAnalysis(
  (cap: Capability, subject: SubjectRef) => `${cap.id}\u0000${refKey(subject)}`,
  readHolding,
);

function readHolding(ctx: AnalysisContext, cap: Capability, subject: SubjectRef): Holding | undefined {
  const counted = (ns: string): boolean => {
    if (cap.scope === 'privileged-namespaces') return ctx.admitsPrivilegedPods(ns);
    if (cap.scope === 'other-namespaces') return subject.kind !== 'ServiceAccount' || ns !== subject.namespace;
    return cap.scope !== 'cluster-wide';
  };
  const kept: AccessEntry[] = [];
  let everyNamespace = false;
  const namespaces = new Set<string>();
  const verbs = new Set<string>();
  const questions = cap.questions;
  for (let i = 0; i < questions.length; i++) {
    for (const e of ctx.access.rbacEntriesFor(questions[i], subject)) {
      const clusterScoped = questions[i].scope === 'cluster';
      const nss = clusterScoped || e.everyNamespace ? [] : e.namespaces.filter(counted);
      if (!clusterScoped && !e.everyNamespace && nss.length === 0) continue;
      if (e.everyNamespace && !clusterScoped) everyNamespace = true;
      for (const ns of nss) namespaces.add(ns);
      for (const v of e.verbs) verbs.add(v);
      const allowed = new Set(nss);
      kept.push({
        ...e,
        grants: e.grants.filter((g) => clusterScoped || g.binding.kind === 'ClusterRoleBinding' || allowed.has(g.binding.namespace ?? '')),
      });
    }
  }
  if (kept.length === 0) return undefined;
  return { grants: mergeGrants(kept), everyNamespace, namespaces: everyNamespace ? [] : [...namespaces].sort(), verbs: [...verbs] };
}
