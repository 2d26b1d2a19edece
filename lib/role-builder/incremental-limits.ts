import type { AuthzEngine } from '@/lib/authz/authz-engine';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { holderEngine, noRbacChanges } from '@/lib/analysis/fixes/holder-engine';
import { podServiceAccount } from '@/lib/analysis/context/pod-facts';
import type { AnalysisSettings } from '@/lib/analysis/settings';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { matchesLabelSelector } from '@/lib/k8s/label-selector';
import type { KubeObject } from '@/lib/k8s/types';
import type { BuilderIdentity, RoleBundle } from './types';

// When the current analysis can answer for a bundle by looking at its identity alone. The incremental
// validation (incremental-validation.ts) re-asks only the identity's questions, on the holder-scoped
// engine of fix verification, and keeps everyone else's facts from the current analysis. That is
// exact only while the bundle changes the identity's access and nothing else, and while no finding
// about the identity is decided by another identity's access. Each rule below names a case where
// that fails; any of them sends the bundle to the full validation (a new analysis of the cluster).

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);
const keyOf = (o: { kind: string; metadata: { name: string; namespace?: string } }) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** What an RBAC object grants, and to whom: equal contents give every identity the same access. */
const grantContent = (o: KubeObject & Record<string, unknown>) =>
  JSON.stringify([o.metadata.labels ?? {}, o.rules ?? [], o.aggregationRule ?? null, o.roleRef ?? null, o.subjects ?? []]);

interface RbacObjects {
  existing: Map<string, KubeObject & Record<string, unknown>>;
  /** The roles bindings refer to, as keyOf would name them (a ClusterRole without namespace). */
  referenced: Set<string>;
}

// One lookup per cluster state, shared by every bundle validated against it.
const lookups = new WeakMap<ClusterState, RbacObjects>();

function rbacObjectsOf(state: ClusterState): RbacObjects {
  let found = lookups.get(state);
  if (!found) {
    const existing = new Map<string, KubeObject & Record<string, unknown>>();
    for (const list of [state.roles, state.clusterRoles, state.roleBindings, state.clusterRoleBindings])
      for (const o of list as unknown as (KubeObject & Record<string, unknown>)[]) existing.set(keyOf(o), o);
    const referenced = new Set<string>();
    for (const b of [...state.clusterRoleBindings, ...state.roleBindings]) {
      if (!b.roleRef) continue;
      const namespace = b.roleRef.kind === 'Role' ? b.metadata.namespace : undefined;
      referenced.add(keyOf({ kind: b.roleRef.kind, metadata: { name: b.roleRef.name, namespace } }));
    }
    lookups.set(state, (found = { existing, referenced }));
  }
  return found;
}

/**
 * Why the bundle needs the full validation before the identity's engine exists (empty: it does not).
 * `settings` are the validation's settings before the allocator note; `chain` the chain asked for.
 */
export function reasonsForFullValidation(
  ctx: AnalysisContext,
  state: ClusterState,
  bundle: RoleBundle,
  settings: AnalysisSettings,
  chain: readonly string[] | undefined,
): string[] {
  const reasons: string[] = [];
  if (ctx.state !== state) reasons.push('the analysis is of another version of the cluster');
  if (JSON.stringify(ctx.settings) !== JSON.stringify(settings)) reasons.push('the validation settings differ from the analysis settings');
  if (chain && chain.join(',') !== ctx.engine.chain.join(',')) reasons.push('the authorizer chain differs from the analysis');
  reasons.push(...identityReasons(bundle.input.identity));

  // Only the identity's access may change: no same-named object with other contents is replaced, and no
  // existing binding already points at a role the bundle creates (its subjects would gain the rules).
  const { existing, referenced } = rbacObjectsOf(state);
  const namespaces = new Set(ctx.namespaces);
  for (const { object } of bundle.objects) {
    const ns = object.metadata.namespace;
    if (ns && !namespaces.has(ns)) reasons.push(`namespace ${ns} does not exist yet`);
    if (!RBAC_KINDS.has(object.kind)) continue;
    const before = existing.get(keyOf(object));
    if (before && grantContent(before) !== grantContent(object)) reasons.push(`${object.kind} ${object.metadata.name} replaces an existing one`);
    if (!before && referenced.has(keyOf(object))) reasons.push(`an existing binding already refers to ${object.kind} ${object.metadata.name}`);
  }
  // An aggregated ClusterRole picking a bundle ClusterRole by its labels gives its own holders the rules.
  const aggregating = state.clusterRoles.filter((cr) => cr.aggregationRule);
  for (const { object } of bundle.objects) {
    if (object.kind !== 'ClusterRole') continue;
    if (object.aggregationRule) reasons.push(`ClusterRole ${object.metadata.name} aggregates other roles`);
    const labels = object.metadata.labels ?? {};
    if (aggregating.some((a) => (a.aggregationRule?.clusterRoleSelectors ?? []).some((sel) => matchesLabelSelector(sel, labels))))
      reasons.push(`ClusterRole ${object.metadata.name} is aggregated into another ClusterRole`);
  }
  // The identity's pods would make it (and its namespace) a DRA driver's: facts of the whole cluster.
  const id = bundle.input.identity;
  if (id.kind === 'ServiceAccount' && ctx.pods.some((p) => p.metadata.namespace === id.namespace && podServiceAccount(p) === id.name))
    reasons.push('the service account runs pods');
  return [...new Set(reasons)];
}

/** System identities carry groups and roles the cluster's own components share: their facts are not the identity's alone. */
function identityReasons(identity: BuilderIdentity): string[] {
  if (identity.kind !== 'ServiceAccount' && identity.name.startsWith('system:')) return [`${identity.kind} ${identity.name} is a system identity`];
  return [];
}

// Verbs that let an identity act as, or hand out the access of, other identities (legacy and
// constrained impersonation, bind, escalate, and `*`, which includes them): findings about such an
// identity (NODE002, DRA010, DRA005 and NODE001 through impersonation) read other identities'
// access. Impersonating the node its own token is bound to is the exception: it reaches that node only.
const OWN_NODE_ONLY = 'impersonate:associated-node';
const reachesOthers = (verb: string) =>
  verb === '*' || verb === 'bind' || verb === 'escalate' || (verb.startsWith('impersonate') && verb !== OWN_NODE_ONLY && !verb.startsWith('impersonate-on:'));

/** Why the identity's engine (with the bundle applied) needs the full validation: a rule it holds reaches other identities. */
export function reasonsInAccess(engine: AuthzEngine): string[] {
  const roles = [...engine.rbac.clusterRoles.values(), ...[...engine.rbac.roles.values()].flatMap((m) => [...m.values()])];
  const verbs = new Set(roles.flatMap((r) => r.rules.flatMap(({ rule }) => rule.verbs ?? [])).filter(reachesOthers));
  return verbs.size > 0 ? [`the identity holds ${[...verbs].sort().join(', ')}`] : [];
}

/**
 * Builds the per-cluster lookups the first validation would otherwise build (the RBAC objects by
 * name here, the holder-scoped engine's by subject): the server calls it when the builder opens.
 */
export function prepareIncrementalValidation(ctx: AnalysisContext): void {
  rbacObjectsOf(ctx.state);
  holderEngine(ctx.engine, [], noRbacChanges());
}
