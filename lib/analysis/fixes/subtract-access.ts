import type { PolicyRule } from '@/lib/k8s/types';

// Rule arithmetic for fixes: a rule minus some verbs on some resources of one API group, as new rules
// that grant exactly the rest (the RBAC matching of pkg/apis/rbac/v1/evaluation_helpers.go: only a
// whole "*" is a wildcard, "*/sub" matches any resource's subresource "sub"). Wildcard verbs are
// spelled out as the standard verbs; a wildcard group or resource cannot be spelled out (the
// server's resources are unknown), except in resource.k8s.io whose resources are known.

/** The verbs every resource answers; a `*` verb is written as these when part of it is taken away. */
export const STANDARD_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;

/**
 * resource.k8s.io resources and subresources served by 1.36 (binding and driver are the synthetic
 * subresources that granular status authorization checks; devicetaintrules carry status conditions).
 */
export const DRA_RESOURCE_PATHS = [
  'deviceclasses',
  'resourceclaims',
  'resourceclaims/status',
  'resourceclaims/binding',
  'resourceclaims/driver',
  'resourceclaimtemplates',
  'resourceslices',
  'devicetaintrules',
  'devicetaintrules/status',
] as const;

export interface AccessToRemove {
  group: string;
  /** Resources as RBAC combines them (`nodes`, `nodes/status`). */
  resources: readonly string[];
  verbs: readonly string[];
}

export type Subtraction = { rules: PolicyRule[]; changed: boolean } | { cannot: string };

const DRA = 'resource.k8s.io';

/** The resources of `rule` (in `group`) that match one of `targets`, or why they cannot be told apart. */
function matchedResources(rule: PolicyRule, group: string, targets: readonly string[]): { exact: string[] } | { cannot: string } {
  const resources = rule.resources ?? [];
  const exact = resources.filter((r) => targets.includes(r));
  const wild = resources.filter((r) => (r === '*' || r.startsWith('*/')) && targets.some((t) => r === '*' || t.endsWith(r.slice(1))));
  if (wild.length > 0 && group !== DRA)
    return {
      cannot: `it grants ${wild.join(', ')} (every resource${wild[0] === '*' ? '' : ` with that subresource`}), which cannot be listed without knowing what its holders use`,
    };
  return { exact };
}

/** `rule` with `remove` taken out, as rules in the same order; `changed` false when nothing matched. */
export function subtractAccess(rule: PolicyRule, remove: AccessToRemove): Subtraction {
  if (rule.nonResourceURLs?.length) return { rules: [rule], changed: false };
  const groups = rule.apiGroups ?? [];
  if (!groups.includes(remove.group) && !groups.includes('*')) return { rules: [rule], changed: false };
  if (groups.includes('*')) return { cannot: 'it grants every API group (apiGroups: ["*"]), which cannot be listed without knowing what its holders use' };
  const verbs = rule.verbs ?? [];
  const takenVerbs = verbs.includes('*') ? [...remove.verbs] : verbs.filter((v) => remove.verbs.includes(v));
  if (takenVerbs.length === 0) return { rules: [rule], changed: false };
  let resources = rule.resources ?? [];
  if (remove.group === DRA && resources.some((r) => r === '*' || r.startsWith('*/'))) resources = spellDraResources(resources);
  const matched = matchedResources({ ...rule, resources }, remove.group, remove.resources);
  if ('cannot' in matched) return matched;
  if (matched.exact.length === 0) return { rules: [rule], changed: false };
  const out: PolicyRule[] = [];
  const base = (r: PolicyRule): PolicyRule => (rule.resourceNames?.length ? { ...r, resourceNames: [...rule.resourceNames] } : r);
  const otherGroups = groups.filter((g) => g !== remove.group);
  if (otherGroups.length > 0) out.push(base({ apiGroups: otherGroups, resources: [...(rule.resources ?? [])], verbs: [...verbs] }));
  const rest = resources.filter((r) => !matched.exact.includes(r));
  if (rest.length > 0) out.push(base({ apiGroups: [remove.group], resources: rest, verbs: [...verbs] }));
  const keptVerbs = verbs.includes('*') ? STANDARD_VERBS.filter((v) => !remove.verbs.includes(v)) : verbs.filter((v) => !remove.verbs.includes(v));
  if (keptVerbs.length > 0) out.push(base({ apiGroups: [remove.group], resources: matched.exact, verbs: [...keptVerbs] }));
  return { rules: out, changed: true };
}

// resource.k8s.io resources with wildcards ("*", "*/sub") written out as the served resources they match.
export function spellDraResources(resources: readonly string[]): string[] {
  const out: string[] = [];
  for (const r of resources) {
    // "*" matches every resource and every subresource.
    const hits = r === '*' ? [...DRA_RESOURCE_PATHS] : r.startsWith('*/') ? DRA_RESOURCE_PATHS.filter((p) => p.endsWith(r.slice(1))) : [r];
    for (const h of hits) if (!out.includes(h)) out.push(h);
  }
  return out;
}
