import type { Pod } from '@/lib/k8s/types';
import { podServiceAccount } from './pod-facts';

// The pods of a service account, for the few accounts the checks ask about (~140 in ~130 of 20,000
// namespaces on the diverse bench cluster). The pods' positions are grouped by namespace in one typed
// array, and an account's pods are read from its namespace's when first asked and kept: lists of
// every account's pods (a map per namespace, a list per account) were ~11 MiB kept to the end.

const NO_PODS: readonly Pod[] = Object.freeze([]);

/** `(namespace, name) => pods`: the pods (in the list's order) that run as that service account. */
export function podsByAccount(pods: readonly Pod[]): (namespace: string, name: string) => readonly Pod[] {
  // Each namespace's pods are positions [start, start + count) of `positions`, in the list's order.
  const counts = new Map<string, number>();
  for (const p of pods) {
    const ns = p.metadata.namespace ?? '';
    counts.set(ns, (counts.get(ns) ?? 0) + 1);
  }
  const starts = new Map<string, number>();
  let end = 0;
  for (const [ns, count] of counts) starts.set(ns, (end += count));
  const positions = new Int32Array(pods.length);
  // Filled from the last pod back, each namespace's end moving to its start.
  for (let i = pods.length - 1; i >= 0; i--) {
    const ns = pods[i].metadata.namespace ?? '';
    const at = starts.get(ns)! - 1;
    starts.set(ns, at);
    positions[at] = i;
  }
  const known = new Map<string, Map<string, readonly Pod[]>>();
  return (namespace, name) => {
    const start = starts.get(namespace);
    if (start === undefined) return NO_PODS;
    let inNamespace = known.get(namespace);
    if (!inNamespace) known.set(namespace, (inNamespace = new Map()));
    let found = inNamespace.get(name);
    if (!found) {
      const out: Pod[] = [];
      const stop = start + counts.get(namespace)!;
      for (let at = start; at < stop; at++) {
        const pod = pods[positions[at]];
        if (podServiceAccount(pod) === name) out.push(pod);
      }
      inNamespace.set(name, (found = out.length === 0 ? NO_PODS : out));
    }
    return found;
  };
}
