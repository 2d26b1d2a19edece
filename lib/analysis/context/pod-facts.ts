import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Container, ObjectRef, OwnerReference, Pod, PodSpec, PodTemplateSpec, ReplicaSet } from '@/lib/k8s/types';

// Facts about pods that do not need the authorizer: host paths, plugin-directory mounts, the
// service account, the owning workload, and stand-in pods for workloads whose pods are absent.

export const KUBELET_PLUGIN_DIRS = ['/var/lib/kubelet/plugins', '/var/lib/kubelet/plugins_registry'] as const;

/** Collapses repeated slashes, resolves `.`/`..` segments and drops a trailing slash ("/" stays "/"). */
export function normaliseHostPath(path: string): string {
  // Most paths are already normal (read for every hostPath volume of 200,000 pods): returned as they are.
  return isNormalPath(path) ? path : resolvePathSegments(path);
}

/** The path split on "/", empty and "." segments dropped and ".." resolved, joined from "/": normaliseHostPath without its shortcut. */
export function resolvePathSegments(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** Absolute, no empty segment, no segment starting with "." (so no "." or ".."), no trailing slash: split and joined, the same text. */
function isNormalPath(path: string): boolean {
  if (path.charCodeAt(0) !== 0x2f) return false;
  if (path.length === 1) return true;
  for (let i = 0; i < path.length; i++) {
    if (path.charCodeAt(i) !== 0x2f) continue;
    const next = path.charCodeAt(i + 1);
    // "//", "/." or a trailing "/" (NaN past the end).
    if (next === 0x2f || next === 0x2e || Number.isNaN(next)) return false;
  }
  return true;
}

/**
 * Whether a host path exposes a kubelet plugin directory: the directory itself, a parent of it
 * (`/`, `/var/lib/kubelet`...), or a directory inside it (`/var/lib/kubelet/plugins/<driver>`
 * holds that driver's socket, so it counts too).
 */
export function exposesPluginDir(hostPath: string): boolean {
  const p = normaliseHostPath(hostPath);
  if (p === '/') return true;
  for (const dir of KUBELET_PLUGIN_DIRS) if (p === dir || isInside(dir, p) || isInside(p, dir)) return true;
  return false;
}

/** `path.startsWith(`${dir}/`)` without building the string (asked for every hostPath volume of every pod). */
function isInside(path: string, dir: string): boolean {
  return path.length > dir.length && path.charCodeAt(dir.length) === 0x2f && path.startsWith(dir);
}

export function allContainers(spec: PodSpec): { container: Container; field: 'containers' | 'initContainers' | 'ephemeralContainers'; index: number }[] {
  const out: { container: Container; field: 'containers' | 'initContainers' | 'ephemeralContainers'; index: number }[] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    (spec[field] ?? []).forEach((container, index) => out.push({ container, field, index }));
  }
  return out;
}

/** hostPath volumes that at least one container mounts, with their normalised path. */
export type MountedHostPath = { readonly volume: string; readonly path: string; readonly index: number };

// Read for the same driver pods by the context, several checks and the fixes: on a large cluster each
// of 30,000 DaemonSet plugin pods was read a dozen times (hundreds of MiB of short-lived sets).
const mountedByPod = new WeakMap<Pod, readonly MountedHostPath[]>();

/** The hostPath volumes some container of the pod mounts, in volume order. */
export function mountedHostPaths(pod: Pod): readonly MountedHostPath[] {
  let found = mountedByPod.get(pod);
  if (!found) mountedByPod.set(pod, (found = readMountedHostPaths(pod)));
  return found;
}

function readMountedHostPaths(pod: Pod): MountedHostPath[] {
  const mounted = new Set<string>();
  for (const { container } of allContainers(pod.spec ?? { containers: [] })) for (const m of container.volumeMounts ?? []) mounted.add(m.name);
  const out: MountedHostPath[] = [];
  (pod.spec?.volumes ?? []).forEach((v, index) => {
    if (v.hostPath?.path !== undefined && mounted.has(v.name)) out.push({ volume: v.name, path: normaliseHostPath(v.hostPath.path), index });
  });
  return out;
}

export function mountsPluginDir(pod: Pod): boolean {
  // Most pods have no such hostPath volume at all: no need to collect their mounts.
  if (!(pod.spec?.volumes ?? []).some((v) => v.hostPath?.path !== undefined && exposesPluginDir(v.hostPath.path))) return false;
  return mountedHostPaths(pod).some((m) => exposesPluginDir(m.path));
}

export function podServiceAccount(pod: Pod): string {
  return pod.spec?.serviceAccountName || pod.spec?.serviceAccount || 'default';
}

