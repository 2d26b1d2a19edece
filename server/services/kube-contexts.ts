import 'server-only';
import { KubeConfig } from '@kubernetes/client-node';
import { hasDefaultKubeconfig } from '@/server/kube/kubeconfig';

export interface KubeContextInfo {
  name: string;
  /** host[:port] of the context's API server: enough to tell contexts apart, no credentials. */
  server: string;
  /** The kubeconfig's current context. */
  current: boolean;
}

/**
 * The contexts of the server's own kubeconfig (DRA_POSTURE_KUBECONFIG, else $KUBECONFIG or
 * ~/.kube/config). Only names and server hosts leave this function: never users, tokens,
 * certificates or the file's content.
 */
export function listKubeContexts(env: Record<string, string | undefined> = process.env): KubeContextInfo[] {
  const path = env.DRA_POSTURE_KUBECONFIG || undefined;
  if (!path && !hasDefaultKubeconfig()) return [];
  const kc = new KubeConfig();
  try {
    if (path) kc.loadFromFile(path);
    else kc.loadFromDefault();
  } catch {
    return [];
  }
  const current = kc.getCurrentContext();
  return kc
    .getContexts()
    .map((c) => ({ name: c.name, server: hostOf(kc.getCluster(c.cluster)?.server ?? ''), current: c.name === current }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function hostOf(server: string): string {
  try {
    return new URL(server).host;
  } catch {
    return '';
  }
}
