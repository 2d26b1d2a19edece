import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/refs';
import type { KubeObject } from '@/lib/k8s/types';
import { sha256Hex } from './sha256';

/**
 * A stable digest of what the cluster source holds: the source's identity plus every object's
 * kind/namespace/name, uid and resourceVersion. Any create, update or delete changes it; reloading
 * the same snapshot does not. Recorded with an approval to tell which cluster it was made against.
 * `hash` is SHA-256 as lower-case hex: the server passes node:crypto's, which digests the tens of
 * megabytes of a large cluster's lines many times faster than the plain TypeScript one (same digest).
 */
export function sourceFingerprint(state: ClusterState, hash: (text: string) => string = sha256Hex): string {
  const lines: string[] = [];
  for (const [collection, value] of Object.entries(state)) {
    if (!Array.isArray(value) || collection === 'warnings') continue;
    for (const o of value as KubeObject[])
      lines.push(`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name} ${o.metadata.uid ?? ''} ${o.metadata.resourceVersion ?? ''}`);
  }
  lines.sort(compareStrings);
  const { kind, name, kubernetesVersion } = state.source;
  return hash([`${kind}\u001f${name}\u001f${kubernetesVersion ?? ''}`, ...lines].join('\n'));
}
