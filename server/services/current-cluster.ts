import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { loadDemo } from '@/server/sources/demo-source';
import { loadSnapshot } from '@/server/sources/snapshot-source';

let cached: Promise<ClusterState> | undefined;

/**
 * The cluster the dashboard shows, chosen by the server's own configuration (never by the browser):
 * DRA_POSTURE_SNAPSHOT=PATH, otherwise the bundled demo.
 */
export function getCurrentCluster(): Promise<ClusterState> {
  if (!cached) {
    const snapshot = process.env.DRA_POSTURE_SNAPSHOT;
    cached = (snapshot ? loadSnapshot(snapshot) : loadDemo()).catch((e) => {
      cached = undefined;
      throw e;
    });
  }
  return cached;
}
