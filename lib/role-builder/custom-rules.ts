import { KINDS } from '@/lib/k8s/kinds';
import type { PolicyRule } from '@/lib/k8s/types';
import type { ReasonedRule } from './types';

/** Namespaced resources beyond the kinds the product reads, for choosing Role vs ClusterRole. */
const MORE_NAMESPACED = [
  'secrets',
  'events',
  'services',
  'endpoints',
  'leases',
  'jobs',
  'cronjobs',
  'networkpolicies',
  'ingresses',
  'limitranges',
  'podtemplates',
  'controllerrevisions',
  'endpointslices',
  'poddisruptionbudgets',
];
const NAMESPACED = new Set([...KINDS.filter((k) => k.namespaced).map((k) => k.resource), ...MORE_NAMESPACED]);

export class CustomRuleError extends Error {}

/** Whether a resource (without subresource) lives in a namespace; unknown resources count as cluster-scoped. */
export function isNamespacedResource(resource: string): boolean {
  return NAMESPACED.has(resource.split('/')[0]);
}

/**
 * One custom rule per line, kubectl style: `VERBS RESOURCE[.GROUP][/SUBRESOURCE] [NAME,...] [# reason]`,
 * e.g. `get,list resourceclaims.resource.k8s.io # read claims`. Wildcards are refused: they are never
 * least privilege and also match every subresource added later.
 */
export function parseCustomRule(line: string, where: string): ReasonedRule {
  const hash = line.indexOf('#');
  const reason = hash >= 0 ? line.slice(hash + 1).trim() : '';
  const parts = (hash >= 0 ? line.slice(0, hash) : line).trim().split(/\s+/).filter(Boolean);
  if (parts.length < 2 || parts.length > 3)
    throw new CustomRuleError(`${where}: expected "VERBS RESOURCE[.GROUP][/SUBRESOURCE] [NAMES] [# reason]", got "${line.trim()}"`);
  const [verbText, target, namesText] = parts;
  const verbs = verbText.split(',').filter(Boolean);
  const slash = target.indexOf('/');
  const resPart = slash >= 0 ? target.slice(0, slash) : target;
  const sub = slash >= 0 ? target.slice(slash + 1) : '';
  const dot = resPart.indexOf('.');
  const resource = dot >= 0 ? resPart.slice(0, dot) : resPart;
  const group = dot >= 0 ? resPart.slice(dot + 1) : '';
  const names = namesText ? namesText.split(',').filter(Boolean) : [];
  if (verbs.length === 0 || resource === '' || (slash >= 0 && sub === ''))
    throw new CustomRuleError(`${where}: verbs and a resource are required, got "${line.trim()}"`);
  if ([...verbs, resource, group, sub, ...names].some((t) => t.includes('*')))
    throw new CustomRuleError(`${where}: wildcards (*) are not allowed in a least-privilege role`);
  const rule: PolicyRule = { apiGroups: [group], resources: [sub ? `${resource}/${sub}` : resource], verbs };
  if (names.length > 0) rule.resourceNames = names;
  return { rule, reason: reason || 'custom rule (no reason given)' };
}

export function parseCustomRules(text: string): ReasonedRule[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.trim() !== '' && !line.trim().startsWith('#'))
    .map(({ line, i }) => parseCustomRule(line, `rule line ${i + 1}`));
}
