// RBAC objects (roles, bindings, their rules and subjects), normalised as normalize-object.ts describes.

import { normalizeLabelSelectorArray, normalizeMeta } from './normalize-common';
import {
  enter,
  fields,
  isClean,
  leave,
  optObject,
  optObjectList,
  optString,
  optStringArray,
  reqObject,
  reqString,
  reqStringArray,
  type RawObject,
  top,
} from './normalize-helpers';
import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding, RoleRef, Subject } from './types';

const RULE_FIELDS = fields('verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs');

export function normalizeRule(r: RawObject): PolicyRule {
  const verbs = reqStringArray(r.verbs, 'verbs');
  const apiGroups = optStringArray(r.apiGroups, 'apiGroups');
  const resources = optStringArray(r.resources, 'resources');
  const resourceNames = optStringArray(r.resourceNames, 'resourceNames');
  const nonResourceURLs = optStringArray(r.nonResourceURLs, 'nonResourceURLs');
  if (isClean(r, RULE_FIELDS)) return r as unknown as PolicyRule;
  const rule: PolicyRule = { verbs };
  if (apiGroups !== undefined) rule.apiGroups = apiGroups;
  if (resources !== undefined) rule.resources = resources;
  if (resourceNames !== undefined) rule.resourceNames = resourceNames;
  if (nonResourceURLs !== undefined) rule.nonResourceURLs = nonResourceURLs;
  return rule;
}

const ROLE_FIELDS = fields('apiVersion', 'kind', 'metadata', 'rules');
const CLUSTER_ROLE_FIELDS = fields('apiVersion', 'kind', 'metadata', 'rules', 'aggregationRule');
const AGGREGATION_RULE_FIELDS = fields('clusterRoleSelectors');
type AggregationRule = NonNullable<ClusterRole['aggregationRule']>;

export function normalizeRole(o: RawObject, kind: 'Role' | 'ClusterRole', apiVersion: string): Role | ClusterRole {
  const metadata = normalizeMeta(o.metadata);
  const rules = optObjectList(o.rules, 'rules', normalizeRule);
  let aggregationRule: AggregationRule | undefined;
  if (kind === 'ClusterRole') {
    const a = optObject(o.aggregationRule, 'aggregationRule');
    if (a !== undefined) {
      enter('aggregationRule');
      const selectors = normalizeLabelSelectorArray(a.clusterRoleSelectors, 'clusterRoleSelectors');
      leave();
      aggregationRule = (isClean(a, AGGREGATION_RULE_FIELDS) ? a : {}) as unknown as AggregationRule;
      if (selectors !== undefined) aggregationRule.clusterRoleSelectors = selectors;
    }
  }
  const out = top<Role | ClusterRole>(o, kind, apiVersion, kind === 'Role' ? ROLE_FIELDS : CLUSTER_ROLE_FIELDS);
  out.metadata = metadata;
  if (rules !== undefined) out.rules = rules;
  if (aggregationRule !== undefined) (out as ClusterRole).aggregationRule = aggregationRule;
  return out;
}

const BINDING_FIELDS = fields('apiVersion', 'kind', 'metadata', 'subjects', 'roleRef');
const ROLE_REF_FIELDS = fields('apiGroup', 'kind', 'name');
const SUBJECT_FIELDS = fields('kind', 'name', 'namespace', 'apiGroup');

export function normalizeSubject(s: RawObject): Subject {
  const subjectKind = reqString(s.kind, 'kind');
  const name = reqString(s.name, 'name');
  const namespace = optString(s.namespace, 'namespace');
  const group = optString(s.apiGroup, 'apiGroup');
  if (isClean(s, SUBJECT_FIELDS)) return s as unknown as Subject;
  const subject: Subject = { kind: subjectKind, name };
  if (namespace !== undefined) subject.namespace = namespace;
  if (group !== undefined) subject.apiGroup = group;
  return subject;
}

export function normalizeBinding(o: RawObject, kind: 'RoleBinding' | 'ClusterRoleBinding', apiVersion: string): RoleBinding | ClusterRoleBinding {
  const metadata = normalizeMeta(o.metadata);
  const ref = reqObject(o.roleRef, 'roleRef');
  enter('roleRef');
  const refKind = reqString(ref.kind, 'kind');
  const refName = reqString(ref.name, 'name');
  const refGroup = optString(ref.apiGroup, 'apiGroup');
  leave();
  let roleRef: RoleRef;
  if (isClean(ref, ROLE_REF_FIELDS)) {
    roleRef = ref as unknown as RoleRef;
  } else {
    roleRef = { kind: refKind, name: refName };
    if (refGroup !== undefined) roleRef.apiGroup = refGroup;
  }
  // `subjects: null` (what the API returns for none) reads as an empty list.
  const subjects = o.subjects === null ? [] : optObjectList(o.subjects, 'subjects', normalizeSubject);
  const out = top<RoleBinding | ClusterRoleBinding>(o, kind, apiVersion, BINDING_FIELDS);
  out.metadata = metadata;
  out.roleRef = roleRef;
  if (subjects !== undefined) out.subjects = subjects;
  return out;
}
