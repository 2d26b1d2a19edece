import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Container, Pod, Volume } from '@/lib/k8s/types';

export type VertexType = 'pod' | 'secret' | 'configmap' | 'pvc' | 'pv' | 'serviceaccount' | 'resourceclaim' | 'resourceslice';

/**
 * The Node authorizer's graph, flattened: for each object, the nodes it reaches (object → pod →
 * node, secret → pv → pvc → pod → node, resourceslice → node). Only pods with spec.nodeName
 * contribute, as in the upstream graph populator.
 */
export interface NodeGraph {
  reaches(type: VertexType, namespace: string, name: string, node: string): boolean;
  /** The nodes an object reaches (for who-can: every other node is decided like an unrelated one). */
  nodesReaching(type: VertexType, namespace: string, name: string): readonly string[];
  /** Pods bound to a node. */
  podsOn(nodeName: string): readonly Pod[];
}

const EMPTY: Pod[] = [];

// namespace → name → node(s). Most objects reach one node: a string, upgraded to a Set for a second.
type Reach = Map<string, Map<string, string | Set<string>>>;

function addReach(reach: Reach, namespace: string, name: string, node: string): void {
  if (!name) return;
  let inNs = reach.get(namespace);
  if (!inNs) reach.set(namespace, (inNs = new Map()));
  const cur = inNs.get(name);
  if (cur === undefined) inNs.set(name, node);
  else if (typeof cur === 'string') {
    if (cur !== node) inNs.set(name, new Set([cur, node]));
  } else cur.add(node);
}

function forEachNode(v: string | Set<string> | undefined, fn: (node: string) => void): void {
  if (v === undefined) return;
  if (typeof v === 'string') fn(v);
  else v.forEach(fn);
}

/**
 * Builds the graph. Reach is indexed on demand: for a namespaced object type, a namespace's pods on
 * the first question about that namespace; PersistentVolumes, ResourceSlices (and Secrets, when
 * PersistentVolumes may name them from another namespace) as a whole on the first question about
 * the type. A report or a batch that never asks a node about secrets never pays for indexing them.
 */
