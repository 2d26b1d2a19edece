import type { PolicyRule } from '@/lib/k8s/types';
import type { NonResourceAttributes, ResourceAttributes } from './types';

// Exact port of the matching semantics in pkg/apis/rbac/v1/evaluation_helpers.go: exact,
// case-sensitive strings; only a whole "*" is a wildcard; "*/sub" matches any resource with that
// subresource; a trailing "*" in a nonResourceURL is a raw string prefix.

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  const verbs = rule.verbs;
  if (!verbs) return false;
  for (let i = 0; i < verbs.length; i++) {
    const v = verbs[i];
    if (v === '*' || v === verb) return true;
  }
  return false;
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  const groups = rule.apiGroups;
  if (!groups) return false;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    if (g === '*' || g === group) return true;
  }
  return false;
}

export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
  const resources = rule.resources;
  if (!resources) return false;
  for (let i = 0; i < resources.length; i++) {
    const r = resources[i];
    if (r === '*' || r === combinedResource) return true;
    // "*/sub" matches any resource whose subresource is exactly "sub".
    if (subresource.length > 0 && r.length === 2 + subresource.length && r.startsWith('*/') && r.endsWith(subresource)) {
      return true;
    }
  }
  return false;
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames;
  if (!names || names.length === 0) return true;
  for (let i = 0; i < names.length; i++) if (names[i] === name) return true;
  return false;
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  const urls = rule.nonResourceURLs;
  if (!urls) return false;
  for (let i = 0; i < urls.length; i++) {
    const u = urls[i];
    if (u === '*' || u === path) return true;
    if (u.length > 0 && u.charCodeAt(u.length - 1) === 42 /* * */ && path.startsWith(trimTrailingStars(u))) return true;
  }
  return false;
}

function trimTrailingStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 42) end--;
  return s.slice(0, end);
}

export function combinedResource(attrs: { resource: string; subresource: string }): string {
  return attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
}

export function ruleAllowsResource(rule: PolicyRule, attrs: ResourceAttributes, combined = combinedResource(attrs)): boolean {
  return (
    verbMatches(rule, attrs.verb) &&
    apiGroupMatches(rule, attrs.group) &&
    resourceMatches(rule, combined, attrs.subresource) &&
    resourceNameMatches(rule, attrs.name)
  );
}

export function ruleAllowsNonResource(rule: PolicyRule, attrs: NonResourceAttributes): boolean {
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}
