import { compileLabelSelector, type LabelMatcher } from '@/lib/k8s/label-selector';
import type { AdmissionResourceRule, LabelSelector } from '@/lib/k8s/types';
import type { AdmissionRequest } from './types';

// Whether a request falls under a policy's matchConstraints or a binding's matchResources, as
// k8s.io/apiserver admission/plugin/policy/matching does it: the namespace selector (cluster-scoped
// objects other than Namespaces always pass), the object selector (new or old object's labels), the
// excluded rules, then the resource rules (an empty list matches every request), with matchPolicy
// Equivalent also trying the other served versions of the same resource.

export interface MatchResources {
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  resourceRules?: AdmissionResourceRule[];
  excludeResourceRules?: AdmissionResourceRule[];
  matchPolicy?: string;
}

export interface CompiledMatch {
  namespace: LabelMatcher;
  namespaceSelectorEmpty: boolean;
  object: LabelMatcher;
  objectSelectorEmpty: boolean;
  rules: AdmissionResourceRule[];
  exclude: AdmissionResourceRule[];
  exact: boolean;
}

export interface MatchLookups {
  /** The labels of a namespace; undefined when the namespace is not known. */
  namespaceLabels(name: string): Record<string, string> | undefined;
  /** The versions of group/resource the API server serves (for matchPolicy Equivalent). */
  servedVersions(group: string, resource: string): readonly string[];
}

/** How a request matched: directly, through another served version (the object would be converted to it), or not. */
export type MatchResult = { matched: true; version: string } | { matched: false; unknown?: string };

const isEmptySelector = (s: LabelSelector | undefined) =>
  !s || ((s.matchLabels === undefined || Object.keys(s.matchLabels).length === 0) && !(s.matchExpressions ?? []).length);

export function compileMatch(m: MatchResources | undefined): CompiledMatch {
  // The API server defaults both selectors to {} (everything) and matchPolicy to Equivalent.
  return {
    namespace: compileLabelSelector(m?.namespaceSelector ?? {}),
    namespaceSelectorEmpty: isEmptySelector(m?.namespaceSelector),
    object: compileLabelSelector(m?.objectSelector ?? {}),
    objectSelectorEmpty: isEmptySelector(m?.objectSelector),
    rules: Array.isArray(m?.resourceRules) ? m.resourceRules : [],
    exclude: Array.isArray(m?.excludeResourceRules) ? m.excludeResourceRules : [],
    exact: m?.matchPolicy === 'Exact',
  };
}

const has = (list: readonly string[] | undefined, value: string) => (list ?? []).some((x) => x === '*' || x === value);

function ruleMatches(rule: AdmissionResourceRule, r: AdmissionRequest, version: string): boolean {
  if (!has(rule.operations, r.operation) || !has(rule.apiGroups, r.group) || !has(rule.apiVersions, version)) return false;
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && r.namespace !== '') return false;
  if (scope === 'Namespaced' && r.namespace === '') return false;
  const resourceOk = (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const [res, sub] = slash < 0 ? [entry, ''] : [entry.slice(0, slash), entry.slice(slash + 1)];
    return (res === '*' || res === r.resource) && (sub === '*' || sub === r.subresource);
  });
  if (!resourceOk) return false;
  return (rule.resourceNames ?? []).length === 0 || rule.resourceNames!.includes(r.name);
}

/** The version through which the rules match the request, or undefined. */
function rulesMatch(rules: readonly AdmissionResourceRule[], exact: boolean, r: AdmissionRequest, lookups: MatchLookups): string | undefined {
  if (rules.some((rule) => ruleMatches(rule, r, r.version))) return r.version;
  if (exact) return undefined;
  for (const version of lookups.servedVersions(r.group, r.resource)) {
    if (version !== r.version && rules.some((rule) => ruleMatches(rule, r, version))) return version;
  }
  return undefined;
}

function labelsOf(o: unknown): Record<string, string> | undefined {
  const labels = (o as { metadata?: { labels?: unknown } } | null | undefined)?.metadata?.labels;
  return labels && typeof labels === 'object' ? (labels as Record<string, string>) : undefined;
}

export function matchRequest(m: CompiledMatch, r: AdmissionRequest, lookups: MatchLookups): MatchResult {
  if (!m.namespaceSelectorEmpty && (r.namespace !== '' || r.resource === 'namespaces')) {
    const nsName = r.namespace || r.name;
    const labels = r.resource === 'namespaces' && r.namespace === '' ? labelsOf(r.object ?? r.oldObject) : lookups.namespaceLabels(nsName);
    if (labels === undefined && r.resource !== 'namespaces') return { matched: false, unknown: `namespace ${nsName} is not known, so its labels are not` };
    if (!m.namespace(labels ?? {})) return { matched: false };
  }
  if (!m.objectSelectorEmpty) {
    const objectOk = (o: unknown) => o !== null && o !== undefined && m.object(labelsOf(o) ?? {});
    if (!objectOk(r.object) && !objectOk(r.oldObject)) return { matched: false };
  }
  if (m.exclude.length > 0 && rulesMatch(m.exclude, m.exact, r, lookups) !== undefined) return { matched: false };
  if (m.rules.length === 0) return { matched: true, version: r.version };
  const version = rulesMatch(m.rules, m.exact, r, lookups);
  return version === undefined ? { matched: false } : { matched: true, version };
}
