import { allocatedNodeName } from '@/lib/authz/dra-status';

import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Pod, ResourceClaim } from '@/lib/k8s/types';

import { compareStrings } from '@/lib/k8s/refs';

// Where allocated claims sit: on their strict allocated node, or on the nodes of the pods reserving them.

/** Claims with an allocation, per node and driver (node = the strict allocated node, else the nodes of the reserved pods). */
export type ClaimPlacement = Map<string, Map<string, ResourceClaim[]>>;

// Claims are not changed once read, and one claim's drivers are asked for by several analyses.
const drivers = new WeakMap<ResourceClaim, readonly string[]>();

/** The drivers of a claim's allocation results, sorted. */
export function driversOf(claim: ResourceClaim): readonly string[] {
  let out = drivers.get(claim);
  if (!out) {
    const results = claim.status?.allocation?.devices?.results ?? [];
    out = results.length === 0 ? [] : [...new Set(results.map((r) => r.driver).filter((d): d is string => typeof d === 'string' && d !== ''))].sort();
    drivers.set(claim, out);
  }
  return out;
}

/** Allocated claims sorted by namespace and name. */
export function allocatedClaims(state: ClusterState): ResourceClaim[] {
  return state.resourceClaims
    .filter((c) => driversOf(c).length > 0)
    .sort((a, b) => compareStrings(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareStrings(a.metadata.name, b.metadata.name));
}

interface PodLookup {
  byUid(uid: string): Pod | undefined;
  byName(namespace: string, name: string): Pod | undefined;
}

export function placeAllocatedClaims(state: ClusterState, claims: readonly ResourceClaim[] = allocatedClaims(state)): ClaimPlacement {
  // Only claims without a strict allocated node need their pods, and references without a uid (or
  // with one no pod has) their names: each lookup is built on first use.
  let uids: Map<string, Pod> | undefined;
  let names: Map<string, Map<string, Pod>> | undefined;
  const pods: PodLookup = {
    byUid(uid) {
      if (!uids) {
        uids = new Map();
        for (const p of state.pods) if (p.metadata.uid) uids.set(p.metadata.uid, p);
      }
      return uids.get(uid);
    },
    byName(namespace, name) {
      if (!names) {
        names = new Map();
        for (const p of state.pods) {
          const ns = p.metadata.namespace ?? '';
          let inNs = names.get(ns);
          if (!inNs) names.set(ns, (inNs = new Map()));
          inNs.set(p.metadata.name, p);
        }
      }
      return names.get(namespace)?.get(name);
    },
  };
  const out: ClaimPlacement = new Map();
  for (const claim of claims) {
    const drivers = driversOf(claim);
    for (const node of nodesOfClaim(claim, pods)) {
      let byDriver = out.get(node);
      if (!byDriver) out.set(node, (byDriver = new Map()));
      for (const driver of drivers) {
        let list = byDriver.get(driver);
        if (!list) byDriver.set(driver, (list = []));
        list.push(claim);
      }
    }
  }
  return out;
}

function nodesOfClaim(claim: ResourceClaim, pods: PodLookup): string[] {
  const strict = allocatedNodeName(claim);
  if (strict !== undefined) return [strict];
  const ns = claim.metadata.namespace ?? '';
  const nodes = new Set<string>();
  for (const ref of claim.status?.reservedFor ?? []) {
    if (ref.resource !== 'pods' || (ref.apiGroup ?? '') !== '') continue;
    const pod = (ref.uid ? pods.byUid(ref.uid) : undefined) ?? pods.byName(ns, ref.name);
    if (pod && (pod.metadata.namespace ?? '') === ns && pod.spec?.nodeName) nodes.add(pod.spec.nodeName);
  }
  return [...nodes].sort();
}
