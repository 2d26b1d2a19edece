import type { ResourceAttributes, UserInfo } from './types';
import { nodeIdentity } from './user-info';
import { semanticEqual } from './semantic-equal';

// The NodeRestriction admission plugin (plugin/pkg/admission/noderestriction/admission.go): after
// authorization, a node identity's creates, updates and deletes are limited to its own objects.
// Requests from anything that is not a node identity pass untouched.

type Obj = Record<string, unknown>;

export interface AdmissionRequest {
  attributes: ResourceAttributes;
  /** The object sent (create/update); the stored object (update/delete). */
  object?: unknown;
  oldObject?: unknown;
}

export interface AdmissionDecision {
  allowed: boolean;
  reason: string;
}

/** What NodeRestriction needs to know about the cluster: pods (delete, eviction, token binding) and Node UIDs. */
export interface NodeRestrictionLookups {
  pod(namespace: string, name: string): { uid?: string; nodeName?: string } | undefined;
  nodeUid(name: string): string | undefined;
}

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const NODE_LEASE_NAMESPACE = 'kube-node-lease';
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const ok: AdmissionDecision = { allowed: true, reason: 'NodeRestriction: allowed' };
const forbid = (reason: string): AdmissionDecision => ({ allowed: false, reason: `NodeRestriction: ${reason}` });
const rec = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const meta = (o: unknown) => rec(rec(o).metadata);
const spec = (o: unknown) => rec(rec(o).spec);

function operationOf(verb: string): 'create' | 'update' | 'delete' | undefined {
  if (verb === 'create') return 'create';
  if (verb === 'update' || verb === 'patch') return 'update';
  if (verb === 'delete' || verb === 'deletecollection') return 'delete';
  return undefined;
}

