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
  const groups = new Map<string, string[]>();
  const add = (o: Workload, spec: PodSpec | undefined) => {
    const namespace = o.metadata.namespace;
    if (!namespace) return;
    const key = `${o.kind} */${o.metadata.name}#${specKey(spec)}`;
    const ref = refKey({ kind: o.kind, namespace, name: o.metadata.name });
    const list = groups.get(key);
    if (list) list.push(ref);
    else groups.set(key, [ref]);
  };
  // A pod with an owner is judged as its owner (the workload is the root cause), so only bare pods count.
  for (const p of state.pods) if ((p.metadata.ownerReferences ?? []).length === 0) add(p, p.spec);
  for (const w of [...state.deployments, ...state.daemonSets, ...state.statefulSets]) add(w, w.spec?.template?.spec);
  const out = new Map<string, string>();
  for (const [key, refs] of groups) if (refs.length > 1) for (const ref of refs) out.set(ref, key);
  return out;
}
