import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';

export interface LiveSourceOptions {
  kubeconfig?: string;
  context?: string;
}

/** Reading a live cluster is being built (issue: live clusters); until then this says so clearly. */
export async function loadLiveCluster(options: LiveSourceOptions): Promise<ClusterState> {
  void options;
  throw new Error('reading a live cluster is not available in this build yet; export it with `kubectl get ... -o json` and use --snapshot');
}
