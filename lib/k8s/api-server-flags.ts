import type { Pod } from './types';

// The kube-apiserver command line, as far as a cluster shows it: a kube-system kube-apiserver-* pod
// (kubeadm's static pod, seen as its mirror pod). Managed control planes show none. Read by the
// checks on the flags (NODE005, AUDIT006) and by the cluster configuration the engine applies.

export interface ApiServerArgs {
  /** Index of the container that runs kube-apiserver. */
  index: number;
  /** Each argument with where it sits (`command[2]`, `args[0]`); shell strings are split on spaces. */
  argv: { value: string; at: string }[];
}

export interface ApiServerFlag {
  /** Every value given (a flag may repeat; a flag without a value has ''). */
  values: string[];
  /** Where the first occurrence sits (`command[3]`). */
  at: string;
}

export interface VisibleApiServer {
  pod: Pod;
  found: ApiServerArgs;
  flags: Map<string, ApiServerFlag>;
}

function apiServerContainer(pod: Pod): ApiServerArgs | undefined {
  const containers = pod.spec?.containers ?? [];
  for (let index = 0; index < containers.length; index++) {
    const c = containers[index];
    const argv: { value: string; at: string }[] = [];
    for (const field of ['command', 'args'] as const) {
      (c[field] ?? []).forEach((a, i) => {
        // `sh -c "kube-apiserver --a=b ..."`: split the shell string into words.
        const words = /^\s*(\S*\/)?kube-apiserver(\s|$)/.test(a) || /\s--/.test(a) ? a.trim().split(/\s+/) : [a];
        for (const value of words) argv.push({ value, at: `${field}[${i}]` });
      });
    }
    if (argv.some((a) => a.value === 'kube-apiserver' || a.value.endsWith('/kube-apiserver'))) return { index, argv };
  }
  return undefined;
}

/** `--name=value`, `--name value` and `--name` (''), in order; a repeated flag keeps every value. */
export function parseApiServerFlags(argv: readonly { value: string; at: string }[]): Map<string, ApiServerFlag> {
  const flags = new Map<string, ApiServerFlag>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i].value;
    const at = argv[i].at;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    let name = a.slice(2);
    let value = '';
    if (eq >= 0) {
      name = a.slice(2, eq);
      value = a.slice(eq + 1);
    } else if (argv[i + 1] !== undefined && !argv[i + 1].value.startsWith('--')) {
      value = argv[++i].value;
    }
    const flag = flags.get(name);
    if (flag) flag.values.push(value);
    else flags.set(name, { values: [value], at });
  }
  return flags;
}

/**
 * Where the API server's flags can be seen: a kube-system pod named kube-apiserver-* (kubeadm's static
 * pod). Every question is answered with the configuration they set, so a read narrowed to a few kinds
 * still keeps these pods (build-cluster-state, collect-cluster).
 */
export function isApiServerPod(metadata: { namespace?: unknown; name?: unknown } | undefined): boolean {
  return metadata?.namespace === 'kube-system' && typeof metadata.name === 'string' && metadata.name.startsWith('kube-apiserver');
}

// The authorizer's configuration, the admission model and several checks each ask, and each answer
// tests every pod (200,000 on the bench cluster): one pods array is read once. A state's pods are not
// changed once built (the length guards against a list still being filled); callers do not change
// the answer.
const serversByPods = new WeakMap<readonly Pod[], { length: number; servers: VisibleApiServer[] }>();

/** kube-system kube-apiserver-* pods whose command line shows the API server, by name, with their flags. */
export function visibleApiServers(pods: readonly Pod[]): readonly VisibleApiServer[] {
  const known = serversByPods.get(pods);
  if (known && known.length === pods.length) return known.servers;
  const servers = readVisibleApiServers(pods);
  serversByPods.set(pods, { length: pods.length, servers });
  return servers;
}

function readVisibleApiServers(pods: readonly Pod[]): VisibleApiServer[] {
  return pods
    .filter((p) => isApiServerPod(p.metadata))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
    .flatMap((pod) => {
      const found = apiServerContainer(pod);
      return found ? [{ pod, found, flags: parseApiServerFlags(found.argv) }] : [];
    });
}

/** The comma-separated items of every value of a flag (`--a=x,y --a=z` → x, y, z), trimmed, empty ones dropped. */
export function flagList(flag: ApiServerFlag | undefined): string[] {
  return (flag?.values ?? [])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}
