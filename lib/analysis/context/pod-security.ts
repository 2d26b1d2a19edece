import type { ClusterState } from '@/lib/k8s/cluster-state';

// Pod Security admission (https://kubernetes.io/docs/concepts/security/pod-security-admission/): a
// namespace's `pod-security.kubernetes.io/enforce` label sets the level its pods must meet. Only
// `baseline` and `restricted` refuse privileged pods, host namespaces and hostPath volumes; with no
// label the cluster's default level applies, which is `privileged` unless the API server's
// AdmissionConfiguration says otherwise (not visible in a snapshot), so an unlabelled namespace is
// taken to admit privileged pods.

export const PSA_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

const REFUSING = new Set(['baseline', 'restricted']);

/** Namespace name → whether it admits privileged pods (namespaces without an object count as unlabelled). */
export function privilegedNamespaceTest(state: Pick<ClusterState, 'namespaces'>): (namespace: string) => boolean {
  const refusing = new Set<string>();
  for (const n of state.namespaces) if (REFUSING.has(n.metadata.labels?.[PSA_ENFORCE_LABEL] ?? '')) refusing.add(n.metadata.name);
  return (namespace) => !refusing.has(namespace);
}
