import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Pod, ResourceClaim, ResourceSlice } from '@/lib/k8s/types';
import { allocatedNodeName } from './dra-status';
import type { WriteSimulation } from './simulate-write';
import { boundNodeName, nodeNameFromUsername, parseServiceAccountUsername } from './user-info';

// A simulated write is decided against the loaded source: a node, namespace or claim it names that the
// source does not have makes the answer one about a cluster that is not this one (NodeRestriction and
// the Node authorizer find no pods there; a claim update has nothing stored). The explorer says so next
// to the answer; on the bench cluster the form's demo names were answered without a word.

export interface MissingReference {
  kind: 'Node' | 'Namespace' | 'ResourceClaim' | 'ServiceAccount';
  name: string;
  namespace?: string;
  /** Where the write names it, e.g. "spec.nodeName" or "the sender". */
  where: string;
}

/** Kinds the source read in full: a kind it could not read proves nothing missing. */
function readable(state: ClusterState, kind: string): boolean {
  return !(state.source.unreadKinds ?? []).some((u) => u.kind === kind);
}

/**
 * The nodes, namespaces, claims and service accounts a write names that the source does not have:
 * the sender (system:node:<name>, a service account and its token's node), the object's namespace,
 * node fields (a slice's or pod's spec.nodeName, a claim's allocated node), the claim an update of a
 * claim writes, and the claims a pod references by name.
 */
export function missingReferences(state: ClusterState, sim: WriteSimulation): MissingReference[] {
  const out: MissingReference[] = [];
  const seen = new Set<string>();
  const nodes = new Set(state.nodes.map((n) => n.metadata.name));
  const namespaces = new Set(state.namespaces.map((n) => n.metadata.name));
  const add = (ref: MissingReference, exists: boolean) => {
    const key = `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
    if (exists || !ref.name || seen.has(key) || !readable(state, ref.kind)) return;
    seen.add(key);
    out.push(ref);
  };
  const node = (name: string | undefined, where: string) => name && add({ kind: 'Node', name, where }, nodes.has(name));
  const namespace = (name: string | undefined, where: string) => name && add({ kind: 'Namespace', name, where }, namespaces.has(name));
  const claim = (ns: string, name: string | undefined, where: string) =>
    name &&
    add(
      { kind: 'ResourceClaim', namespace: ns, name, where },
      state.resourceClaims.some((c) => c.metadata.namespace === ns && c.metadata.name === name),
    );

  const user = sim.impersonate ? undefined : sim.user;
  if (user) {
    node(nodeNameFromUsername(user.name), 'the sender');
    node(boundNodeName(user), "the sender's token");
    const sa = parseServiceAccountUsername(user.name);
    if (sa) {
      namespace(sa.namespace, 'the sender');
      if (namespaces.has(sa.namespace))
        add(
          { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name, where: 'the sender' },
          state.serviceAccounts.some((s) => s.metadata.namespace === sa.namespace && s.metadata.name === sa.name),
        );
    }
  }

  const a = sim.attributes;
  namespace(a.namespace, 'metadata.namespace');
  const obj = (sim.object ?? sim.oldObject) as
    { kind?: string; metadata?: { name?: string; namespace?: string }; spec?: unknown; status?: unknown } | undefined;
  if (!obj) return out;
  const ns = a.namespace;
  if (a.resource === 'nodes' && a.group === '' && a.verb !== 'create') node(a.name, 'metadata.name');
  if (a.group === 'resource.k8s.io' && a.resource === 'resourceslices') node((obj as ResourceSlice).spec?.nodeName, 'spec.nodeName');
  if (a.group === 'resource.k8s.io' && a.resource === 'resourceclaims') {
    if (a.verb !== 'create') claim(ns, a.name, 'metadata.name');
    node(allocatedNodeName(obj as ResourceClaim), 'status.allocation.nodeSelector');
  }
  if (a.group === '' && a.resource === 'pods') {
    const pod = obj as Pod;
    node(pod.spec?.nodeName, 'spec.nodeName');
    for (const rc of pod.spec?.resourceClaims ?? []) if (rc.resourceClaimName) claim(ns, rc.resourceClaimName, 'spec.resourceClaims');
  }
  return out;
}

/** "node gpu-h100-99 (spec.nodeName)", for the warning next to the answer. */
export function describeMissingReference(r: MissingReference): string {
  const kind = r.kind === 'ResourceClaim' ? 'claim' : r.kind === 'ServiceAccount' ? 'service account' : r.kind.toLowerCase();
  return `${kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name} (${r.where})`;
}
