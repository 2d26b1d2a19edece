import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, pod, SA, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Container, DaemonSet, Namespace, Pod, PodSpec, ResourceClaim, ResourceClaimTemplate, ServiceAccount } from '@/lib/k8s/types';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import { DEFAULT_SETTINGS, type AnalysisSettings } from '@/lib/analysis/settings';

// Builders for analysis fixtures, on top of the authz builders (stateOf, clusterRole, crb, rb, pod, SA...).

export function namespace(name: string, labels?: Record<string, string>): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: labels ? { name, labels } : { name } };
}

export function serviceAccount(ns: string, name: string): ServiceAccount {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } };
}

export const PLUGIN_VOLUMES: PodSpec['volumes'] = [
  { name: 'plugins-registry', hostPath: { path: '/var/lib/kubelet/plugins_registry' } },
  { name: 'plugins', hostPath: { path: '/var/lib/kubelet/plugins' } },
];
export const PLUGIN_MOUNTS: Container['volumeMounts'] = [
  { name: 'plugins-registry', mountPath: '/var/lib/kubelet/plugins_registry' },
  { name: 'plugins', mountPath: '/var/lib/kubelet/plugins' },
];

/** A pod owned by a DaemonSet (controller ownerReference). */
export function dsPod(ns: string, dsName: string, suffix: string, spec: Partial<PodSpec>): Pod {
  const p = pod(ns, `${dsName}-${suffix}`, spec);
  p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: dsName, controller: true }];
  return p;
}

/** A DRA kubelet-plugin pod: mounts both plugin directories, runs as `sa`, on `nodeName`. */
export function pluginPod(
  ns: string,
  dsName: string,
  suffix: string,
  sa: string,
  nodeName: string,
  container: Partial<Container> = {},
  extra: Partial<PodSpec> = {},
): Pod {
  return dsPod(ns, dsName, suffix, {
    nodeName,
    serviceAccountName: sa,
    volumes: [...PLUGIN_VOLUMES!, ...(extra.volumes ?? [])],
    containers: [{ name: 'plugin', volumeMounts: [...PLUGIN_MOUNTS!, ...(container.volumeMounts ?? [])], ...withoutMounts(container) }],
    ...withoutVolumes(extra),
  });
}

function withoutMounts(c: Partial<Container>): Partial<Container> {
  const { volumeMounts: _m, ...rest } = c;
  return rest;
}

function withoutVolumes(s: Partial<PodSpec>): Partial<PodSpec> {
  const { volumes: _v, ...rest } = s;
  return rest;
}

export function daemonSet(ns: string, name: string, spec: Partial<PodSpec>): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: ns },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c' }], ...spec } } },
  };
}

/** ClusterRole + ClusterRoleBinding letting `ns/sa` write ResourceSlices (what makes a plugin pod a driver pod). */
export function sliceWriter(ns: string, sa: string) {
  return {
    clusterRole: clusterRole(`${sa}-slices`, [
      { verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] },
    ]),
    binding: crb(`${sa}-slices`, { kind: 'ClusterRole', name: `${sa}-slices` }, [SA(ns, sa)]),
  };
}

export function claim(
  ns: string,
  name: string,
  requests: NonNullable<NonNullable<ResourceClaim['spec']['devices']>['requests']>,
  meta: Partial<ResourceClaim['metadata']> = {},
): ResourceClaim {
  return { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name, namespace: ns, ...meta }, spec: { devices: { requests } } };
}

export function claimTemplate(
  ns: string,
  name: string,
  requests: NonNullable<NonNullable<ResourceClaim['spec']['devices']>['requests']>,
): ResourceClaimTemplate {
  return { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name, namespace: ns }, spec: { spec: { devices: { requests } } } };
}

export function contextOf(
  parts: Partial<Omit<ClusterState, 'source' | 'warnings'>>,
  settings: AnalysisSettings = DEFAULT_SETTINGS,
  version?: string,
): AnalysisContext {
  const state = stateOf(parts, version);
  return buildAnalysisContext(state, createAuthzEngine(state), settings);
}
