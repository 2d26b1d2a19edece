import { flagList, visibleApiServers } from '@/lib/k8s/api-server-flags';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { findKind, KINDS, parseApiVersion } from '@/lib/k8s/kinds';
import type { KubeObject } from '@/lib/k8s/types';
import { admissionEvaluator, type AdmissionLookups, type PolicyEvaluator } from './evaluate-policies';
import { compileLabelSelector } from '@/lib/k8s/label-selector';

// The policies of a cluster state, ready to evaluate: namespaces and parameter objects come from the
// state; the versions of resource.k8s.io the API server serves come from its visible flags.

export type PolicyState = Pick<ClusterState, 'validatingAdmissionPolicies' | 'validatingAdmissionPolicyBindings' | 'namespaces' | 'pods'> &
  Partial<ClusterState>;

/**
 * The resource.k8s.io versions the API server serves: v1 (GA since 1.34), and a beta version only
 * when a visible --runtime-config turns it on (beta APIs are off by default, KEP-3136). A policy rule
 * listing only versions that are not served matches no request: matchPolicy Equivalent converts a
 * request only to versions the server has installed.
 */
export function servedDraVersions(state: Pick<ClusterState, 'pods'>): Set<string> {
  // Per pod list: a state copied with other policies (a fix checked on a copy) keeps its pods, and
  // finding the API servers among 200,000 pods is the slow part.
  let served = servedByPods.get(state.pods);
  if (!served) servedByPods.set(state.pods, (served = readServedDraVersions(state)));
  return new Set(served);
}

const servedByPods = new WeakMap<object, Set<string>>();

function readServedDraVersions(state: Pick<ClusterState, 'pods'>): Set<string> {
  const served = new Set(['v1']);
  for (const { flags } of visibleApiServers(state.pods)) {
    for (const entry of flagList(flags.get('runtime-config'))) {
      const [key, value = 'true'] = entry.split('=');
      if (value !== 'true') continue;
      if (key === 'api/all' || key === 'api/beta') ['v1beta1', 'v1beta2'].forEach((v) => served.add(v));
      const m = /^resource\.k8s\.io\/(v\w+)$/.exec(key);
      if (m) served.add(m[1]);
    }
  }
  return served;
}

// Kinds whose objects the state keeps without the fields a policy would read as params.
const PARAMS_NOT_KEPT: Readonly<Record<string, string>> = {
  ConfigMap: 'ConfigMap data is not kept (it may hold credentials)',
  Secret: 'Secrets are never read',
};

/**
 * A namespace's labels as the API server holds them: it sets kubernetes.io/metadata.name to the
 * namespace's name on every namespace (NamespaceDefaultLabelName, GA in 1.22), which a snapshot
 * written by hand may leave out; a namespaceSelector on it selects by name.
 */
export function namespaceLabels(n: { metadata: { name: string; labels?: Record<string, string> } }): Record<string, string> {
  return { ...n.metadata.labels, [NAME_LABEL]: n.metadata.name };
}

export const NAME_LABEL = 'kubernetes.io/metadata.name';

const cached = new WeakMap<object, PolicyEvaluator>();

/** The evaluator of a state's policies (one per state object: expressions and selectors are compiled once). */
export function clusterPolicies(state: PolicyState): PolicyEvaluator {
  const hit = cached.get(state);
  if (hit) return hit;
  const dra = [...servedDraVersions(state)];
  const namespaces = new Map(state.namespaces.map((n) => [n.metadata.name, n]));
  const labelsByName = new Map<string, Record<string, string>>();
  const lookups: AdmissionLookups = {
    namespaceLabels: (name) => {
      const n = namespaces.get(name);
      if (!n) return undefined;
      let labels = labelsByName.get(name);
      if (!labels) labelsByName.set(name, (labels = namespaceLabels(n)));
      return labels;
    },
    namespaceObject: (name) => namespaces.get(name) ?? null,
    servedVersions: (group, resource) =>
      group === 'resource.k8s.io' ? dra : (KINDS.find((k) => k.group === group && k.resource === resource)?.versions.slice(0, 1) ?? []),
    params(paramKind) {
      const kind = paramKind.kind ?? '';
      const why = PARAMS_NOT_KEPT[kind];
      if (why) return { unknown: `its params are ${kind} objects: ${why}` };
      const d = findKind(kind);
      if (!d || d.group !== parseApiVersion(paramKind.apiVersion ?? '').group || !state[d.collection])
        return { unknown: `its params are ${paramKind.apiVersion ?? ''} ${kind} objects, which dra-posture does not read` };
      return { objects: state[d.collection] as unknown as KubeObject[], namespaced: d.namespaced };
    },
  };
  const evaluator = admissionEvaluator(state.validatingAdmissionPolicies, state.validatingAdmissionPolicyBindings, lookups);
  cached.set(state, evaluator);
  return evaluator;
}

/**
 * A key per namespace such that two namespaces with the same key get the same outcome from the
 * state's policies for requests that differ only in their namespace: which namespaceSelectors of the
 * policies and bindings select it, or its name when some expression could read the namespace (its
 * name, its object) or a policy takes params (found in the request's namespace). Asking each of
 * 20,000 tenant namespaces the same question then costs one evaluation per key.
 */
export function namespaceEquivalence(
  state: Pick<ClusterState, 'validatingAdmissionPolicies' | 'validatingAdmissionPolicyBindings' | 'namespaces'>,
): (namespace: string) => string {
  const bound = new Set(state.validatingAdmissionPolicyBindings.map((b) => b.spec?.policyName));
  const policies = state.validatingAdmissionPolicies.filter((p) => bound.has(p.metadata.name));
  const expressions = policies.flatMap((p) => {
    const s = p.spec ?? {};
    const texts: unknown[] = [
      ...(s.matchConditions ?? []).map((c) => c.expression),
      ...(s.validations ?? []).flatMap((v) => [v.expression, v.messageExpression]),
      ...((s.variables as { expression?: unknown }[] | undefined) ?? []).map((v) => v?.expression),
      ...((s.auditAnnotations as { valueExpression?: unknown }[] | undefined) ?? []).map((a) => a?.valueExpression),
    ];
    return texts.filter((t): t is string => typeof t === 'string');
  });
  if (policies.some((p) => p.spec?.paramKind !== undefined) || expressions.some((e) => /namespace/i.test(e))) return (namespace) => namespace;
  const selectors = [
    ...policies.map((p) => p.spec?.matchConstraints?.namespaceSelector),
    ...state.validatingAdmissionPolicyBindings.filter((b) => b.spec?.matchResources).map((b) => b.spec?.matchResources?.namespaceSelector),
  ].map((s) => compileLabelSelector(s ?? {}));
  const labels = new Map(state.namespaces.map((n) => [n.metadata.name, namespaceLabels(n)]));
  return (namespace) => {
    const l = labels.get(namespace);
    // A namespace the state does not hold: selectors cannot be read (evaluated on its own).
    if (!l) return `?${namespace}`;
    let key = '';
    for (const matches of selectors) key += matches(l) ? '1' : '0';
    return key;
  };
}
