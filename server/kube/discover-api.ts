import 'server-only';
import type { KubeHttp } from './kube-http';
import { KubeError } from './kube-errors';

export const DRA_GROUP = 'resource.k8s.io';
const DRA_PREFERENCE = ['v1', 'v1beta2', 'v1beta1'];

export interface ApiDiscovery {
  kubernetesVersion?: string;
  /** The resource.k8s.io version read, or undefined when the group is not served. */
  draVersion?: string;
  /** Versions of resource.k8s.io the server serves, for the "not served" explanation. */
  draServedVersions: string[];
  warnings: string[];
}

/**
 * Asks the server its version and which resource.k8s.io version to read (v1, then v1beta2, then
 * v1beta1), both at once. `dra: false` (a question that reads no DRA kind) skips the group.
 */
export async function discoverApi(http: KubeHttp, options: { dra?: boolean } = {}): Promise<ApiDiscovery> {
  const warnings: string[] = [];
  const [version, group] = await Promise.allSettled([
    http.get<{ gitVersion?: string }>('/version'),
    options.dra === false ? Promise.resolve(undefined) : http.get<{ versions?: { version: string }[] }>(`/apis/${DRA_GROUP}`),
  ]);
  const fatal = (e: unknown) => ['unauthorized', 'unreachable', 'untrusted_server'].includes((e as KubeError).code);
  if (version.status === 'rejected' && fatal(version.reason)) throw version.reason;
  if (group.status === 'rejected' && fatal(group.reason)) throw group.reason;
  let kubernetesVersion: string | undefined;
  if (version.status === 'fulfilled') kubernetesVersion = version.value.body.gitVersion;
  else warnings.push(`cannot read the server version (${(version.reason as Error).message}); assuming 1.36 defaults`);
  if (options.dra === false) return { kubernetesVersion, draVersion: undefined, draServedVersions: [], warnings };
  let served: string[] = [];
  let discoveryError: string | undefined;
  if (group.status === 'fulfilled') served = (group.value?.body.versions ?? []).map((v) => v.version);
  // A group that cannot be discovered (forbidden, 5xx) must not take the other panels down with it.
  else if ((group.reason as KubeError).code !== 'not_found') discoveryError = (group.reason as Error).message;
  const draVersion = DRA_PREFERENCE.find((v) => served.includes(v));
  if (discoveryError) {
    warnings.push(`cannot discover resource.k8s.io (${discoveryError}): DRA views are empty`);
  } else if (!draVersion) {
    warnings.push(
      served.length === 0
        ? 'resource.k8s.io is not served by this cluster: DRA views are empty (Dynamic Resource Allocation needs Kubernetes 1.34+, or beta APIs enabled on 1.32/1.33)'
        : `resource.k8s.io is served only as ${served.join(', ')}, which dra-posture does not read: DRA views are empty`,
    );
  } else if (draVersion !== 'v1') {
    warnings.push(`resource.k8s.io is read as ${draVersion} (v1 is not served) and normalised to v1`);
  }
  return { kubernetesVersion, draVersion, draServedVersions: served, warnings };
}
