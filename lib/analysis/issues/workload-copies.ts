import { fnv1a64 } from '@/lib/analysis/finding-id';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { refKey } from '@/lib/k8s/refs';
import type { KubeObject, PodSpec } from '@/lib/k8s/types';

// As with Roles (role-copies.ts), a chart or onboarding template stamps the same workload (same name,
// same pod spec) into many tenant namespaces: a hardening or host-access mistake in it is one cause
// with one fix, not one issue per namespace. Workloads and bare pods that have such copies get a
// shared root-cause key; the others keep their own.

type Workload = KubeObject & { spec?: unknown };

/** What the pod checks read of a pod spec: all of it but where it runs and the claims it got. */
function specKey(spec: PodSpec | undefined): string {
  if (!spec) return '';
  const { nodeName: _node, resourceClaims: _claims, ...rest } = spec;
  return fnv1a64(JSON.stringify(rest));
}

/** Ref key of a workload or bare pod → the key its copies share (kind, name and a hash of the pod spec), only for those with copies. */
export function workloadCopyKeys(state: Pick<ClusterState, 'pods' | 'deployments' | 'daemonSets' | 'statefulSets'>): Map<string, string> {
  // A pod with an owner is judged as its owner (the workload is the root cause), so only bare pods count.
  const bare = state.pods.filter((p) => p.metadata.namespace && (p.metadata.ownerReferences ?? []).length === 0);
  const workloads = [...state.deployments, ...state.daemonSets, ...state.statefulSets].filter((w) => w.metadata.namespace);
  // Copies share a kind and a name: an object whose kind and name are in no other namespace has
  // none, and its spec is not hashed (200,000 bare pods of distinct names on the large bench cluster).
  const namesSeen = new Map<string, number>();
  const count = (o: Workload) => {
    const key = `${o.kind} */${o.metadata.name}`;
    namesSeen.set(key, (namesSeen.get(key) ?? 0) + 1);
  };
  for (const p of bare) count(p);
  for (const w of workloads) count(w);
  const groups = new Map<string, string[]>();
  const add = (o: Workload, spec: PodSpec | undefined) => {
    const name = `${o.kind} */${o.metadata.name}`;
    if (namesSeen.get(name)! < 2) return;
    const key = `${name}#${specKey(spec)}`;
    const ref = refKey({ kind: o.kind, namespace: o.metadata.namespace, name: o.metadata.name });
    const list = groups.get(key);
    if (list) list.push(ref);
    else groups.set(key, [ref]);
  };
  for (const p of bare) add(p, p.spec);
  for (const w of workloads) add(w, w.spec?.template?.spec);
  const out = new Map<string, string>();
  for (const [key, refs] of groups) if (refs.length > 1) for (const ref of refs) out.set(ref, key);
  return out;
}
