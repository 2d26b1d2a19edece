// Turns one untrusted parsed object into the minimal typed object of ./types. Only the fields the
// types declare are kept, which is what keeps managedFields, env values, ConfigMap data, the
// last-applied annotation and every other unread field out of memory, reports and exports. Every
// kept field is type-checked; a wrong type throws a SnapshotError carrying the field path.
//
// The input is consumed: parts of it are reused (and updated in place) when they already have the
// minimal shape, so callers must not use `raw` afterwards. See isClean in normalize-helpers.ts.

import { normalizeConditions, normalizeLabelSelector, normalizeMeta, normalizeNameRefs, normalizeTaints } from './normalize-common';
import { normalizeResourceClaim, normalizeResourceClaimTemplate } from './normalize-dra';
import { normalizeDeviceClass, normalizeResourceSlice } from './normalize-dra-slices';
import { isNormalResourceClaim } from './normalize-fast-claim';
import { isNormalPod } from './normalize-fast-pod';
import {
  asObject,
  enter,
  fail,
  fields,
  isClean,
  leave,
  optBoolean,
  optNumber,
  optObject,
  optObjectList,
  optQuantityMap,
  optString,
  optStringArray,
  reqObject,
  reqString,
  resetPath,
  type RawObject,
  top,
} from './normalize-helpers';
import { normalizeBinding, normalizeRole } from './normalize-rbac';
import { normalizeValidatingAdmissionPolicy, normalizeValidatingAdmissionPolicyBinding } from './normalize-admission';
import { normalizePodSpec, normalizePodTemplate } from './normalize-pod';
import type {
  ConfigMap,
  DaemonSet,
  Deployment,
  KubeObject,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
  ResourceClaim,
  ResourceQuota,
  ServiceAccount,
  StatefulSet,
} from './types';

/**
 * Normalises `raw` as an object of `kind` (one of lib/k8s/kinds.ts) read at `apiVersion`. The caller
 * has already decided the kind is known and the version accepted; `kind` and `apiVersion` may come
 * from an enclosing typed list when the item itself omits them. resource.k8s.io objects come back
 * as v1 whatever version they were read at.
 */
