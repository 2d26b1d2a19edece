import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence } from '@/lib/report/types';
import { bindingRef, grantEvidence, ruleOf } from '@/lib/analysis/context/access';
import { cmp, compareSubjects, describeSubject } from '@/lib/analysis/context/identities';
import { refKey } from '@/lib/analysis/finding-id';

// Small shared helpers for checks: refs, evidence, wording and a tiny YAML writer for remediations.

export function sortRefs(refs: readonly ObjectRef[]): ObjectRef[] {
  const seen = new Map<string, ObjectRef>();
  for (const r of refs) seen.set(refKey(r), r);
  return [...seen.values()].sort((a, b) => cmp(a.kind, b.kind) || cmp(a.namespace ?? '', b.namespace ?? '') || cmp(a.name, b.name));
}

export function sortSubjects(subjects: readonly SubjectRef[]): SubjectRef[] {
  const seen = new Map<string, SubjectRef>();
  for (const s of subjects) seen.set(refKey(s), s);
  return [...seen.values()].sort(compareSubjects);
}

/** An ObjectRef with the namespace key only when there is one (cluster-scoped refs carry none). */
export function ref(kind: string, name: string, namespace?: string): ObjectRef {
  return namespace ? { kind, namespace, name } : { kind, name };
}

/** The bindings and roles behind grants, as finding objects. */
export function grantObjects(grants: readonly WhoCanGrant[]): ObjectRef[] {
  return sortRefs(grants.flatMap((g) => [bindingRef(g.binding), bindingRef(g.role)]));
}

export function grantsEvidence(ctx: AnalysisContext, grants: readonly WhoCanGrant[]): Evidence[] {
  return grants.map((g) => grantEvidence(ctx.engine, g));
}

export function describeRef(r: { kind: string; name: string; namespace?: string }): string {
  return r.namespace ? `${r.kind} ${r.namespace}/${r.name}` : `${r.kind} ${r.name}`;
}

export function describeRule(rule: PolicyRule): string {
  const parts = [`verbs [${(rule.verbs ?? []).join(', ')}]`];
  if (rule.apiGroups) parts.push(`apiGroups [${rule.apiGroups.map((g) => (g === '' ? '""' : g)).join(', ')}]`);
  if (rule.resources) parts.push(`resources [${rule.resources.join(', ')}]`);
  if (rule.resourceNames && rule.resourceNames.length > 0) parts.push(`resourceNames [${rule.resourceNames.join(', ')}]`);
  if (rule.nonResourceURLs) parts.push(`nonResourceURLs [${rule.nonResourceURLs.join(', ')}]`);
  return parts.join(', ');
}

/** "RoleBinding ns/b → Role ns/r rule #0 (verbs [...], ...)" for each grant, joined with "; ". */
export function describeGrants(ctx: AnalysisContext, grants: readonly WhoCanGrant[]): string {
  return grants
    .map((g) => {
      const rule = ruleOf(ctx.engine, g.role, g.ruleIndex);
      const from = g.aggregatedFrom ? `, aggregated from ClusterRole ${g.aggregatedFrom}` : '';
      return `${describeRef(g.binding)} → ${describeRef(g.role)} rule #${g.ruleIndex} (${rule ? describeRule(rule) : 'missing'}${from})`;
    })
    .join('; ');
}

export { describeSubject };

export function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Where a namespaced grant applies, in words. */
export function whereText(everyNamespace: boolean, namespaces: readonly string[]): string {
  if (everyNamespace) return 'in every namespace';
  return namespaces.length === 1 ? `in namespace ${namespaces[0]}` : `in namespaces ${namespaces.join(', ')}`;
}

export function namesText(names: readonly string[], what: string): string {
  return names.includes('*') ? `any ${what}` : `${what} ${names.join(', ')}`;
}

// ---------------------------------------------------------------- YAML

type Yaml = string | number | boolean | null | undefined | Yaml[] | { [k: string]: Yaml };

