import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Container, Pod, Volume } from '@/lib/k8s/types';

export type VertexType = 'pod' | 'secret' | 'configmap' | 'pvc' | 'pv' | 'serviceaccount' | 'resourceclaim' | 'resourceslice';

/**
 * The Node authorizer's graph, flattened: for each object, the set of nodes it reaches
 * (object → pod → node, secret → pv → pvc → pod → node, resourceslice → node). Only pods with
 * spec.nodeName contribute, as in the upstream graph populator.
 */
export interface NodeGraph {
  nodesOf(type: VertexType, namespace: string, name: string): ReadonlySet<string> | undefined;
  /** Pods bound to a node, as "namespace/name". */
  podsOn(nodeName: string): readonly Pod[];
}

const EMPTY: Pod[] = [];

export function vertexKey(type: VertexType, namespace: string, name: string): string {
  return `${type}\u0000${namespace}\u0000${name}`;
}

export function buildNodeGraph(
  state: Pick<ClusterState, 'pods' | 'persistentVolumes' | 'resourceSlices'>,
): NodeGraph {
  const reach = new Map<string, Set<string>>();
  const pods = new Map<string, Pod[]>();
  const add = (type: VertexType, namespace: string, name: string, node: string) => {
    if (!name) return;
    const key = vertexKey(type, namespace, name);
    let set = reach.get(key);
    if (!set) reach.set(key, (set = new Set()));
    set.add(node);
  };

  for (const pod of state.pods) {
    const node = pod.spec?.nodeName;
    if (!node) continue;
    const ns = pod.metadata.namespace ?? '';
    let onNode = pods.get(node);
    if (!onNode) pods.set(node, (onNode = []));
    onNode.push(pod);
    add('pod', ns, pod.metadata.name, node);
    const sa = pod.spec.serviceAccountName || pod.spec.serviceAccount;
    if (sa) add('serviceaccount', ns, sa, node);
    visitPodReferences(pod, {
      secret: (name) => add('secret', ns, name, node),
      configMap: (name) => add('configmap', ns, name, node),
      pvc: (name) => add('pvc', ns, name, node),
      resourceClaim: (name) => add('resourceclaim', ns, name, node),
    });
  }

  // pv → pvc: a PersistentVolume reaches the nodes its bound claim reaches; its secrets follow.
  for (const pv of state.persistentVolumes) {
    const claim = pv.spec?.claimRef;
    if (!claim?.name) continue;
    const nodes = reach.get(vertexKey('pvc', claim.namespace ?? '', claim.name));
    if (!nodes) continue;
    for (const node of nodes) {
      add('pv', '', pv.metadata.name, node);
      for (const secret of pvSecretRefs(pv.spec as Record<string, unknown>)) add('secret', secret.namespace, secret.name, node);
    }
  }

  for (const slice of state.resourceSlices) {
    if (slice.spec?.nodeName) add('resourceslice', '', slice.metadata.name, slice.spec.nodeName);
  }

  return {
    nodesOf: (type, namespace, name) => reach.get(vertexKey(type, namespace, name)),
    podsOn: (nodeName) => pods.get(nodeName) ?? EMPTY,
  };
}

export interface PodReferenceVisitor {
  secret(name: string): void;
  configMap(name: string): void;
  pvc(name: string): void;
  resourceClaim(name: string): void;
}

/** Every Secret, ConfigMap, PVC and ResourceClaim a pod references (podutil.VisitPod*Names). */
export function visitPodReferences(pod: Pod, visit: PodReferenceVisitor): void {
  const spec = pod.spec;
  for (const s of spec.imagePullSecrets ?? []) if (s?.name) visit.secret(s.name);
  const containers: Container[] = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    for (const e of c.env ?? []) {
      if (e.valueFrom?.secretKeyRef?.name) visit.secret(e.valueFrom.secretKeyRef.name);
      if (e.valueFrom?.configMapKeyRef?.name) visit.configMap(e.valueFrom.configMapKeyRef.name);
    }
    for (const e of c.envFrom ?? []) {
      if (e.secretRef?.name) visit.secret(e.secretRef.name);
      if (e.configMapRef?.name) visit.configMap(e.configMapRef.name);
    }
  }
  for (const v of spec.volumes ?? []) visitVolume(pod, v, visit);
  for (const rc of spec.resourceClaims ?? []) if (rc.resourceClaimName) visit.resourceClaim(rc.resourceClaimName);
  for (const st of pod.status?.resourceClaimStatuses ?? []) if (st.resourceClaimName) visit.resourceClaim(st.resourceClaimName);
}

function visitVolume(pod: Pod, v: Volume, visit: PodReferenceVisitor): void {
  if (v.secret?.secretName) visit.secret(v.secret.secretName);
  if (v.configMap?.name) visit.configMap(v.configMap.name);
  if (v.persistentVolumeClaim?.claimName) visit.pvc(v.persistentVolumeClaim.claimName);
  // A generic ephemeral volume creates the PVC "<pod>-<volume>".
  if (v.ephemeral) visit.pvc(`${pod.metadata.name}-${v.name}`);
  for (const src of v.projected?.sources ?? []) {
    if (src.secret?.name) visit.secret(src.secret.name);
    if (src.configMap?.name) visit.configMap(src.configMap.name);
  }
  if (v.csi?.nodePublishSecretRef?.name) visit.secret(v.csi.nodePublishSecretRef.name);
  // In-tree volume plugins that name a secret in the pod's namespace.
  for (const plugin of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'] as const) {
    const src = v[plugin] as { secretRef?: { name?: string }; secretName?: string } | undefined;
    if (!src) continue;
    if (src.secretRef?.name) visit.secret(src.secretRef.name);
    if (plugin === 'azureFile' && src.secretName) visit.secret(src.secretName);
  }
}

function pvSecretRefs(spec: Record<string, unknown> | undefined): { namespace: string; name: string }[] {
  const out: { namespace: string; name: string }[] = [];
  if (!spec) return out;
  const csi = spec.csi as Record<string, { name?: string; namespace?: string } | undefined> | undefined;
  if (csi) {
    for (const key of ['nodePublishSecretRef', 'nodeStageSecretRef', 'controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodeExpandSecretRef']) {
      const ref = csi[key];
      if (ref?.name) out.push({ namespace: ref.namespace ?? '', name: ref.name });
    }
  }
  return out;
}
