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
  byUid: Map<string, Pod>;
  byName: Map<string, Map<string, Pod>>;
}

/**
 * The pods that claims without a strict allocated node reserve, by uid and by namespace and name:
 * the references are gathered first and the pods read once, so only those pods are indexed (a large
 * cluster has hundreds of thousands of pods and few such claims).
 */
function reservedPods(state: ClusterState, claims: readonly ResourceClaim[]): PodLookup {
  const lookup: PodLookup = { byUid: new Map(), byName: new Map() };
  const uids = new Set<string>();
  const names = new Map<string, Set<string>>();
  for (const claim of claims) {
    if (allocatedNodeName(claim) !== undefined) continue;
    const ns = claim.metadata.namespace ?? '';
    for (const ref of podRefs(claim)) {
      if (ref.uid) uids.add(ref.uid);
      let inNs = names.get(ns);
      if (!inNs) names.set(ns, (inNs = new Set()));
      inNs.add(ref.name);
    }
  }
  if (uids.size === 0 && names.size === 0) return lookup;
  for (const p of state.pods) {
    if (p.metadata.uid && uids.has(p.metadata.uid)) lookup.byUid.set(p.metadata.uid, p);
    const ns = p.metadata.namespace ?? '';
    if (!names.get(ns)?.has(p.metadata.name)) continue;
    let inNs = lookup.byName.get(ns);
    if (!inNs) lookup.byName.set(ns, (inNs = new Map()));
    inNs.set(p.metadata.name, p);
  }
  return lookup;
}

const podRefs = (claim: ResourceClaim) => (claim.status?.reservedFor ?? []).filter((ref) => ref.resource === 'pods' && (ref.apiGroup ?? '') === '');

export function placeAllocatedClaims(state: ClusterState, claims: readonly ResourceClaim[] = allocatedClaims(state)): ClaimPlacement {
  const pods = reservedPods(state, claims);
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
  for (const ref of podRefs(claim)) {
    const pod = (ref.uid ? pods.byUid.get(ref.uid) : undefined) ?? pods.byName.get(ns)?.get(ref.name);
    if (pod && (pod.metadata.namespace ?? '') === ns && pod.spec?.nodeName) nodes.add(pod.spec.nodeName);
  }
  return [...nodes].sort();
}
