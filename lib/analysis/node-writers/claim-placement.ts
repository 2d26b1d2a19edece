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
  // Each list is made at the size of the cluster's claims, cut to the allocated ones, and put in
  // sorted order in place: grown by push, then copied sorted, they were 13-16 MiB promoted at 100,000
  // claims (a list past ~16,000 entries is made straight in the old generation, each time it grows).
  const all = state.resourceClaims;
  const claims = new Array<ResourceClaim>(all.length);
  const namespaces = new Array<string>(all.length);
  const names = new Array<string>(all.length);
  const strictNodes = new Array<string | undefined>(all.length);
  const drivers = new Array<readonly string[]>(all.length);
  let n = 0;
  for (const claim of all) {
    const d = driversOf(claim);
    if (d.length === 0) continue;
    claims[n] = claim;
    namespaces[n] = claim.metadata.namespace ?? '';
    names[n] = claim.metadata.name;
    strictNodes[n] = allocatedNodeName(claim);
    drivers[n] = d;
    n++;
  }
  const lists = [claims, namespaces, names, strictNodes, drivers];
  for (const list of lists) list.length = n;
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => compareStrings(namespaces[a], namespaces[b]) || compareStrings(names[a], names[b]));
  permuteInPlace(order, lists);
  return { claims, namespaces, names, strictNodes, drivers };
}

/** Puts each list in `order` (list[k] becomes the old list[order[k]]), cycle by cycle, without a copy. */
function permuteInPlace(order: readonly number[], lists: readonly unknown[][]): void {
  const placed = new Uint8Array(order.length);
  for (let start = 0; start < order.length; start++) {
    if (placed[start] === 1) continue;
    for (const list of lists) {
      const first = list[start];
      let k = start;
      for (let from = order[k]; from !== start; from = order[k]) {
        list[k] = list[from];
        k = from;
      }
      list[k] = first;
    }
    let k = start;
    do {
      placed[k] = 1;
      k = order[k];
    } while (k !== start);
  }
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
  // One lookup per claim: a node's two maps side by side, with the lists of the driver last placed
  // there (most nodes hold claims of one driver). Four lookups per claim were most of placing 100,000.
  const slots = new Map<string, NodeSlot>();
  const place = (node: string, i: number, drivers: readonly string[]) => {
    let slot = slots.get(node);
    if (!slot) {
      slot = { byDriver: new Map(), atDriver: new Map(), driver: undefined, claims: undefined, at: undefined };
      slots.set(node, slot);
      placement.set(node, slot.byDriver);
      positions.set(node, slot.atDriver);
    }
    for (const driver of drivers) {
      if (driver === slot.driver) {
        slot.claims!.push(claims[i]);
        slot.at!.push(i);
        continue;
      }
      let list = slot.byDriver.get(driver);
      let at: number[];
      if (list) {
        at = slot.atDriver.get(driver)!;
        list.push(claims[i]);
        at.push(i);
      } else {
        slot.byDriver.set(driver, (list = [claims[i]]));
        slot.atDriver.set(driver, (at = [i]));
      }
      slot.driver = driver;
      slot.claims = list;
      slot.at = at;
    }
  };
  for (let i = 0; i < claims.length; i++) {
    const strict = strictNodes[i];
    if (strict !== undefined) place(strict, i, drivers[i]);
    else for (const node of nodesOfPods(claims[i], pods)) place(node, i, drivers[i]);
  }
  return { placement, positions };
}

/** placeIndexed's lists of one node, and those of the driver it last placed there. */
interface NodeSlot {
  byDriver: Map<string, ResourceClaim[]>;
  atDriver: Map<string, number[]>;
  driver: string | undefined;
  claims: ResourceClaim[] | undefined;
  at: number[] | undefined;
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
