// Turns one untrusted parsed object into the minimal typed object of ./types. Only the fields the
// types declare are copied, which is what keeps managedFields, env values, ConfigMap data, the
// last-applied annotation and every other unread field out of memory, reports and exports. Every
// copied field is type-checked; a wrong type throws a SnapshotError carrying the field path.

import { normalizeConditions, normalizeLabelSelector, normalizeLabelSelectorArray, normalizeMeta, normalizeNameRefs, normalizeTaints } from './normalize-common';
import { normalizeDeviceClass, normalizeResourceClaim, normalizeResourceClaimTemplate, normalizeResourceSlice } from './normalize-dra';
import {
  asObject,
  copyUndeclared,
  enter,
  fail,
  leave,
  optArray,
  optBoolean,
  optNumber,
  optObject,
  optQuantityMap,
  optString,
  optStringArray,
  reqObject,
  reqString,
  reqStringArray,
  resetPath,
  type RawObject,
} from './normalize-helpers';
import { normalizePodSpec, normalizePodTemplate } from './normalize-pod';
import type {
  ClusterRole,
  ClusterRoleBinding,
  ConfigMap,
  DaemonSet,
  Deployment,
  KubeObject,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PolicyRule,
  ReplicaSet,
  ResourceQuota,
  Role,
  RoleBinding,
  RoleRef,
  ServiceAccount,
  StatefulSet,
  Subject,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from './types';

/**
 * Normalises `raw` as an object of `kind` (one of lib/k8s/kinds.ts) read at `apiVersion`. The caller
 * has already decided the kind is known and the version accepted; `kind` and `apiVersion` may come
 * from an enclosing typed list when the item itself omits them.
 */
export function normalizeObject(raw: unknown, kind: string, apiVersion: string): KubeObject {
  resetPath();
  const o = asObject(raw);
  switch (kind) {
    case 'Pod':
      return normalizePod(o, apiVersion);
    case 'Namespace':
      return { apiVersion, kind: 'Namespace', metadata: normalizeMeta(o) } satisfies Namespace;
    case 'Node':
      return normalizeNode(o, apiVersion);
    case 'ServiceAccount':
      return normalizeServiceAccount(o, apiVersion);
    case 'ConfigMap':
      return normalizeConfigMap(o, apiVersion);
    case 'PersistentVolumeClaim':
      return normalizePersistentVolumeClaim(o, apiVersion);
    case 'PersistentVolume':
      return normalizePersistentVolume(o, apiVersion);
    case 'ResourceQuota':
      return normalizeResourceQuota(o, apiVersion);
    case 'DaemonSet':
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      return normalizeWorkload(o, kind, apiVersion);
    case 'Role':
    case 'ClusterRole':
      return normalizeRole(o, kind, apiVersion);
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return normalizeBinding(o, kind, apiVersion);
    case 'ResourceClaim':
      return normalizeResourceClaim(o);
    case 'ResourceClaimTemplate':
      return normalizeResourceClaimTemplate(o);
    case 'ResourceSlice':
      return normalizeResourceSlice(o);
    case 'DeviceClass':
      return normalizeDeviceClass(o);
    case 'ValidatingAdmissionPolicy':
      return normalizeValidatingAdmissionPolicy(o, apiVersion);
    case 'ValidatingAdmissionPolicyBinding':
      return normalizeValidatingAdmissionPolicyBinding(o, apiVersion);
    default:
      return fail('kind', `kind ${JSON.stringify(kind)} is not read by dra-posture`);
  }
}

function normalizePod(o: RawObject, apiVersion: string): Pod {
  const out: Pod = { apiVersion, kind: 'Pod', metadata: normalizeMeta(o), spec: normalizePodSpec(o, 'spec') };
  const status = optObject(o, 'status');
  if (status !== undefined) {
    enter('status');
    const s: NonNullable<Pod['status']> = {};
    const phase = optString(status, 'phase');
    if (phase !== undefined) s.phase = phase;
    const claimStatuses = optArray(status, 'resourceClaimStatuses');
    if (claimStatuses !== undefined) {
      enter('resourceClaimStatuses');
      const list: NonNullable<NonNullable<Pod['status']>['resourceClaimStatuses']> = [];
      for (let i = 0; i < claimStatuses.length; i++) {
        enter(i);
        const c = asObject(claimStatuses[i]);
        const entry: (typeof list)[number] = { name: reqString(c, 'name') };
        const resourceClaimName = optString(c, 'resourceClaimName');
        if (resourceClaimName !== undefined) entry.resourceClaimName = resourceClaimName;
        list.push(entry);
        leave();
      }
      leave();
      s.resourceClaimStatuses = list;
    }
    out.status = s;
    leave();
  }
  return out;
}

function normalizeNode(o: RawObject, apiVersion: string): Node {
  const out: Node = { apiVersion, kind: 'Node', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec !== undefined) {
    enter('spec');
    const s: NonNullable<Node['spec']> = {};
    const taints = normalizeTaints(spec, 'taints');
    if (taints !== undefined) s.taints = taints;
    const unschedulable = optBoolean(spec, 'unschedulable');
    if (unschedulable !== undefined) s.unschedulable = unschedulable;
    out.spec = s;
    leave();
  }
  const status = optObject(o, 'status');
  if (status !== undefined) {
    enter('status');
    const s: NonNullable<Node['status']> = {};
    const conditions = normalizeConditions(status, 'conditions');
    if (conditions !== undefined) s.conditions = conditions;
    const nodeInfo = optObject(status, 'nodeInfo');
    if (nodeInfo !== undefined) {
      enter('nodeInfo');
      const info: { kubeletVersion?: string } = {};
      const kubeletVersion = optString(nodeInfo, 'kubeletVersion');
      if (kubeletVersion !== undefined) info.kubeletVersion = kubeletVersion;
      s.nodeInfo = info;
      leave();
    }
    out.status = s;
    leave();
  }
  return out;
}

function normalizeServiceAccount(o: RawObject, apiVersion: string): ServiceAccount {
  const out: ServiceAccount = { apiVersion, kind: 'ServiceAccount', metadata: normalizeMeta(o) };
  const secrets = normalizeNameRefs(o, 'secrets');
  if (secrets !== undefined) out.secrets = secrets;
  const imagePullSecrets = normalizeNameRefs(o, 'imagePullSecrets');
  if (imagePullSecrets !== undefined) out.imagePullSecrets = imagePullSecrets;
  return out;
}

function mapKeys(o: RawObject, key: string, into: string[]): void {
  const map = optObject(o, key);
  if (map === undefined) return;
  for (const k in map) into.push(k);
}

function normalizeConfigMap(o: RawObject, apiVersion: string): ConfigMap {
  const out: ConfigMap = { apiVersion, kind: 'ConfigMap', metadata: normalizeMeta(o) };
  if (o.data === undefined && o.binaryData === undefined) return out;
  // Values are never read: only which keys exist.
  const keys: string[] = [];
  mapKeys(o, 'data', keys);
  mapKeys(o, 'binaryData', keys);
  out.dataKeys = keys;
  return out;
}

function normalizePersistentVolumeClaim(o: RawObject, apiVersion: string): PersistentVolumeClaim {
  const out: PersistentVolumeClaim = { apiVersion, kind: 'PersistentVolumeClaim', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const s: NonNullable<PersistentVolumeClaim['spec']> = {};
  const volumeName = optString(spec, 'volumeName');
  if (volumeName !== undefined) s.volumeName = volumeName;
  const storageClassName = optString(spec, 'storageClassName');
  if (storageClassName !== undefined) s.storageClassName = storageClassName;
  out.spec = s;
  leave();
  return out;
}

function normalizePersistentVolume(o: RawObject, apiVersion: string): PersistentVolume {
  const out: PersistentVolume = { apiVersion, kind: 'PersistentVolume', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const s: NonNullable<PersistentVolume['spec']> = {};
  const claimRef = optObject(spec, 'claimRef');
  if (claimRef !== undefined) {
    enter('claimRef');
    const ref: { namespace?: string; name?: string } = {};
    const namespace = optString(claimRef, 'namespace');
    if (namespace !== undefined) ref.namespace = namespace;
    const name = optString(claimRef, 'name');
    if (name !== undefined) ref.name = name;
    s.claimRef = ref;
    leave();
  }
  const csi = optObject(spec, 'csi');
  if (csi !== undefined) {
    enter('csi');
    const c: NonNullable<NonNullable<PersistentVolume['spec']>['csi']> = {};
    const driver = optString(csi, 'driver');
    if (driver !== undefined) c.driver = driver;
    const ref = optObject(csi, 'nodePublishSecretRef');
    if (ref !== undefined) {
      enter('nodePublishSecretRef');
      const r: { name: string; namespace?: string } = { name: reqString(ref, 'name') };
      const namespace = optString(ref, 'namespace');
      if (namespace !== undefined) r.namespace = namespace;
      c.nodePublishSecretRef = r;
      leave();
    }
    s.csi = c;
    leave();
  }
  out.spec = s;
  leave();
  return out;
}

function normalizeResourceQuota(o: RawObject, apiVersion: string): ResourceQuota {
  const out: ResourceQuota = { apiVersion, kind: 'ResourceQuota', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec !== undefined) {
    enter('spec');
    const s: NonNullable<ResourceQuota['spec']> = {};
    const hard = optQuantityMap(spec, 'hard');
    if (hard !== undefined) s.hard = hard;
    const scopes = optStringArray(spec, 'scopes');
    if (scopes !== undefined) s.scopes = scopes;
    out.spec = s;
    leave();
  }
  const status = optObject(o, 'status');
  if (status !== undefined) {
    enter('status');
    const s: NonNullable<ResourceQuota['status']> = {};
    const hard = optQuantityMap(status, 'hard');
    if (hard !== undefined) s.hard = hard;
    const used = optQuantityMap(status, 'used');
    if (used !== undefined) s.used = used;
    out.status = s;
    leave();
  }
  return out;
}

type Workload = DaemonSet | Deployment | StatefulSet | ReplicaSet;

function normalizeWorkload(o: RawObject, kind: Workload['kind'], apiVersion: string): Workload {
  const metadata = normalizeMeta(o);
  const spec = reqObject(o, 'spec');
  enter('spec');
  // ReplicaSets may exist without a template (orphaned, scaled to zero by hand); the rest may not.
  const template = normalizePodTemplate(spec, 'template', kind !== 'ReplicaSet');
  const selector = normalizeLabelSelector(spec, 'selector');
  const replicas = kind === 'DaemonSet' ? undefined : optNumber(spec, 'replicas');
  leave();
  const s: { replicas?: number; selector?: DaemonSet['spec']['selector']; template?: DaemonSet['spec']['template'] } = {};
  if (replicas !== undefined) s.replicas = replicas;
  if (selector !== undefined) s.selector = selector;
  if (template !== undefined) s.template = template;
  return { apiVersion, kind, metadata, spec: s } as Workload;
}

function normalizeRules(o: RawObject): PolicyRule[] | undefined {
  const rules = optArray(o, 'rules');
  if (rules === undefined) return undefined;
  enter('rules');
  const out: PolicyRule[] = [];
  for (let i = 0; i < rules.length; i++) {
    enter(i);
    const r = asObject(rules[i]);
    const rule: PolicyRule = { verbs: reqStringArray(r, 'verbs') };
    const apiGroups = optStringArray(r, 'apiGroups');
    if (apiGroups !== undefined) rule.apiGroups = apiGroups;
    const resources = optStringArray(r, 'resources');
    if (resources !== undefined) rule.resources = resources;
    const resourceNames = optStringArray(r, 'resourceNames');
    if (resourceNames !== undefined) rule.resourceNames = resourceNames;
    const nonResourceURLs = optStringArray(r, 'nonResourceURLs');
    if (nonResourceURLs !== undefined) rule.nonResourceURLs = nonResourceURLs;
    out.push(rule);
    leave();
  }
  leave();
  return out;
}

function normalizeRole(o: RawObject, kind: 'Role' | 'ClusterRole', apiVersion: string): Role | ClusterRole {
  const out: Role | ClusterRole = { apiVersion, kind, metadata: normalizeMeta(o) } as Role | ClusterRole;
  const rules = normalizeRules(o);
  if (rules !== undefined) out.rules = rules;
  if (kind === 'ClusterRole') {
    const aggregationRule = optObject(o, 'aggregationRule');
    if (aggregationRule !== undefined) {
      enter('aggregationRule');
      const rule: { clusterRoleSelectors?: NonNullable<ClusterRole['aggregationRule']>['clusterRoleSelectors'] } = {};
      const selectors = normalizeLabelSelectorArray(aggregationRule, 'clusterRoleSelectors');
      if (selectors !== undefined) rule.clusterRoleSelectors = selectors;
      (out as ClusterRole).aggregationRule = rule;
      leave();
    }
  }
  return out;
}

function normalizeBinding(o: RawObject, kind: 'RoleBinding' | 'ClusterRoleBinding', apiVersion: string): RoleBinding | ClusterRoleBinding {
  const metadata = normalizeMeta(o);
  const ref = reqObject(o, 'roleRef');
  enter('roleRef');
  const roleRef: RoleRef = { kind: reqString(ref, 'kind'), name: reqString(ref, 'name') };
  const apiGroup = optString(ref, 'apiGroup');
  if (apiGroup !== undefined) roleRef.apiGroup = apiGroup;
  leave();
  const out = { apiVersion, kind, metadata, roleRef } as RoleBinding | ClusterRoleBinding;
  if (o.subjects === null) {
    out.subjects = [];
    return out;
  }
  const subjects = optArray(o, 'subjects');
  if (subjects === undefined) return out;
  enter('subjects');
  const list: Subject[] = [];
  for (let i = 0; i < subjects.length; i++) {
    enter(i);
    const s = asObject(subjects[i]);
    const subject: Subject = { kind: reqString(s, 'kind'), name: reqString(s, 'name') };
    const namespace = optString(s, 'namespace');
    if (namespace !== undefined) subject.namespace = namespace;
    const group = optString(s, 'apiGroup');
    if (group !== undefined) subject.apiGroup = group;
    list.push(subject);
    leave();
  }
  leave();
  out.subjects = list;
  return out;
}

// Admission policies are few and small, and their undeclared parts (variables, paramKind, paramRef,
// auditAnnotations) matter for "does a policy cover this", so those are copied as free-form JSON.
const VAP_SPEC_DECLARED = new Set(['failurePolicy', 'matchConstraints', 'matchConditions', 'validations']);
const VAPB_SPEC_DECLARED = new Set(['policyName', 'validationActions', 'matchResources']);
const MATCH_RESOURCES_DECLARED = new Set(['namespaceSelector', 'objectSelector']);

type ResourceRule = NonNullable<NonNullable<NonNullable<ValidatingAdmissionPolicy['spec']>['matchConstraints']>['resourceRules']>[number];

function normalizeResourceRules(o: RawObject): ResourceRule[] | undefined {
  const list = optArray(o, 'resourceRules');
  if (list === undefined) return undefined;
  enter('resourceRules');
  const out: ResourceRule[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const r = asObject(list[i]);
    const rule: ResourceRule = {};
    const apiGroups = optStringArray(r, 'apiGroups');
    if (apiGroups !== undefined) rule.apiGroups = apiGroups;
    const apiVersions = optStringArray(r, 'apiVersions');
    if (apiVersions !== undefined) rule.apiVersions = apiVersions;
    const operations = optStringArray(r, 'operations');
    if (operations !== undefined) rule.operations = operations;
    const resources = optStringArray(r, 'resources');
    if (resources !== undefined) rule.resources = resources;
    const resourceNames = optStringArray(r, 'resourceNames');
    if (resourceNames !== undefined) rule.resourceNames = resourceNames;
    out.push(rule);
    leave();
  }
  leave();
  return out;
}

function normalizeNamedExpressions<T extends { expression: string }>(o: RawObject, key: string, nameField: 'name' | 'message', nameRequired: boolean): T[] | undefined {
  const list = optArray(o, key);
  if (list === undefined) return undefined;
  enter(key);
  const out: T[] = [];
  for (let i = 0; i < list.length; i++) {
    enter(i);
    const e = asObject(list[i]);
    const entry: Record<string, string> = {};
    if (nameRequired) entry[nameField] = reqString(e, nameField);
    entry.expression = reqString(e, 'expression');
    if (!nameRequired) {
      const value = optString(e, nameField);
      if (value !== undefined) entry[nameField] = value;
    }
    out.push(entry as unknown as T);
    leave();
  }
  leave();
  return out;
}

function normalizeValidatingAdmissionPolicy(o: RawObject, apiVersion: string): ValidatingAdmissionPolicy {
  const out: ValidatingAdmissionPolicy = { apiVersion, kind: 'ValidatingAdmissionPolicy', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const s: NonNullable<ValidatingAdmissionPolicy['spec']> = {};
  const failurePolicy = optString(spec, 'failurePolicy');
  if (failurePolicy !== undefined) s.failurePolicy = failurePolicy;
  const constraints = optObject(spec, 'matchConstraints');
  if (constraints !== undefined) {
    enter('matchConstraints');
    const c: NonNullable<NonNullable<ValidatingAdmissionPolicy['spec']>['matchConstraints']> = {};
    const resourceRules = normalizeResourceRules(constraints);
    if (resourceRules !== undefined) c.resourceRules = resourceRules;
    const namespaceSelector = normalizeLabelSelector(constraints, 'namespaceSelector');
    if (namespaceSelector !== undefined) c.namespaceSelector = namespaceSelector;
    const objectSelector = normalizeLabelSelector(constraints, 'objectSelector');
    if (objectSelector !== undefined) c.objectSelector = objectSelector;
    s.matchConstraints = c;
    leave();
  }
  const matchConditions = normalizeNamedExpressions<{ name: string; expression: string }>(spec, 'matchConditions', 'name', true);
  if (matchConditions !== undefined) s.matchConditions = matchConditions;
  const validations = normalizeNamedExpressions<{ expression: string; message?: string }>(spec, 'validations', 'message', false);
  if (validations !== undefined) s.validations = validations;
  copyUndeclared(spec, VAP_SPEC_DECLARED, s);
  out.spec = s;
  leave();
  return out;
}

function normalizeValidatingAdmissionPolicyBinding(o: RawObject, apiVersion: string): ValidatingAdmissionPolicyBinding {
  const out: ValidatingAdmissionPolicyBinding = { apiVersion, kind: 'ValidatingAdmissionPolicyBinding', metadata: normalizeMeta(o) };
  const spec = optObject(o, 'spec');
  if (spec === undefined) return out;
  enter('spec');
  const s: NonNullable<ValidatingAdmissionPolicyBinding['spec']> = {};
  const policyName = optString(spec, 'policyName');
  if (policyName !== undefined) s.policyName = policyName;
  const validationActions = optStringArray(spec, 'validationActions');
  if (validationActions !== undefined) s.validationActions = validationActions;
  const matchResources = optObject(spec, 'matchResources');
  if (matchResources !== undefined) {
    enter('matchResources');
    const m: NonNullable<NonNullable<ValidatingAdmissionPolicyBinding['spec']>['matchResources']> = {};
    const namespaceSelector = normalizeLabelSelector(matchResources, 'namespaceSelector');
    if (namespaceSelector !== undefined) m.namespaceSelector = namespaceSelector;
    const objectSelector = normalizeLabelSelector(matchResources, 'objectSelector');
    if (objectSelector !== undefined) m.objectSelector = objectSelector;
    copyUndeclared(matchResources, MATCH_RESOURCES_DECLARED, m);
    s.matchResources = m;
    leave();
  }
  copyUndeclared(spec, VAPB_SPEC_DECLARED, s);
  out.spec = s;
  leave();
  return out;
}
