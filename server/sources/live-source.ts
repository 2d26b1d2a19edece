import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { collectLiveCluster } from '@/server/kube/collect-cluster';

export interface LiveSourceOptions {
  kubeconfig?: string;
  context?: string;
  /** Read only these kinds (KindDescriptor.kind): what one question needs. */
  kinds?: ReadonlySet<string>;
  /** Read Roles and RoleBindings only in these namespaces (`rbacNamespacesFor`). */
  rbacNamespaces?: ReadonlySet<string>;
}

/** One consistent read of the cluster of a kubeconfig context (for the CLI). */
export async function loadLiveCluster(options: LiveSourceOptions): Promise<ClusterState> {
  return (await collectLiveCluster(options)).state;
}
