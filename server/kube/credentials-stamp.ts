import 'server-only';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const SERVICE_ACCOUNT_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * A digest of the files a kubeconfig's credentials come from (the explicit path, else $KUBECONFIG's
 * files, else ~/.kube/config, plus the in-cluster token). After a 401 the live source is not asked
 * again until this changes: the same credentials would only be rejected again.
 */
export function credentialsStamp(kubeconfig: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const paths = kubeconfig
    ? [kubeconfig]
    : [...(env.KUBECONFIG ? env.KUBECONFIG.split(':').filter(Boolean) : [join(env.HOME || homedir(), '.kube', 'config')]), SERVICE_ACCOUNT_TOKEN];
  const hash = createHash('sha256');
  for (const p of paths) {
    hash.update(p).update('\u0000');
    try {
      hash.update(readFileSync(p));
    } catch {
      hash.update('(absent)');
    }
    hash.update('\u0000');
  }
  return hash.digest('hex');
}
