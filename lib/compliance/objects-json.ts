import { CLUSTER_INFO_API_VERSION, CLUSTER_INFO_KIND } from '@/lib/k8s/build-cluster-state';
import type { ClusterCollectionKey, ClusterState } from '@/lib/k8s/cluster-state';
import { KINDS } from '@/lib/k8s/kinds';

// objects.json: the normalised objects a report was computed from, as a `kind: List` (what
// `kubectl get -o json` writes, so the snapshot loader and other tools read it) led by a ClusterInfo
// item carrying the source's name, version and collection time. ClusterState never holds Secrets,
// and normalisation has already dropped env values, ConfigMap data and managedFields.

export function objectCounts(state: ClusterState): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of KINDS) counts[k.kind] = (state[k.collection] as unknown[]).length;
  return counts;
}

export function* objectsJsonChunks(state: ClusterState, chunkChars = 1 << 20): Generator<string> {
  const info: Record<string, string> = { apiVersion: CLUSTER_INFO_API_VERSION, kind: CLUSTER_INFO_KIND, name: state.source.name };
  if (state.source.kubernetesVersion !== undefined) info.kubernetesVersion = state.source.kubernetesVersion;
  if (state.source.collectedAt !== undefined) info.collectedAt = state.source.collectedAt;
  let buffer = `{"apiVersion":"v1","kind":"List","items":[\n${JSON.stringify(info)}`;
  const seen = new Set<ClusterCollectionKey>();
  for (const k of KINDS) {
    if (seen.has(k.collection)) continue;
    seen.add(k.collection);
    for (const object of state[k.collection] as unknown[]) {
      buffer += `,\n${JSON.stringify(object)}`;
      if (buffer.length >= chunkChars) {
        yield buffer;
        buffer = '';
      }
    }
  }
  yield `${buffer}\n]}\n`;
}
