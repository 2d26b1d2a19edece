import type { WhoCanGrant } from '@/lib/authz/who-can';
import type { ObjectRef, PolicyRule, SubjectRef } from '@/lib/k8s/types';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Evidence } from '@/lib/analysis/types';
import { grantEvidence } from '@/lib/analysis/evidence';
import { sortRefs, toObjectRef } from '@/lib/k8s/refs';
import type { YamlValue } from '@/lib/k8s/manifest-yaml';

// Small shared helpers for checks: grants as objects and evidence, wording, RBAC objects for remediations.

/** The bindings and roles behind grants, as finding objects. */
export function grantObjects(grants: readonly WhoCanGrant[]): ObjectRef[] {
  return sortRefs(grants.flatMap((g) => [toObjectRef(g.binding), toObjectRef(g.role)]));
}

export function grantsEvidence(ctx: AnalysisContext, grants: readonly WhoCanGrant[]): Evidence[] {
  return grants.map((g) => grantEvidence(ctx.engine, g));
}

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

export function rbacSubject(s: SubjectRef): { [key: string]: YamlValue } {
  return s.kind === 'ServiceAccount'
    ? { kind: 'ServiceAccount', name: s.name, namespace: s.namespace }
    : { kind: s.kind, apiGroup: 'rbac.authorization.k8s.io', name: s.name };
}

export function clusterRoleYaml(name: string, rules: { [key: string]: YamlValue }[]): { [key: string]: YamlValue } {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules };
}

export function clusterRoleBindingYaml(name: string, roleName: string, subject: SubjectRef): { [key: string]: YamlValue } {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [rbacSubject(subject)],
  };
}

export function ruleYaml(rule: PolicyRule): { [key: string]: YamlValue } {
  const out: { [key: string]: YamlValue } = {};
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
