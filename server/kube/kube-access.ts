import 'server-only';
import type https from 'node:https';

/** Where a kubeconfig context points and how to authenticate a request to it. */
export interface KubeAccess {
  contextName: string;
  /** The API server URL, without a trailing slash. */
  server: string;
  /** The context's namespace, if it names one. */
  namespace?: string;
  /** Adds the credentials, TLS material and a keep-alive agent to a request. */
  applyTo(opts: https.RequestOptions): Promise<void>;
}