/** The admission decision for one request; only node identities are restricted. */
export function admitNodeRestriction(user: UserInfo, request: AdmissionRequest, lookups: NodeRestrictionLookups): AdmissionDecision {
  const node = nodeIdentity(user);
  if (!node) return { allowed: true, reason: 'NodeRestriction applies only to node identities' };
  const op = operationOf(request.attributes.verb);
  if (!op) return { allowed: true, reason: 'NodeRestriction sees only create, update and delete' };
  if (node.nodeName === '') return forbid(`could not determine node from user "${user.name}"`);
  const a = request.attributes;
  const n = node.nodeName;
  const key = `${a.group}/${a.resource}`;
  switch (key) {
    case '/pods':
      return admitPod(n, op, request, lookups);
    case '/nodes':
      return admitNode(n, op, request);
    case '/persistentvolumeclaims':
      return a.subresource === 'status' ? admitPvcStatus(n, op, request) : forbid('may only update PVC status');
    case '/serviceaccounts':
      return op === 'create' && a.subresource === 'token' ? admitToken(n, request, lookups) : ok;
    case 'coordination.k8s.io/leases':
      if (a.namespace !== NODE_LEASE_NAMESPACE) return forbid(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
      return (op === 'create' ? meta(request.object).name : a.name) === n ? ok : forbid('can only access node lease with the same name as the requesting node');
    case 'storage.k8s.io/csinodes':
      return (op === 'create' ? meta(request.object).name : a.name) === n ? ok : forbid('can only access CSINode with the same name as the requesting node');
    case 'resource.k8s.io/resourceslices':
      // Updates are the Node authorizer's (it knows the stored slice); create and delete are checked here.
      if (op === 'create' && spec(request.object).nodeName !== n) return forbid('can only create ResourceSlice with the same NodeName as the requesting node');
      if (op === 'delete' && spec(request.oldObject).nodeName !== n)
        return forbid('can only delete ResourceSlice with the same NodeName as the requesting node');
      return ok;
    default:
      return ok;
  }
}

function admitPod(n: string, op: 'create' | 'update' | 'delete', request: AdmissionRequest, lookups: NodeRestrictionLookups): AdmissionDecision {
  const a = request.attributes;
  if (a.subresource === 'status') {
    if (op !== 'update') return forbid(`unexpected operation "${a.verb}"`);
    if (spec(request.oldObject).nodeName !== n) return forbid(`node "${n}" can only update pod status for pods with spec.nodeName set to itself`);
    if (!semanticEqual(meta(request.oldObject).labels, meta(request.object).labels)) return forbid(`node "${n}" cannot update labels through pod status`);
    const claims = (o: unknown) => rec(rec(o).status).resourceClaimStatuses;
    if (!semanticEqual(claims(request.oldObject), claims(request.object))) return forbid(`node "${n}" cannot update resource claim statuses`);
    return ok;
  }
  if (a.subresource === 'eviction') {
    if (op !== 'create') return forbid(`unexpected operation "${a.verb}"`);
    const pod = lookups.pod(a.namespace, a.name || String(meta(request.object).name ?? ''));
    if (!pod) return forbid('the pod to evict does not exist');
    return pod.nodeName === n ? ok : forbid(`node ${n} can only evict pods with spec.nodeName set to itself`);
  }
  if (a.subresource !== '') return forbid(`unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
  if (op === 'delete') {
    const pod = lookups.pod(a.namespace, a.name);
    if (!pod) return forbid('the pod to delete does not exist');
    return pod.nodeName === n ? ok : forbid(`node "${n}" can only delete pods with spec.nodeName set to itself`);
  }
  if (op !== 'create') return forbid(`unexpected operation "${a.verb}", node "${n}" can only create and delete mirror pods`);
  return admitMirrorPod(n, request.object, lookups);
}

function admitMirrorPod(n: string, pod: unknown, lookups: NodeRestrictionLookups): AdmissionDecision {
  const m = meta(pod);
  const s = spec(pod);
  if (!(MIRROR_POD_ANNOTATION in rec(m.annotations)))
    return forbid(`pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${n}" can only create mirror pods`);
  if (s.nodeName !== n) return forbid(`node "${n}" can only create pods with spec.nodeName set to itself`);
  const owners = Array.isArray(m.ownerReferences) ? (m.ownerReferences as Obj[]) : [];
  if (owners.length > 1) return forbid(`node "${n}" can only create pods with a single owner reference set to itself`);
  if (owners.length === 0) return forbid(`node "${n}" can only create pods with an owner reference set to itself`);
  const owner = owners[0];
  if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== n)
    return forbid(`node "${n}" can only create pods with an owner reference set to itself`);
  if (owner.controller !== true) return forbid(`node "${n}" can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion === true) return forbid(`node "${n}" must not set blockOwnerDeletion on an owner reference`);
  const uid = lookups.nodeUid(n);
  if (uid === undefined) return forbid(`node "${n}" does not exist`);
  if (owner.uid !== uid) return forbid(`node ${n} UID mismatch: expected ${uid} got ${String(owner.uid ?? '')}`);
  if (s.serviceAccountName) return forbid(`node "${n}" can not create pods that reference a service account`);
  const refs = podReferences(s);
  if (refs.secrets) return forbid(`node "${n}" can not create pods that reference secrets`);
  if (refs.configMaps) return forbid(`node "${n}" can not create pods that reference configmaps`);
  if (refs.clusterTrustBundles) return forbid(`node "${n}" can not create pods that reference clustertrustbundles`);
  if (refs.pvcs) return forbid(`node "${n}" can not create pods that reference persistentvolumeclaims`);
  return ok;
}

/** What a pod spec references that a mirror pod may not (pkg/api/pod VisitPodSecretNames / ConfigmapNames). */
function podReferences(s: Obj): { secrets: boolean; configMaps: boolean; clusterTrustBundles: boolean; pvcs: boolean } {
  const out = { secrets: false, configMaps: false, clusterTrustBundles: false, pvcs: false };
  if (Array.isArray(s.imagePullSecrets) && s.imagePullSecrets.length > 0) out.secrets = true;
  const containers = ['containers', 'initContainers', 'ephemeralContainers'].flatMap((k) => (Array.isArray(s[k]) ? (s[k] as Obj[]) : []));
  for (const c of containers) {
    for (const e of Array.isArray(c.envFrom) ? (c.envFrom as Obj[]) : []) {
      if (e.secretRef) out.secrets = true;
      if (e.configMapRef) out.configMaps = true;
    }
    for (const e of Array.isArray(c.env) ? (c.env as Obj[]) : []) {
      const from = rec(e.valueFrom);
      if (from.secretKeyRef) out.secrets = true;
      if (from.configMapKeyRef) out.configMaps = true;
    }
  }
  for (const v of Array.isArray(s.volumes) ? (s.volumes as Obj[]) : []) {
    if (v.secret) out.secrets = true;
    if (v.configMap) out.configMaps = true;
    if (v.persistentVolumeClaim) out.pvcs = true;
    for (const k of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos', 'csi']) {
      const src = rec(v[k]);
      if (src.secretName || src.secretRef || src.nodePublishSecretRef) out.secrets = true;
    }
    for (const p of Array.isArray(rec(v.projected).sources) ? (rec(v.projected).sources as Obj[]) : []) {
      if (p.secret) out.secrets = true;
      if (p.configMap) out.configMaps = true;
      if (p.clusterTrustBundle) out.clusterTrustBundles = true;
    }
  }
  return out;
}

function admitNode(n: string, op: 'create' | 'update' | 'delete', request: AdmissionRequest): AdmissionDecision {
  const name = op === 'create' ? String(meta(request.object).name ?? request.attributes.name) : request.attributes.name;
  if (name !== n) return forbid(`node "${n}" is not allowed to modify node "${name}"`);
  const labels = (o: unknown) => rec(meta(o).labels) as Record<string, string>;
  if (op === 'create') {
    if (spec(request.object).configSource != null) return forbid(`node "${n}" is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(modifiedLabels(labels(request.object), {}));
    return bad.length > 0 ? forbid(`node "${n}" is not allowed to set the following labels: ${bad.join(', ')}`) : ok;
  }
  if (op === 'update') {
    const next = spec(request.object);
    const prev = spec(request.oldObject);
    if (next.configSource != null && !semanticEqual(next.configSource, prev.configSource))
      return forbid(`node "${n}" is not allowed to update configSource to a new non-nil configSource`);
    if (!semanticEqual(next.taints, prev.taints)) return forbid(`node "${n}" is not allowed to modify taints`);
    const bad = forbiddenLabels(modifiedLabels(labels(request.object), labels(request.oldObject)));
    if (bad.length > 0) return forbid(`is not allowed to modify labels: ${bad.join(', ')}`);
  }
  return ok;
}

function modifiedLabels(a: Record<string, string>, b: Record<string, string>): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(a)) if (b[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) out.add(k);
  return [...out].sort();
}