const PLAIN = /^[A-Za-z0-9_./-][A-Za-z0-9_./@-]*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n|[-+]?[0-9.eE+-]+)$/i;

function scalar(v: string | number | boolean | null): string {
  if (typeof v !== 'string') return String(v);
  return PLAIN.test(v) && !RESERVED.test(v) ? v : JSON.stringify(v);
}

function isScalar(v: Yaml): v is string | number | boolean | null {
  return v === null || (v !== undefined && typeof v !== 'object');
}

/** A small block-style YAML writer (scalar lists in flow style), enough for roles, bindings and policies. */
export function toYaml(value: Yaml, indent = 0): string {
  const pad = ' '.repeat(indent);
  if (value === undefined) return `${pad}null`;
  if (isScalar(value)) return `${pad}${scalar(value)}`;
  if (Array.isArray(value)) {
    return value
      .map((item) => {
        if (isScalar(item)) return `${pad}- ${scalar(item)}`;
        const body = toYaml(item, indent + 2);
        return `${pad}- ${body.slice(indent + 2)}`;
      })
      .join('\n');
  }
  const lines: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const key = scalar(k);
    if (isScalar(v)) lines.push(`${pad}${key}: ${scalar(v)}`);
    else if (Array.isArray(v) && v.every(isScalar)) lines.push(`${pad}${key}: [${(v as (string | number | boolean | null)[]).map(scalar).join(', ')}]`);
    else if (Array.isArray(v)) lines.push(`${pad}${key}:`, toYaml(v, indent));
    else lines.push(`${pad}${key}:`, toYaml(v, indent + 2));
  }
  return lines.join('\n');
}

/** Several documents separated by `---`. */
export function yamlDocs(...docs: Yaml[]): string {
  return docs.map((d) => toYaml(d)).join('\n---\n');
}

export function rbacSubject(s: SubjectRef): { [k: string]: Yaml } {
  return s.kind === 'ServiceAccount'
    ? { kind: 'ServiceAccount', name: s.name, namespace: s.namespace }
    : { kind: s.kind, apiGroup: 'rbac.authorization.k8s.io', name: s.name };
}

export function clusterRoleYaml(name: string, rules: { [k: string]: Yaml }[]): { [k: string]: Yaml } {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules };
}

export function clusterRoleBindingYaml(name: string, roleName: string, subject: SubjectRef): { [k: string]: Yaml } {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [rbacSubject(subject)],
  };
}

export function ruleYaml(rule: PolicyRule): { [k: string]: Yaml } {
  const out: { [k: string]: Yaml } = {};
  if (rule.apiGroups) out.apiGroups = [...rule.apiGroups];
  if (rule.resources) out.resources = [...rule.resources];
  if (rule.resourceNames && rule.resourceNames.length > 0) out.resourceNames = [...rule.resourceNames];
  if (rule.nonResourceURLs) out.nonResourceURLs = [...rule.nonResourceURLs];
  out.verbs = [...rule.verbs];
  return out;
}

/** A name usable in metadata.name derived from a subject. */
export function slug(subject: SubjectRef): string {
  return (
    subject.name
      .replace(/[^a-z0-9.-]+/gi, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'subject'
  );
}

const driversCache = new WeakMap<AnalysisContext, string[]>();

/** Driver names known in the cluster (ResourceSlices and claim allocation results), sorted. */
export function knownDrivers(ctx: AnalysisContext): string[] {
  const hit = driversCache.get(ctx);
  if (hit) return hit;
  const set = new Set<string>();
  for (const s of ctx.state.resourceSlices) if (s.spec?.driver) set.add(s.spec.driver);
  for (const c of ctx.state.resourceClaims) for (const r of c.status?.allocation?.devices?.results ?? []) if (r.driver) set.add(r.driver);
  const out = [...set].sort();
  driversCache.set(ctx, out);
  return out;
}
