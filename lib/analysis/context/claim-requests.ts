import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { ResourceClaim, ResourceClaimSpec, ResourceClaimTemplate } from '@/lib/k8s/types';

// What the claim and quota checks, the device-class analysis and the quota fix read of the
// ResourceClaims and ResourceClaimTemplates, grouped by namespace in one pass over the state: each of
// them read every object's requests on its own (100,000 claims on the bench cluster, visited
// namespace by namespace, out of memory order).

export type ClaimObject = ResourceClaim | ResourceClaimTemplate;

export interface NamespaceClaimRequests {
  /** The namespace's claims and templates, by kind, then name. */
  readonly objects: readonly ClaimObject[];
  /**
   * The device classes their requests and firstAvailable subrequests name (as classesOfSpec reads a
   * spec), each once, sorted; shared between namespaces naming the same classes. Which object names which is read again only where a check reports it
   * (usersByClass): a map of users per class for every namespace was three times the objects' lists.
   */
  readonly classes: readonly string[];
}

/** The claim spec of a claim, or the one a template stamps out. */
export function specOf(o: ClaimObject): ResourceClaimSpec | undefined {
  return o.kind === 'ResourceClaimTemplate' ? (o as ResourceClaimTemplate).spec?.spec : (o as ResourceClaim).spec;
}

// Per state, not per analysis: a fix's holder-scoped contexts and a live cluster's next analysis of
// the same version read the same objects.
const byState = new WeakMap<ClusterState, Map<string, NamespaceClaimRequests>>();

/** Each namespace's claims and templates and the device classes they request; built on first use. */
export function claimRequestsByNamespace(state: ClusterState): Map<string, NamespaceClaimRequests> {
  let found = byState.get(state);
  if (!found) byState.set(state, (found = groupClaimRequests(state)));
  return found;
}

function groupClaimRequests(state: ClusterState): Map<string, NamespaceClaimRequests> {
  const out = new Map<string, { objects: ClaimObject[]; classes: string[] }>();
  // The state's own order (memory order), claims then templates; sorted per namespace afterwards.
  const add = (o: ClaimObject) => {
    const ns = o.metadata.namespace ?? '';
    let here = out.get(ns);
    if (!here) out.set(ns, (here = { objects: [], classes: [] }));
    here.objects.push(o);
    const requests = specOf(o)?.devices?.requests;
    if (!requests) return;
    for (const r of requests) {
      if (r.exactly) addClass(here.classes, r.exactly.deviceClassName);
      if (r.firstAvailable) for (const sub of r.firstAvailable) addClass(here.classes, sub.deviceClassName);
    }
  };
  for (const c of state.resourceClaims) add(c);
  for (const t of state.resourceClaimTemplates) add(t);
  // Lists sized to fit (a list grown by push keeps room for 17), and namespaces naming the same
  // classes share one list: the summary stays small next to the objects it reads.
  const sameClasses = new Map<string, string[]>();
  for (const here of out.values()) {
    here.objects = here.objects.sort(byKindThenName).slice();
    const key = JSON.stringify(here.classes.sort());
    let shared = sameClasses.get(key);
    if (!shared) sameClasses.set(key, (shared = here.classes.slice()));
    here.classes = shared;
  }
  return out;
}

/**
 * The objects that request each class (as classesOfSpec reads a spec), each once and in the list's
 * order: one pass over their requests (a list of classes per object, flattened and searched again
 * per class, was most of QUOTA002 on a large cluster).
 */
export function usersByClass<T extends ClaimObject>(objects: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const o of objects) {
    const requests = specOf(o)?.devices?.requests;
    if (!requests) continue;
    for (const r of requests) {
      if (r.exactly) addUser(out, r.exactly.deviceClassName, o);
      if (r.firstAvailable) for (const sub of r.firstAvailable) addUser(out, sub.deviceClassName, o);
    }
  }
  return out;
}

// A namespace names a few classes: a list searched is smaller and faster than a set.
function addClass(classes: string[], cls: string | undefined): void {
  if (cls && !classes.includes(cls)) classes.push(cls);
}

// A module function, not a closure per object.
function addUser<T>(out: Map<string, T[]>, cls: string | undefined, o: T): void {
  if (!cls) return;
  const users = out.get(cls);
  if (!users) out.set(cls, [o]);
  else if (users[users.length - 1] !== o) users.push(o);
}

// Names are unique per kind within a namespace, so this orders a namespace's objects totally.
function byKindThenName(a: ClaimObject, b: ClaimObject): number {
  return compareStrings(a.kind, b.kind) || compareStrings(a.metadata.name, b.metadata.name);
}