export function podKey(pod: Pod): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name}`;
}

/** ReplicaSets by `namespace/name`, for ownerOfPod (built once per analysis). */
export function indexReplicaSets(state: Pick<ClusterState, 'replicaSets'>): ReadonlyMap<string, ReplicaSet> {
  return new Map(state.replicaSets.map((r) => [`${r.metadata.namespace ?? ''}/${r.metadata.name}`, r]));
}

const WORKLOAD_KINDS = new Set(['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob']);

/**
 * The workload owning a pod: its controller (a ReplicaSet is followed to its Deployment when the
 * ReplicaSet is known), or the pod itself (bare pods, mirror pods owned by a Node).
 */
export function ownerOfPod(replicaSets: ReadonlyMap<string, ReplicaSet>, pod: Pod): ObjectRef {
  const namespace = pod.metadata.namespace ?? '';
  const owner = controllerReference(pod.metadata.ownerReferences);
  if (!owner || !WORKLOAD_KINDS.has(owner.kind)) return { kind: 'Pod', namespace, name: pod.metadata.name };
  if (owner.kind === 'ReplicaSet') {
    const rs = replicaSets.get(`${namespace}/${owner.name}`);
    const up = controllerReference(rs?.metadata.ownerReferences);
    if (up?.kind === 'Deployment') return { kind: 'Deployment', namespace, name: up.name };
    // ReplicaSet not in the snapshot: a Deployment names its ReplicaSets <deployment>-<pod-template-hash>.
    const hash = pod.metadata.labels?.['pod-template-hash'];
    if (!rs && hash && owner.name.endsWith(`-${hash}`) && owner.name.length > hash.length + 1) {
      return { kind: 'Deployment', namespace, name: owner.name.slice(0, -(hash.length + 1)) };
    }
  }
  return { kind: owner.kind, namespace, name: owner.name };
}

/** The controller among an object's owner references, else the first (what ownerOfPod follows). */
function controllerReference(refs: readonly OwnerReference[] | undefined): OwnerReference | undefined {
  if (refs === undefined) return undefined;
  for (let i = 0; i < refs.length; i++) if (refs[i].controller) return refs[i];
  return refs[0];
}

/**
 * The name of the DaemonSet ownerOfPod(…, pod) names, or undefined when it names none: without its
 * ReplicaSet lookup and its result object, as a DaemonSet owner is returned as it is (asked for every
 * pod of the cluster by the context, and for the DaemonSet pods of the node-local identities by the issues).
 */
export function daemonSetOwnerName(pod: Pod): string | undefined {
  const owner = controllerReference(pod.metadata.ownerReferences);
  return owner?.kind === 'DaemonSet' ? owner.name : undefined;
}

const TEMPLATE_ANNOTATION = 'dra-posture.io/from-pod-template';

/** Whether a pod was made by templatePods() from a workload's template (no real pod observed). */
export function isTemplatePod(pod: Pod): boolean {
  return pod.metadata.annotations?.[TEMPLATE_ANNOTATION] === 'true';
}

/**
 * Stand-in pods for DaemonSets, Deployments and StatefulSets with no observed pod (snapshots often
 * hold workloads without their pods): the pod template, owned by the workload, on no node.
 */
export function templatePods(state: Pick<ClusterState, 'pods' | 'replicaSets' | 'daemonSets' | 'deployments' | 'statefulSets'>): Pod[] {
  // Only workloads with a template can need a stand-in: the cluster's pods are read until each of
  // them is found owning one (on a large cluster, a few workloads and hundreds of thousands of pods).
  const wanted = new Set<string>();
  const want = (kind: string, meta: { name: string; namespace?: string }, template: PodTemplateSpec | undefined) => {
    if (template?.spec) wanted.add(`${kind}/${meta.namespace ?? ''}/${meta.name}`);
  };
  for (const ds of state.daemonSets) want('DaemonSet', ds.metadata, ds.spec?.template);
  for (const d of state.deployments) want('Deployment', d.metadata, d.spec?.template);
  for (const s of state.statefulSets) want('StatefulSet', s.metadata, s.spec?.template);
  const owned = new Set<string>();
  if (wanted.size > 0) {
    const replicaSets = indexReplicaSets(state);
    for (const pod of state.pods) {
      const o = ownerOfPod(replicaSets, pod);
      if (o.kind !== 'DaemonSet' && o.kind !== 'Deployment' && o.kind !== 'StatefulSet') continue;
      const key = `${o.kind}/${o.namespace ?? ''}/${o.name}`;
      if (!wanted.has(key)) continue;
      owned.add(key);
      if (owned.size === wanted.size) break;
    }
  }
  const out: Pod[] = [];
  const add = (kind: string, meta: { name: string; namespace?: string }, template: PodTemplateSpec | undefined) => {
    const namespace = meta.namespace ?? '';
    if (!template?.spec || owned.has(`${kind}/${namespace}/${meta.name}`)) return;
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: meta.name,
        namespace,
        labels: template.metadata?.labels,
        annotations: { ...(template.metadata?.annotations ?? {}), [TEMPLATE_ANNOTATION]: 'true' },
        ownerReferences: [{ apiVersion: 'apps/v1', kind, name: meta.name, controller: true }],
      },
      spec: { ...template.spec, containers: template.spec.containers ?? [] },
    });
  };
  for (const ds of state.daemonSets) add('DaemonSet', ds.metadata, ds.spec?.template);
  for (const d of state.deployments) add('Deployment', d.metadata, d.spec?.template);
  for (const s of state.statefulSets) add('StatefulSet', s.metadata, s.spec?.template);
  return out;
}
