import { normaliseHostPath } from './pod-facts';

// Container runtime and NRI sockets on a node. Whoever reaches the runtime's API socket can create
// privileged containers, exec into and stop any container on the node; whoever reaches the NRI
// socket can register as an NRI plugin, which the runtime calls for every container it creates or
// updates and which may change its mounts, devices, environment, OCI hooks and resources. Either is
// control of every container on the node. Real DRA drivers mount NRI to place CPUs and network
// devices: dra-driver-cpu and dranet mount /var/run/nri, the SR-IOV driver /var/run/nri/nri.sock.

export type RuntimeSocketKind = 'runtime' | 'nri';

/** Socket paths under /run; each is also reachable under /var/run, which manifests use as often. */
const SOCKETS: readonly { path: string; kind: RuntimeSocketKind }[] = [
  { path: 'containerd/containerd.sock', kind: 'runtime' },
  { path: 'k3s/containerd/containerd.sock', kind: 'runtime' },
  { path: 'crio/crio.sock', kind: 'runtime' },
  { path: 'docker.sock', kind: 'runtime' },
  { path: 'cri-dockerd.sock', kind: 'runtime' },
  { path: 'nri/nri.sock', kind: 'nri' },
];
const RUN_DIRS = ['/run', '/var/run'];

/**
 * The kinds of socket a host path exposes: the socket itself or a directory holding it (/run,
 * /var/run, /var, /run/containerd, /var/run/nri...). The whole root ("/") is reported as such by
 * its own rule, not here.
 */
export function exposedRuntimeSockets(hostPath: string): RuntimeSocketKind[] {
  const p = normaliseHostPath(hostPath);
  if (p === '/') return [];
  const kinds = new Set<RuntimeSocketKind>();
  for (const dir of RUN_DIRS) {
    for (const s of SOCKETS) {
      const full = `${dir}/${s.path}`;
      if (full === p || full.startsWith(`${p}/`)) kinds.add(s.kind);
    }
  }
  return (['runtime', 'nri'] as const).filter((k) => kinds.has(k));
}
