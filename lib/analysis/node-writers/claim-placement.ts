import { allocatedNodeName } from '@/lib/authz/dra-status';

import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Pod, ResourceClaim } from '@/lib/k8s/types';

import { compareStrings } from '@/lib/k8s/refs';

// Where allocated claims sit: on their strict allocated node, or on the nodes of the pods reserving them.

/** Claims with an allocation, per node and driver (node = the strict allocated node, else the nodes of the reserved pods). */
export type ClaimPlacement = Map<string, Map<string, ResourceClaim[]>>;

// Claims are not changed once read, and one claim's drivers are asked for by several analyses (kept for claims of several drivers).
const drivers = new WeakMap<ResourceClaim, readonly string[]>();

const NO_DRIVERS: readonly string[] = Object.freeze([]);

/** The drivers of a claim's allocation results, sorted. */
export function driversOf(claim: ResourceClaim): readonly string[] {
  const results = claim.status?.allocation?.devices?.results;
  if (!results || results.length === 0) return NO_DRIVERS;
  // Most claims name one driver, in every result: answered without a set, a sort or a cache entry
  // (the claim writers and attack paths read 100,000 claims; a WeakMap entry each cost more than this).
  let only: string | undefined;
  for (const r of results) {
    const d = r.driver;
    if (typeof d !== 'string' || d === '' || d === only) continue;
    if (only !== undefined) return severalDrivers(claim, results);
    only = d;
  }
  return only === undefined ? NO_DRIVERS : [only];
}

function severalDrivers(claim: ResourceClaim, results: readonly { driver?: unknown }[]): readonly string[] {
  let out = drivers.get(claim);
  if (!out) drivers.set(claim, (out = [...new Set(results.map((r) => r.driver).filter((d): d is string => typeof d === 'string' && d !== ''))].sort()));
  return out;
}

/** Allocated claims sorted by namespace and name. */
export function allocatedClaims(state: ClusterState): ResourceClaim[] {
  return readAllocatedClaims(state).claims;
}

/** Allocated claims sorted by namespace and name, and what the claim writers read of each, by position. */
export interface AllocatedClaims {
  claims: ResourceClaim[];
  namespaces: string[];
  names: string[];
  /** allocatedNodeName of each. */
  strictNodes: (string | undefined)[];
  /** driversOf each. */
  drivers: (readonly string[])[];
}

/**
 * The allocated claims with their namespaces, names, strict nodes and drivers. Each claim is read
 * in the cluster's order, the order the claims sit in memory: reading 100,000 claims' allocations
 * in sorted order cost several times as much (each claim a chain of objects far from the last).
 * Then sorted as allocatedClaims sorts (a stable sort on the same keys).
 */
export function readAllocatedClaims(state: ClusterState): AllocatedClaims {
  const claims: ResourceClaim[] = [];
  const namespaces: string[] = [];
  const names: string[] = [];
  const strictNodes: (string | undefined)[] = [];
  const drivers: (readonly string[])[] = [];
  for (const claim of state.resourceClaims) {
    const d = driversOf(claim);
    if (d.length === 0) continue;
    claims.push(claim);
    namespaces.push(claim.metadata.namespace ?? '');
    names.push(claim.metadata.name);
    strictNodes.push(allocatedNodeName(claim));
    drivers.push(d);
  }
  const order = claims.map((_, i) => i).sort((a, b) => compareStrings(namespaces[a], namespaces[b]) || compareStrings(names[a], names[b]));
  return {
    claims: order.map((i) => claims[i]),
    namespaces: order.map((i) => namespaces[i]),
    names: order.map((i) => names[i]),
    strictNodes: order.map((i) => strictNodes[i]),
    drivers: order.map((i) => drivers[i]),
  };
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
function reservedPods(state: ClusterState, claims: readonly ResourceClaim[], strictNodes: readonly (string | undefined)[]): PodLookup {
  const lookup: PodLookup = { byUid: new Map(), byName: new Map() };
  const uids = new Set<string>();
  const names = new Map<string, Set<string>>();
  for (let i = 0; i < claims.length; i++) {
    if (strictNodes[i] !== undefined) continue;
    const claim = claims[i];
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
  return placeIndexed(
    state,
    claims,
    claims.map((c) => allocatedNodeName(c)),
    claims.map((c) => driversOf(c)),
  ).placement;
}

/** A placement, and for each of its lists the positions of those claims in the claims placed. */
export interface IndexedPlacement {
  placement: ClaimPlacement;
  /** node → driver → the positions in `claims` of the claims of placement's list, in its order. */
  positions: Map<string, Map<string, number[]>>;
}

/**
 * placeAllocatedClaims of `claims`, whose strict nodes and drivers are given by position, with each
 * claim's position beside it: the claim writers read what they need of a claim from arrays by
 * position rather than from the claim (a chain of objects scattered over the heap), once per node
 * it is placed on.
 */
export function placeIndexed(
  state: ClusterState,
  claims: readonly ResourceClaim[],
  strictNodes: readonly (string | undefined)[],
  drivers: readonly (readonly string[])[],
): IndexedPlacement {
  const pods = reservedPods(state, claims, strictNodes);
  const placement: ClaimPlacement = new Map();
  const positions = new Map<string, Map<string, number[]>>();
  const place = (node: string, i: number, drivers: readonly string[]) => {
    let byDriver = placement.get(node);
    let atDriver = positions.get(node);
    if (!byDriver || !atDriver) {
      placement.set(node, (byDriver = new Map()));
      positions.set(node, (atDriver = new Map()));
    }
    for (const driver of drivers) {
      const list = byDriver.get(driver);
      if (list) {
        list.push(claims[i]);
        atDriver.get(driver)!.push(i);
      } else {
        byDriver.set(driver, [claims[i]]);
        atDriver.set(driver, [i]);
      }
    }
  };
  for (let i = 0; i < claims.length; i++) {
    const strict = strictNodes[i];
    if (strict !== undefined) place(strict, i, drivers[i]);
    else for (const node of nodesOfPods(claims[i], pods)) place(node, i, drivers[i]);
  }
  return { placement, positions };
}

/** The nodes of the pods a claim without a strict allocated node reserves, sorted. */
function nodesOfPods(claim: ResourceClaim, pods: PodLookup): string[] {
  const ns = claim.metadata.namespace ?? '';
  const nodes = new Set<string>();
  for (const ref of podRefs(claim)) {
    const pod = (ref.uid ? pods.byUid.get(ref.uid) : undefined) ?? pods.byName.get(ns)?.get(ref.name);
    if (pod && (pod.metadata.namespace ?? '') === ns && pod.spec?.nodeName) nodes.add(pod.spec.nodeName);
  }
  return [...nodes].sort();
}
