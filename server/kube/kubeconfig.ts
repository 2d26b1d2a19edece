import 'server-only';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from './kube-errors';

export interface KubeconfigOptions {
  /** A kubeconfig path from the server's own configuration (never from a browser). */
  kubeconfig?: string;
  context?: string;
}

export interface LoadedKubeconfig {
  kc: KubeConfig;
  contextName: string;
  server: string;
}

/** The current (or named) context of a kubeconfig; $KUBECONFIG / ~/.kube/config / in-cluster otherwise. */
export function loadKubeconfig(options: KubeconfigOptions): LoadedKubeconfig {
  const kc = new KubeConfig();
  try {
    if (options.kubeconfig) kc.loadFromFile(options.kubeconfig);
    else kc.loadFromDefault();
  } catch (e) {
    throw new KubeError('invalid_kubeconfig', `cannot read kubeconfig${options.kubeconfig ? ` ${options.kubeconfig}` : ''}: ${(e as Error).message}`);
  }
  if (options.context) {
    if (!kc.getContexts().some((c) => c.name === options.context)) {
      throw new KubeError(
        'invalid_kubeconfig',
        `kubeconfig has no context "${options.context}" (contexts: ${
          kc
            .getContexts()
            .map((c) => c.name)
            .join(', ') || 'none'
        })`,
      );
    }
    kc.setCurrentContext(options.context);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeError('invalid_kubeconfig', 'kubeconfig has no current cluster');
  return { kc, contextName: kc.getCurrentContext(), server: cluster.server };
}

/** Whether a kubeconfig is configured for this process (explicit path, $KUBECONFIG, ~/.kube/config or in-cluster). */
export function hasDefaultKubeconfig(): boolean {
  // loadFromDefault() would invent http://localhost:8080 when nothing is configured, so look first.
  const env = process.env.KUBECONFIG;
  if (env && env.split(':').some((p) => p && existsSync(p))) return true;
  if (existsSync(join(homedir(), '.kube', 'config'))) return true;
  return !!process.env.KUBERNETES_SERVICE_HOST && existsSync('/var/run/secrets/kubernetes.io/serviceaccount/token');
}
