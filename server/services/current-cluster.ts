import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { hasDefaultKubeconfig } from '@/server/kube/kubeconfig';
import { loadDemo } from '@/server/sources/demo-source';
import { LiveCluster, type LiveStatus } from '@/server/sources/live-cluster';
import { loadSnapshot } from '@/server/sources/snapshot-source';
import { getUploadedSnapshot } from './uploaded-source';

let cached: Promise<ClusterState> | undefined;
let live: Promise<LiveCluster> | undefined;

type Choice = { kind: 'snapshot'; path: string } | { kind: 'live'; kubeconfig?: string; context?: string } | { kind: 'demo' };

/**
 * Which source the dashboard shows, from the server's own configuration only (never the browser):
 * DRA_POSTURE_SNAPSHOT=PATH; DRA_POSTURE_SOURCE=demo; DRA_POSTURE_KUBECONFIG / DRA_POSTURE_CONTEXT;
 * otherwise the current kubeconfig when one is configured, else the bundled demo.
 */
export function chooseSource(env: Record<string, string | undefined> = process.env): Choice {
  if (env.DRA_POSTURE_SNAPSHOT) return { kind: 'snapshot', path: env.DRA_POSTURE_SNAPSHOT };
  if (env.DRA_POSTURE_SOURCE === 'demo') return { kind: 'demo' };
  if (env.DRA_POSTURE_KUBECONFIG || env.DRA_POSTURE_CONTEXT || (env.DRA_POSTURE_SOURCE !== 'no-live' && hasDefaultKubeconfig())) {
    return { kind: 'live', kubeconfig: env.DRA_POSTURE_KUBECONFIG || undefined, context: env.DRA_POSTURE_CONTEXT || undefined };
  }
  return { kind: 'demo' };
}

function getLive(choice: Extract<Choice, { kind: 'live' }>): Promise<LiveCluster> {
  live ??= (async () => {
    const cluster = new LiveCluster({ kubeconfig: choice.kubeconfig, context: choice.context });
    await cluster.start();
    return cluster;
  })().catch((e) => {
    live = undefined;
    throw e;
  });
  return live;
}

/** The cluster the dashboard shows; for a live source, the current state of its watches. */
export async function getCurrentCluster(): Promise<ClusterState> {
  const uploaded = getUploadedSnapshot();
  if (uploaded) return uploaded;
  const choice = chooseSource();
  if (choice.kind === 'live') return (await getLive(choice)).getState();
  if (!cached) {
    cached = (choice.kind === 'snapshot' ? loadSnapshot(choice.path) : loadDemo()).catch((e) => {
      cached = undefined;
      throw e;
    });
  }
  return cached;
}

/** Freshness of a live source (undefined for demo and snapshots). */
export async function getLiveStatus(): Promise<LiveStatus | undefined> {
  if (getUploadedSnapshot()) return undefined;
  const choice = chooseSource();
  if (choice.kind !== 'live') return undefined;
  return (await getLive(choice)).status();
}
