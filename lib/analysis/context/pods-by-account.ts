import type { Pod } from '@/lib/k8s/types';
import { podServiceAccount } from './pod-facts';

// The pods of a service account, for the few accounts the checks ask about (~140 in ~130 of 20,000
// namespaces on the diverse bench cluster). The pods' positions are grouped by namespace in one typed
// array, and an account's pods are read from its namespace's when first asked and kept: lists of
// every account's pods (a map per namespace, a list per account) were ~11 MiB kept to the end.

const NO_PODS: readonly Pod[] = Object.freeze([]);

/** `(namespace, name) => pods`: the pods (in the list's order) that run as that service account. */
export function podsByAccount(pods: readonly Pod[]): (namespace: string, name: string) => readonly Pod[] {
  // Each namespace (numbered in order of its first pod) has its pods at positions [starts[id],
  // starts[id + 1]) of `positions`, in the list's order: one lookup per pod, then counting sorts on
  // typed arrays. The pods of a bench or live list are not grouped by namespace, and a count and a
  // start kept per namespace in maps were four lookups per pod (~40 ms for the 200,000 pods of the
  // diverse bench cluster).
  const ids = new Map<string, number>();
  const namespaceOf = new Int32Array(pods.length);
  const counts: number[] = [];
  for (let i = 0; i < pods.length; i++) {
    const ns = pods[i].metadata.namespace ?? '';
    let id = ids.get(ns);
    if (id === undefined) {
      ids.set(ns, (id = counts.length));
      counts.push(0);
    }
    counts[id]++;
    namespaceOf[i] = id;
  }
  const starts = new Int32Array(counts.length + 1);
  for (let id = 0; id < counts.length; id++) starts[id + 1] = starts[id] + counts[id];
  const fill = starts.slice(0, counts.length);
  const positions = new Int32Array(pods.length);
  for (let i = 0; i < pods.length; i++) positions[fill[namespaceOf[i]]++] = i;
  const known = new Map<string, Map<string, readonly Pod[]>>();
  return (namespace, name) => {
    const id = ids.get(namespace);
    if (id === undefined) return NO_PODS;
    let inNamespace = known.get(namespace);
    if (!inNamespace) known.set(namespace, (inNamespace = new Map()));
    let found = inNamespace.get(name);
    if (!found) {
      const out: Pod[] = [];
      const stop = starts[id + 1];
      for (let at = starts[id]; at < stop; at++) {
        const pod = pods[positions[at]];
        if (podServiceAccount(pod) === name) out.push(pod);
      }
      inNamespace.set(name, (found = out.length === 0 ? NO_PODS : out));
    }
    return found;
  };
}