const labelNamespace = (key: string) => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, base: string) => ns === base || ns.endsWith(`.${base}`);

/** Labels a kubelet may not add, remove or change on its Node (node-restriction.kubernetes.io, and kubernetes.io/k8s.io outside the kubelet set). */
export function forbiddenLabels(keys: readonly string[]): string[] {
  return keys.filter((key) => {
    const ns = labelNamespace(key);
    if (inNamespace(ns, 'node-restriction.kubernetes.io')) return true;
    const kubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
    return kubernetes && !KUBELET_LABELS.has(key) && !KUBELET_LABEL_NAMESPACES.some((allowed) => inNamespace(ns, allowed));
  });
}

function admitPvcStatus(n: string, op: 'create' | 'update' | 'delete', request: AdmissionRequest): AdmissionDecision {
  if (op !== 'update') return forbid(`unexpected operation "${request.attributes.verb}"`);
  const strip = (o: unknown) => {
    const m = { ...meta(o) };
    delete m.resourceVersion;
    delete m.managedFields;
    const status = { ...rec(rec(o).status) };
    for (const k of ['capacity', 'conditions', 'allocatedResourceStatuses', 'allocatedResources']) delete status[k];
    return { ...rec(o), metadata: m, status };
  };
  return semanticEqual(strip(request.oldObject), strip(request.object))
    ? ok
    : forbid(`node "${n}" is not allowed to update fields other than status.capacity and status.conditions`);
}

function admitToken(n: string, request: AdmissionRequest, lookups: NodeRestrictionLookups): AdmissionDecision {
  const ref = rec(spec(request.object).boundObjectRef);
  if (ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) return forbid('node requested token not bound to a pod');
  if (!ref.uid) return forbid('node requested token with a pod binding without a uid');
  const pod = lookups.pod(request.attributes.namespace, String(ref.name));
  if (!pod) return forbid(`the bound pod ${request.attributes.namespace}/${String(ref.name)} does not exist`);
  if (pod.uid !== ref.uid) return forbid(`the UID in the bound object reference (${String(ref.uid)}) does not match the UID in record`);
  return pod.nodeName === n ? ok : forbid('node requested token bound to a pod scheduled on a different node');
}
