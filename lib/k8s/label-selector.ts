// metav1.LabelSelectorAsSelector semantics: matchLabels and matchExpressions are ANDed, an empty
// selector matches everything, and a selector the API server would refuse to convert (unknown
// operator, wrong number of values, invalid key or value) matches nothing, as in kube-controller-
// manager and the ClusterRole aggregation controller, which skip selectors that fail to convert.

import type { LabelSelector, LabelSelectorRequirement } from './types';

export type Labels = Readonly<Record<string, string>> | null | undefined;
export type LabelMatcher = (labels: Labels) => boolean;

const matchNothing: LabelMatcher = () => false;
const matchEverything: LabelMatcher = () => true;

/**
 * Compiles a selector once so that callers evaluating it against many objects (aggregated
 * ClusterRoles, admission policy selectors) do not re-validate it each time.
 *
 * A nil selector (`undefined`/`null`) matches nothing, like LabelSelectorAsSelector(nil). Callers
 * for which an absent selector means "all" (the API server defaults those to `{}`) must pass `{}`.
 */
export function compileLabelSelector(selector: LabelSelector | null | undefined): LabelMatcher {
  if (selector === null || selector === undefined || typeof selector !== 'object') return matchNothing;
  const checks: LabelMatcher[] = [];
  const matchLabels = selector.matchLabels;
  if (matchLabels !== undefined && matchLabels !== null) {
    if (typeof matchLabels !== 'object') return matchNothing;
    for (const key of Object.keys(matchLabels)) {
      const value = matchLabels[key];
      if (!isValidLabelKey(key) || typeof value !== 'string' || !isValidLabelValue(value)) return matchNothing;
      checks.push((labels) => labels !== null && labels !== undefined && Object.hasOwn(labels, key) && labels[key] === value);
    }
  }
  const expressions = selector.matchExpressions;
  if (expressions !== undefined && expressions !== null) {
    if (!Array.isArray(expressions)) return matchNothing;
    for (const requirement of expressions) {
      const check = compileRequirement(requirement);
      if (check === undefined) return matchNothing;
      checks.push(check);
    }
  }
  if (checks.length === 0) return matchEverything;
  if (checks.length === 1) return checks[0];
  return (labels) => {
    for (const check of checks) if (!check(labels)) return false;
    return true;
  };
}

// Compiled once per selector object: cluster objects are not changed once read, and aggregation
// tests each aggregating role's selectors against every ClusterRole (again for each fix it verifies).
const compiled = new WeakMap<object, LabelMatcher>();

export function matchesLabelSelector(selector: LabelSelector | null | undefined, labels: Labels): boolean {
  if (selector === null || selector === undefined || typeof selector !== 'object') return compileLabelSelector(selector)(labels);
  let matcher = compiled.get(selector);
  if (!matcher) compiled.set(selector, (matcher = compileLabelSelector(selector)));
  return matcher(labels);
}

function compileRequirement(requirement: LabelSelectorRequirement): LabelMatcher | undefined {
  if (requirement === null || typeof requirement !== 'object') return undefined;
  const { key, operator } = requirement;
  const values = requirement.values ?? [];
  if (typeof key !== 'string' || !isValidLabelKey(key) || !Array.isArray(values)) return undefined;
  for (const value of values) if (typeof value !== 'string' || !isValidLabelValue(value)) return undefined;
  const has = (labels: Labels): labels is Readonly<Record<string, string>> => labels !== null && labels !== undefined && Object.hasOwn(labels, key);
  switch (operator) {
    case 'In': {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      return (labels) => has(labels) && set.has(labels[key]);
    }
    case 'NotIn': {
      if (values.length === 0) return undefined;
      const set = new Set(values);
      // An object without the key is "not in" any set: this is how kube selects it.
      return (labels) => !has(labels) || !set.has(labels[key]);
    }
    case 'Exists':
      if (values.length !== 0) return undefined;
      return (labels) => has(labels);
    case 'DoesNotExist':
      if (values.length !== 0) return undefined;
      return (labels) => !has(labels);
    default:
      return undefined;
  }
}

// Qualified name: optional DNS-1123 subdomain prefix (≤253) + "/", then a name of ≤63 chars of
// [A-Za-z0-9_.-] that starts and ends alphanumeric.
export function isValidLabelKey(key: string): boolean {
  const slash = key.indexOf('/');
  let name = key;
  if (slash >= 0) {
    const prefix = key.slice(0, slash);
    name = key.slice(slash + 1);
    if (!isDnsSubdomain(prefix)) return false;
  }
  return name.length > 0 && name.length <= 63 && isNameChars(name);
}

export function isValidLabelValue(value: string): boolean {
  return value.length === 0 || (value.length <= 63 && isNameChars(value));
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isNameChars(s: string): boolean {
  if (!isAlnum(s.charCodeAt(0)) || !isAlnum(s.charCodeAt(s.length - 1))) return false;
  for (let i = 1; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (!isAlnum(c) && c !== 45 /* - */ && c !== 95 /* _ */ && c !== 46 /* . */) return false;
  }
  return true;
}

export function isDnsSubdomain(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  for (const label of s.split('.')) {
    if (label.length === 0 || label.length > 63) return false;
    const first = label.charCodeAt(0);
    const last = label.charCodeAt(label.length - 1);
    const lowerAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122);
    if (!lowerAlnum(first) || !lowerAlnum(last)) return false;
    for (let i = 1; i < label.length - 1; i++) {
      const c = label.charCodeAt(i);
      if (!lowerAlnum(c) && c !== 45) return false;
    }
  }
  return true;
}
