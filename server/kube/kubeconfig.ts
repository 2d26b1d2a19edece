import 'server-only';
import { existsSync } from 'node:fs';
import https from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KeepAliveAgents } from './keep-alive-agents';
import type { KubeAccess } from './kube-access';
import { KubeError } from './kube-errors';
import { readStaticKubeconfig } from './static-kubeconfig';

export interface KubeconfigOptions {
  /** A kubeconfig path from the server's own configuration (never from a browser). */
  kubeconfig?: string;
  context?: string;
}

/**
 * The current (or named) context of a kubeconfig; $KUBECONFIG / ~/.kube/config / in-cluster otherwise.
 * Static credentials are read directly; everything else (exec plugins, auth providers, merged
 * files, in-cluster, and every error message) through client-node, loaded only then.
 */
export async function loadKubeconfig(options: KubeconfigOptions): Promise<KubeAccess> {
  return readStaticKubeconfig(options) ?? (await loadWithClientNode(options));
}

export async function loadWithClientNode(options: KubeconfigOptions): Promise<KubeAccess> {
  const { KubeConfig } = await import('@kubernetes/client-node');
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
  const contextName = kc.getCurrentContext();
  const agents = new KeepAliveAgents();
  return {
    contextName,
    server: cluster.server,
    namespace: kc.getContextObject(contextName)?.namespace || undefined,
    async applyTo(opts) {
      await kc.applyToHTTPSOptions(opts);
      // client-node builds a new agent for every request; a proxy agent, or a plain one, is kept as it is.
      if (opts.agent instanceof https.Agent) {
        const o = (opts.agent as https.Agent & { options: https.AgentOptions }).options;
        opts.agent = agents.forTls(o, o);
      }
    },
  };
}

/** Whether a kubeconfig is configured for this process (explicit path, $KUBECONFIG, ~/.kube/config or in-cluster). */
export function hasDefaultKubeconfig(): boolean {
  // loadFromDefault() would invent http://localhost:8080 when nothing is configured, so look first.
  const env = process.env;
  if (env.KUBECONFIG && env.KUBECONFIG.split(':').some((p) => p && existsSync(p))) return true;
  if (existsSync(join(homedir(), '.kube', 'config'))) return true;
  return !!env.KUBERNETES_SERVICE_HOST && existsSync('/var/run/secrets/kubernetes.io/serviceaccount/token');
}
