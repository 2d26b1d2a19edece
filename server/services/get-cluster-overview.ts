import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { getCurrentCluster } from './current-cluster';

export interface ClusterOverview {
  source: ClusterState['source'];
  counts: { label: string; count: number }[];
  warnings: string[];
}

/** Object counts of the current source, for the landing page. */
export async function getClusterOverview(): Promise<ClusterOverview> {
  const state = await getCurrentCluster();
  return {
    source: state.source,
    counts: [
      { label: 'Nodes', count: state.nodes.length },
      { label: 'Namespaces', count: state.namespaces.length },
      { label: 'Pods', count: state.pods.length },
      { label: 'ResourceClaims', count: state.resourceClaims.length },
      { label: 'ResourceSlices', count: state.resourceSlices.length },
      { label: 'DeviceClasses', count: state.deviceClasses.length },
      { label: 'ClusterRoleBindings', count: state.clusterRoleBindings.length },
      { label: 'RoleBindings', count: state.roleBindings.length },
    ],
    warnings: state.warnings,
  };
}