export function buildNodeGraph(state: Pick<ClusterState, 'pods' | 'persistentVolumes' | 'resourceSlices'>): NodeGraph {
  const podsByNode = new Map<string, Pod[]>();
  const bound: Pod[] = [];
  for (const pod of state.pods) {
    const node = pod.spec?.nodeName;
    if (!node) continue;
    bound.push(pod);
    const list = podsByNode.get(node);
    if (list) list.push(pod);
    else podsByNode.set(node, [pod]);
  }
  const maps = new Map<VertexType, Reach>();

  /** The edges `pods` give an object type, each in its pod's namespace. */
  const addPodEdges = (type: VertexType, pods: readonly Pod[], reach: Reach): void => {
    switch (type) {
      case 'pod':
        for (const pod of pods) addReach(reach, pod.metadata.namespace ?? '', pod.metadata.name, pod.spec.nodeName!);
        break;
      case 'serviceaccount':
        for (const pod of pods) addReach(reach, pod.metadata.namespace ?? '', pod.spec.serviceAccountName || pod.spec.serviceAccount || '', pod.spec.nodeName!);
        break;
      case 'secret':
      case 'configmap':
      case 'pvc':
      case 'resourceclaim': {
        const collector = new EdgeCollector(type, reach);
        for (const pod of pods) {
          collector.namespace = pod.metadata.namespace ?? '';
          collector.node = pod.spec.nodeName!;
          visitPodReferences(pod, collector);
        }
        break;
      }
    }
  };

  const build = (type: VertexType): Reach => {
    const reach: Reach = new Map();
    addPodEdges(type, bound, reach);
    switch (type) {
      case 'secret':
        // Secrets of a PersistentVolume reach the nodes its bound claim reaches.
        for (const pv of state.persistentVolumes) {
          const claim = pv.spec?.claimRef;
          if (!claim?.name) continue;
          forEachNode(
            get('pvc')
              .get(claim.namespace ?? '')
              ?.get(claim.name),
            (node) => {
              for (const secret of pvSecretRefs(pv.spec as Record<string, unknown>)) addReach(reach, secret.namespace, secret.name, node);
            },
          );
        }
        break;
      case 'pv':
        for (const pv of state.persistentVolumes) {
          const claim = pv.spec?.claimRef;
          if (!claim?.name) continue;
          forEachNode(
            get('pvc')
              .get(claim.namespace ?? '')
              ?.get(claim.name),
            (node) => addReach(reach, '', pv.metadata.name, node),
          );
        }
        break;
      case 'resourceslice':
        for (const slice of state.resourceSlices) if (slice.spec?.nodeName) addReach(reach, '', slice.metadata.name, slice.spec.nodeName);
        break;
    }
    return reach;
  };
  const get = (type: VertexType): Reach => {
    let reach = maps.get(type);
    if (!reach) maps.set(type, (reach = build(type)));
    return reach;
  };
  // A namespaced object reaches a node only through a bound pod of its namespace (or, for a Secret,
  // through a PersistentVolume, which can name another namespace). Until a type's whole map is built,
  // a question about a namespace indexes that namespace's pods alone: the analysis asks about a few
  // namespaces (and its probe namespace, which has none), and a whole map costs a pass over every pod.
  let boundIn: Map<string, Pod[]> | undefined;
  const boundInNamespace = (namespace: string): readonly Pod[] => {
    if (!boundIn) {
      boundIn = new Map();
      for (const pod of bound) {
        const ns = pod.metadata.namespace ?? '';
        const inNs = boundIn.get(ns);
        if (inNs) inNs.push(pod);
        else boundIn.set(ns, [pod]);
      }
    }
    return boundIn.get(namespace) ?? EMPTY;
  };
  const partial = new Map<VertexType, Reach>();
  const NO_NAMES = new Map<string, string | Set<string>>();
  const reachIn = (type: VertexType, namespace: string): ReadonlyMap<string, string | Set<string>> | undefined => {
    const whole = maps.get(type);
    if (whole) return whole.get(namespace);
    if (type === 'pv' || type === 'resourceslice' || (type === 'secret' && state.persistentVolumes.length > 0)) return get(type).get(namespace);
    let byNamespace = partial.get(type);
    if (!byNamespace) partial.set(type, (byNamespace = new Map()));
    let names = byNamespace.get(namespace);
    if (!names) {
      const reach: Reach = new Map();
      addPodEdges(type, boundInNamespace(namespace), reach);
      byNamespace.set(namespace, (names = reach.get(namespace) ?? NO_NAMES));
    }
    return names;
  };

  return {
    reaches: (type, namespace, name, node) => {
      const v = reachIn(type, namespace)?.get(name);
      return v === undefined ? false : typeof v === 'string' ? v === node : v.has(node);
    },
    nodesReaching: (type, namespace, name) => {
      const v = reachIn(type, namespace)?.get(name);
      return v === undefined ? [] : typeof v === 'string' ? [v] : [...v];
    },
    podsOn: (nodeName) => podsByNode.get(nodeName) ?? EMPTY,
  };
}

/** Records the pod → node edges of one object type for the pod being visited. */
class EdgeCollector implements PodReferenceVisitor {
  namespace = '';
  node = '';
  constructor(
    private readonly type: VertexType,
    private readonly reach: Reach,
  ) {}
  secret(name: string): void {
    if (this.type === 'secret') addReach(this.reach, this.namespace, name, this.node);
  }
  configMap(name: string): void {
    if (this.type === 'configmap') addReach(this.reach, this.namespace, name, this.node);
  }
  pvc(name: string): void {
    if (this.type === 'pvc') addReach(this.reach, this.namespace, name, this.node);
  }
  resourceClaim(name: string): void {
    if (this.type === 'resourceclaim') addReach(this.reach, this.namespace, name, this.node);
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
