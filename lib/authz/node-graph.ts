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
  // Most objects reach one node: keep a string and only upgrade to a Set for the second node
  // (100k pods must not mean 100k Sets).
  const reach = new Map<string, string | Set<string>>();
  const pods = new Map<string, Pod[]>();
  const add = (key: string, node: string) => {
    const cur = reach.get(key);
    if (cur === undefined) reach.set(key, node);
    else if (typeof cur === 'string') {
      if (cur !== node) reach.set(key, new Set([cur, node]));
    } else cur.add(node);
  };
  const collector = new EdgeCollector(add);

  for (const pod of state.pods) {
    const node = pod.spec?.nodeName;
    if (!node) continue;
    const ns = pod.metadata.namespace ?? '';
    const onNode = pods.get(node);
    if (onNode) onNode.push(pod);
    else pods.set(node, [pod]);
    add(vertexKey('pod', ns, pod.metadata.name), node);
    const sa = pod.spec.serviceAccountName || pod.spec.serviceAccount;
    if (sa) add(vertexKey('serviceaccount', ns, sa), node);
    collector.namespace = ns;
    collector.node = node;
    visitPodReferences(pod, collector);
  }

  // pv → pvc: a PersistentVolume reaches the nodes its bound claim reaches; its secrets follow.
  for (const pv of state.persistentVolumes) {
    const claim = pv.spec?.claimRef;
    if (!claim?.name) continue;
    const nodes = reach.get(vertexKey('pvc', claim.namespace ?? '', claim.name));
    if (nodes === undefined) continue;
    for (const node of typeof nodes === 'string' ? [nodes] : nodes) {
      add(vertexKey('pv', '', pv.metadata.name), node);
      for (const secret of pvSecretRefs(pv.spec as Record<string, unknown>)) add(vertexKey('secret', secret.namespace, secret.name), node);
    }
  }

  for (const slice of state.resourceSlices) {
    if (slice.spec?.nodeName) add(vertexKey('resourceslice', '', slice.metadata.name), slice.spec.nodeName);
  }

  const sets = new Map<string, ReadonlySet<string>>();
  return {
    nodesOf: (type, namespace, name) => {
      const key = vertexKey(type, namespace, name);
      const v = reach.get(key);
      if (v === undefined || typeof v !== 'string') return v;
      let set = sets.get(key);
      if (!set) sets.set(key, (set = new Set([v])));
      return set;
    },
    podsOn: (nodeName) => pods.get(nodeName) ?? EMPTY,
  };
}

/** Records pod → node edges for the pod being visited (one instance, no closures per pod). */
class EdgeCollector implements PodReferenceVisitor {
  namespace = '';
  node = '';
  constructor(private readonly add: (key: string, node: string) => void) {}
  secret(name: string): void {
    this.add(vertexKey('secret', this.namespace, name), this.node);
  }
  configMap(name: string): void {
    this.add(vertexKey('configmap', this.namespace, name), this.node);
  }
  pvc(name: string): void {
    this.add(vertexKey('pvc', this.namespace, name), this.node);
  }
  resourceClaim(name: string): void {
    this.add(vertexKey('resourceclaim', this.namespace, name), this.node);
  }
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
  if (spec.initContainers) visitContainers(spec.initContainers, visit);
  if (spec.containers) visitContainers(spec.containers, visit);
  if (spec.ephemeralContainers) visitContainers(spec.ephemeralContainers, visit);
  if (spec.volumes) for (let i = 0; i < spec.volumes.length; i++) visitVolume(pod, spec.volumes[i], visit);
  for (const rc of spec.resourceClaims ?? []) if (rc.resourceClaimName) visit.resourceClaim(rc.resourceClaimName);
  for (const st of pod.status?.resourceClaimStatuses ?? []) if (st.resourceClaimName) visit.resourceClaim(st.resourceClaimName);
}

function visitContainers(containers: Container[], visit: PodReferenceVisitor): void {
  for (let i = 0; i < containers.length; i++) {
    const c = containers[i];
    if (c.env) {
      for (let j = 0; j < c.env.length; j++) {
        const from = c.env[j].valueFrom;
        if (!from) continue;
        if (from.secretKeyRef?.name) visit.secret(from.secretKeyRef.name);
        if (from.configMapKeyRef?.name) visit.configMap(from.configMapKeyRef.name);
      }
    }
    if (c.envFrom) {
      for (let j = 0; j < c.envFrom.length; j++) {
        const e = c.envFrom[j];
        if (e.secretRef?.name) visit.secret(e.secretRef.name);
        if (e.configMapRef?.name) visit.configMap(e.configMapRef.name);
      }
    }
  }
}

const IN_TREE_SECRET_PLUGINS = ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos'] as const;

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
  for (const plugin of IN_TREE_SECRET_PLUGINS) {
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