export function normalizeObject(raw: unknown, kind: string, apiVersion: string): KubeObject {
  resetPath();
  const o = asObject(raw);
  switch (kind) {
    // The bulk kinds try the fast path first: an already minimal object is kept after one pass.
    case 'Pod':
      return isNormalPod(o, apiVersion) ? (o as unknown as Pod) : normalizePod(o, apiVersion);
    case 'Namespace':
      return normalizeNamespace(o, apiVersion);
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
      return isNormalResourceClaim(o) ? (o as unknown as ResourceClaim) : normalizeResourceClaim(o);
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

const NAMESPACE_FIELDS = fields('apiVersion', 'kind', 'metadata');

function normalizeNamespace(o: RawObject, apiVersion: string): Namespace {
  const metadata = normalizeMeta(o.metadata);
  const out = top<Namespace>(o, 'Namespace', apiVersion, NAMESPACE_FIELDS);
  out.metadata = metadata;
  return out;
}

const POD_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec', 'status');
const POD_STATUS_FIELDS = fields('phase', 'resourceClaimStatuses');
const CLAIM_STATUS_FIELDS = fields('name', 'resourceClaimName');
type PodClaimStatus = NonNullable<NonNullable<Pod['status']>['resourceClaimStatuses']>[number];

function normalizePodClaimStatus(c: RawObject): PodClaimStatus {
  const name = reqString(c.name, 'name');
  const resourceClaimName = optString(c.resourceClaimName, 'resourceClaimName');
  if (isClean(c, CLAIM_STATUS_FIELDS)) return c as unknown as PodClaimStatus;
  const entry: PodClaimStatus = { name };
  if (resourceClaimName !== undefined) entry.resourceClaimName = resourceClaimName;
  return entry;
}

function normalizePodStatus(value: unknown): Pod['status'] {
  const status = optObject(value, 'status');
  if (status === undefined) return undefined;
  enter('status');
  const phase = optString(status.phase, 'phase');
  const claimStatuses = optObjectList(status.resourceClaimStatuses, 'resourceClaimStatuses', normalizePodClaimStatus);
  leave();
  if (isClean(status, POD_STATUS_FIELDS)) return status as Pod['status'];
  const out: NonNullable<Pod['status']> = {};
  if (phase !== undefined) out.phase = phase;
  if (claimStatuses !== undefined) out.resourceClaimStatuses = claimStatuses;
  return out;
}

/** The plain pod normaliser (normalizeObject tries isNormalPod first); the fast path's tests compare the two. */
export function normalizePod(o: RawObject, apiVersion: string): Pod {
  const metadata = normalizeMeta(o.metadata);
  const spec = normalizePodSpec(o.spec, 'spec');
  const status = normalizePodStatus(o.status);
  const out = top<Pod>(o, 'Pod', apiVersion, POD_FIELDS);
  out.metadata = metadata;
  out.spec = spec;
  if (status !== undefined) out.status = status;
  return out;
}

const NODE_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec', 'status');
const NODE_SPEC_FIELDS = fields('taints', 'unschedulable');
const NODE_STATUS_FIELDS = fields('conditions', 'nodeInfo');
const NODE_INFO_FIELDS = fields('kubeletVersion');

function normalizeNode(o: RawObject, apiVersion: string): Node {
  const metadata = normalizeMeta(o.metadata);
  let specOut: Node['spec'];
  const spec = optObject(o.spec, 'spec');
  if (spec !== undefined) {
    enter('spec');
    const taints = normalizeTaints(spec.taints, 'taints');
    const unschedulable = optBoolean(spec.unschedulable, 'unschedulable');
    leave();
    specOut = (isClean(spec, NODE_SPEC_FIELDS) ? spec : {}) as unknown as NonNullable<Node['spec']>;
    if (taints !== undefined) specOut.taints = taints;
    if (unschedulable !== undefined) specOut.unschedulable = unschedulable;
  }
  let statusOut: Node['status'];
  const status = optObject(o.status, 'status');
  if (status !== undefined) {
    enter('status');
    const conditions = normalizeConditions(status.conditions, 'conditions');
    let nodeInfo: { kubeletVersion?: string } | undefined;
    const info = optObject(status.nodeInfo, 'nodeInfo');
    if (info !== undefined) {
      enter('nodeInfo');
      const kubeletVersion = optString(info.kubeletVersion, 'kubeletVersion');
      leave();
      nodeInfo = (isClean(info, NODE_INFO_FIELDS) ? info : {}) as unknown as { kubeletVersion?: string };
      if (kubeletVersion !== undefined) nodeInfo.kubeletVersion = kubeletVersion;
    }
    leave();
    statusOut = (isClean(status, NODE_STATUS_FIELDS) ? status : {}) as unknown as NonNullable<Node['status']>;
    if (conditions !== undefined) statusOut.conditions = conditions;
    if (nodeInfo !== undefined) statusOut.nodeInfo = nodeInfo;
  }
  const out = top<Node>(o, 'Node', apiVersion, NODE_FIELDS);
  out.metadata = metadata;
  if (specOut !== undefined) out.spec = specOut;
  if (statusOut !== undefined) out.status = statusOut;
  return out;
}

const SERVICE_ACCOUNT_FIELDS = fields('apiVersion', 'kind', 'metadata', 'secrets', 'imagePullSecrets');

function normalizeServiceAccount(o: RawObject, apiVersion: string): ServiceAccount {
  const metadata = normalizeMeta(o.metadata);
  const secrets = normalizeNameRefs(o.secrets, 'secrets');
  const imagePullSecrets = normalizeNameRefs(o.imagePullSecrets, 'imagePullSecrets');
  const out = top<ServiceAccount>(o, 'ServiceAccount', apiVersion, SERVICE_ACCOUNT_FIELDS);
  out.metadata = metadata;
  if (secrets !== undefined) out.secrets = secrets;
  if (imagePullSecrets !== undefined) out.imagePullSecrets = imagePullSecrets;
  return out;
}

function mapKeys(value: unknown, key: string, into: string[]): void {
  const map = optObject(value, key);
  if (map === undefined) return;
  for (const k in map) into.push(k);
}

// `dataKeys` is accepted too, so this project's own exports read back unchanged.
const CONFIG_MAP_FIELDS = fields('apiVersion', 'kind', 'metadata', 'dataKeys');

function normalizeConfigMap(o: RawObject, apiVersion: string): ConfigMap {
  const metadata = normalizeMeta(o.metadata);
  // Values are never kept: only which keys exist. `data` makes the object unclean, so it is copied.
  let dataKeys: string[] | undefined;
  if (o.data !== undefined || o.binaryData !== undefined) {
    dataKeys = [];
    mapKeys(o.data, 'data', dataKeys);
    mapKeys(o.binaryData, 'binaryData', dataKeys);
  } else {
    dataKeys = optStringArray(o.dataKeys, 'dataKeys');
  }
  const out = top<ConfigMap>(o, 'ConfigMap', apiVersion, CONFIG_MAP_FIELDS);
  out.metadata = metadata;
  if (dataKeys !== undefined) out.dataKeys = dataKeys;
  return out;
}

const PVC_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec');
const PVC_SPEC_FIELDS = fields('volumeName', 'storageClassName');

function normalizePersistentVolumeClaim(o: RawObject, apiVersion: string): PersistentVolumeClaim {
  const metadata = normalizeMeta(o.metadata);
  let specOut: PersistentVolumeClaim['spec'];
  const spec = optObject(o.spec, 'spec');
  if (spec !== undefined) {
    enter('spec');
    const volumeName = optString(spec.volumeName, 'volumeName');
    const storageClassName = optString(spec.storageClassName, 'storageClassName');
    leave();
    specOut = (isClean(spec, PVC_SPEC_FIELDS) ? spec : {}) as unknown as NonNullable<PersistentVolumeClaim['spec']>;
    if (volumeName !== undefined) specOut.volumeName = volumeName;
    if (storageClassName !== undefined) specOut.storageClassName = storageClassName;
  }
  const out = top<PersistentVolumeClaim>(o, 'PersistentVolumeClaim', apiVersion, PVC_FIELDS);
  out.metadata = metadata;
  if (specOut !== undefined) out.spec = specOut;
  return out;
}

const PV_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec');
const PV_SPEC_FIELDS = fields('claimRef', 'csi');
const CLAIM_REF_FIELDS = fields('namespace', 'name');
const PV_CSI_FIELDS = fields('driver', 'nodePublishSecretRef');
const SECRET_REF_FIELDS = fields('name', 'namespace');

function normalizePersistentVolume(o: RawObject, apiVersion: string): PersistentVolume {
  const metadata = normalizeMeta(o.metadata);
  let specOut: PersistentVolume['spec'];
  const spec = optObject(o.spec, 'spec');
  if (spec !== undefined) {
    enter('spec');
    let claimRef: { namespace?: string; name?: string } | undefined;
    const ref = optObject(spec.claimRef, 'claimRef');
    if (ref !== undefined) {
      enter('claimRef');
      const namespace = optString(ref.namespace, 'namespace');
      const name = optString(ref.name, 'name');
      leave();
      claimRef = (isClean(ref, CLAIM_REF_FIELDS) ? ref : {}) as unknown as { namespace?: string; name?: string };
      if (namespace !== undefined) claimRef.namespace = namespace;
      if (name !== undefined) claimRef.name = name;
    }
    let csi: NonNullable<PersistentVolume['spec']>['csi'];
    const c = optObject(spec.csi, 'csi');
    if (c !== undefined) {
      enter('csi');
      const driver = optString(c.driver, 'driver');
      let secretRef: { name: string; namespace?: string } | undefined;
      const s = optObject(c.nodePublishSecretRef, 'nodePublishSecretRef');
      if (s !== undefined) {
        enter('nodePublishSecretRef');
        const name = reqString(s.name, 'name');
        const namespace = optString(s.namespace, 'namespace');
        leave();
        secretRef = (isClean(s, SECRET_REF_FIELDS) ? s : {}) as unknown as { name: string; namespace?: string };
        secretRef.name = name;
        if (namespace !== undefined) secretRef.namespace = namespace;
      }
      leave();
      csi = (isClean(c, PV_CSI_FIELDS) ? c : {}) as unknown as NonNullable<NonNullable<PersistentVolume['spec']>['csi']>;
      if (driver !== undefined) csi.driver = driver;
      if (secretRef !== undefined) csi.nodePublishSecretRef = secretRef;
    }
    leave();
    specOut = (isClean(spec, PV_SPEC_FIELDS) ? spec : {}) as unknown as NonNullable<PersistentVolume['spec']>;
    if (claimRef !== undefined) specOut.claimRef = claimRef;
    if (csi !== undefined) specOut.csi = csi;
  }
  const out = top<PersistentVolume>(o, 'PersistentVolume', apiVersion, PV_FIELDS);
  out.metadata = metadata;
  if (specOut !== undefined) out.spec = specOut;
  return out;
}

const QUOTA_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec', 'status');
const QUOTA_SPEC_FIELDS = fields('hard', 'scopes');
const QUOTA_STATUS_FIELDS = fields('hard', 'used');

function normalizeResourceQuota(o: RawObject, apiVersion: string): ResourceQuota {
  const metadata = normalizeMeta(o.metadata);
  let specOut: ResourceQuota['spec'];
  const spec = optObject(o.spec, 'spec');
  if (spec !== undefined) {
    enter('spec');
    const hard = optQuantityMap(spec.hard, 'hard');
    const scopes = optStringArray(spec.scopes, 'scopes');
    leave();
    specOut = (isClean(spec, QUOTA_SPEC_FIELDS) ? spec : {}) as unknown as NonNullable<ResourceQuota['spec']>;
    if (hard !== undefined) specOut.hard = hard;
    if (scopes !== undefined) specOut.scopes = scopes;
  }
  let statusOut: ResourceQuota['status'];
  const status = optObject(o.status, 'status');
  if (status !== undefined) {
    enter('status');
    const hard = optQuantityMap(status.hard, 'hard');
    const used = optQuantityMap(status.used, 'used');
    leave();
    statusOut = (isClean(status, QUOTA_STATUS_FIELDS) ? status : {}) as unknown as NonNullable<ResourceQuota['status']>;
    if (hard !== undefined) statusOut.hard = hard;
    if (used !== undefined) statusOut.used = used;
  }
  const out = top<ResourceQuota>(o, 'ResourceQuota', apiVersion, QUOTA_FIELDS);
  out.metadata = metadata;
  if (specOut !== undefined) out.spec = specOut;
  if (statusOut !== undefined) out.status = statusOut;
  return out;
}

type Workload = DaemonSet | Deployment | StatefulSet | ReplicaSet;
const WORKLOAD_FIELDS = fields('apiVersion', 'kind', 'metadata', 'spec');
const WORKLOAD_SPEC_FIELDS = fields('replicas', 'selector', 'template');
const DAEMON_SET_SPEC_FIELDS = fields('selector', 'template');

function normalizeWorkload(o: RawObject, kind: Workload['kind'], apiVersion: string): Workload {
  const metadata = normalizeMeta(o.metadata);
  const spec = reqObject(o.spec, 'spec');
  enter('spec');
  // ReplicaSets may exist without a template (orphaned, scaled to zero by hand); the rest may not.
  const template = normalizePodTemplate(spec.template, 'template', kind !== 'ReplicaSet');
  const selector = normalizeLabelSelector(spec.selector, 'selector');
  const replicas = kind === 'DaemonSet' ? undefined : optNumber(spec.replicas, 'replicas');
  leave();
  const specFields = kind === 'DaemonSet' ? DAEMON_SET_SPEC_FIELDS : WORKLOAD_SPEC_FIELDS;
  const specOut = (isClean(spec, specFields) ? spec : {}) as unknown as {
    replicas?: number;
    selector?: DaemonSet['spec']['selector'];
    template?: DaemonSet['spec']['template'];
  };
  if (replicas !== undefined) specOut.replicas = replicas;
  if (selector !== undefined) specOut.selector = selector;
  if (template !== undefined) specOut.template = template;
  const out = top<Workload>(o, kind, apiVersion, WORKLOAD_FIELDS);
  out.metadata = metadata;
  (out as ReplicaSet).spec = specOut;
  return out;
}
