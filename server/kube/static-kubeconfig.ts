import 'server-only';
import { accessSync, readFileSync } from 'node:fs';
import type https from 'node:https';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { KeepAliveAgents } from './keep-alive-agents';
import type { KubeAccess } from './kube-access';

// What a kubeconfig may hold for this reader to take it on; anything else (exec plugins, auth
// providers, basic auth, token files, proxies, impersonation, fields we do not know) goes to
// client-node, which stays the reference: this reader must give the same requests it would.
const CLUSTER_KEYS = new Set(['server', 'certificate-authority', 'certificate-authority-data', 'insecure-skip-tls-verify', 'tls-server-name', 'extensions']);
const USER_KEYS = new Set(['token', 'client-certificate', 'client-certificate-data', 'client-key', 'client-key-data', 'extensions']);

type Entry = Record<string, unknown>;

/**
 * The access a kubeconfig gives when its credentials are static (a bearer token, a client
 * certificate, a CA), read without loading client-node: loading it costs a live question a third of
 * its time. Undefined whenever anything is outside that (or wrong: client-node then says what), so
 * the caller falls back to client-node.
 */
export function readStaticKubeconfig(
  options: { kubeconfig?: string; context?: string },
  env: Record<string, string | undefined> = process.env,
): KubeAccess | undefined {
  const file = options.kubeconfig ?? defaultFile(env);
  if (!file) return undefined;
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!isEntry(doc)) return undefined;
  const clusters = entries(doc.clusters, 'cluster', (c) => typeof c.server === 'string' && c.server !== '');
  const users = entries(doc.users, 'user', () => true, true);
  const contexts = entries(doc.contexts, 'context', () => true);
  if (!clusters || !users || !contexts) return undefined;

  const contextName = options.context ?? doc['current-context'];
  if (typeof contextName !== 'string' || contextName === '') return undefined;
  const context = contexts.find((c) => c.name === contextName)?.context as Entry | undefined;
  const cluster = clusters.find((c) => c.name === context?.cluster)?.cluster as Entry | undefined;
  const userEntry = users.find((u) => u.name === context?.user);
  const user = (userEntry?.user ?? {}) as Entry;
  // client-node applies nothing at all (not even the CA) for a context whose user is missing.
  if (!context || !cluster || !userEntry) return undefined;
  if (!onlyKeys(cluster, CLUSTER_KEYS) || !onlyKeys(user, USER_KEYS)) return undefined;
  for (const k of ['certificate-authority', 'certificate-authority-data', 'tls-server-name']) if (!optString(cluster[k])) return undefined;
  for (const k of ['token', 'client-certificate', 'client-certificate-data', 'client-key', 'client-key-data']) if (!optString(user[k])) return undefined;
  const namespace = context.namespace;
  if (namespace !== undefined && typeof namespace !== 'string') return undefined;

  const root = dirname(file);
  const server = (cluster.server as string).replace(/\/$/, '');
  const material = {
    ca: fileOrData(root, cluster['certificate-authority'], cluster['certificate-authority-data']),
    cert: fileOrData(root, user['client-certificate'], user['client-certificate-data']),
    key: fileOrData(root, user['client-key'], user['client-key-data']),
  };
  const skipVerify = cluster['insecure-skip-tls-verify'] === true;
  const servername = (cluster['tls-server-name'] as string | undefined) || undefined;
  const token = (user.token as string | undefined) || undefined;
  // client-node refuses plain http unless verification is switched off, and tunnels proxies.
  if (!server.startsWith('https:')) return undefined;
  const agents = new KeepAliveAgents();

  return {
    contextName,
    server,
    namespace: namespace || undefined,
    async applyTo(opts: https.RequestOptions) {
      opts.headers ??= {};
      if (token) (opts.headers as Record<string, string>).Authorization = `Bearer ${token}`;
      // Files are read for each request, as client-node does: a rotated certificate is picked up.
      opts.agent = agents.forTls({
        ca: material.ca(),
        cert: material.cert(),
        key: material.key(),
        servername,
        rejectUnauthorized: skipVerify ? false : undefined,
      });
    },
  };
}

/** $KUBECONFIG when it names one file (several are merged: client-node does that), else ~/.kube/config. */
function defaultFile(env: Record<string, string | undefined>): string | undefined {
  if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(delimiter).filter(Boolean);
    return files.length === 1 ? files[0] : undefined;
  }
  // Windows looks in several places (and in WSL): client-node.
  if (process.platform === 'win32' || !env.HOME) return undefined;
  const config = join(env.HOME, '.kube', 'config');
  try {
    accessSync(config);
    return config;
  } catch {
    return undefined;
  }
}

function isEntry(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

function onlyKeys(o: Entry, allowed: ReadonlySet<string>): boolean {
  return Object.keys(o).every((k) => allowed.has(k));
}

/** A named list as client-node reads it: every entry valid (it refuses the file otherwise). */
function entries(list: unknown, field: string, valid: (body: Entry) => boolean, bodyOptional = false): Entry[] | undefined {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) return undefined;
  for (const e of list) {
    if (!isEntry(e) || typeof e.name !== 'string' || e.name === '') return undefined;
    const body = e[field];
    if (body === undefined && bodyOptional) continue;
    if (!isEntry(body) || !valid(body)) return undefined;
  }
  return list as Entry[];
}

function fileOrData(root: string, file: unknown, data: unknown): () => Buffer | undefined {
  if (typeof file === 'string' && file !== '') {
    const path = isAbsolute(file) ? file : join(root, file);
    return () => readFileSync(path);
  }
  if (typeof data === 'string' && data !== '') {
    const bytes = Buffer.from(data, 'base64');
    return () => bytes;
  }
  return () => undefined;
}
