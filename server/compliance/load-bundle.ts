import 'server-only';
import { ENTRY, type BundleMetadata } from '@/lib/compliance/bundle-format';
import { describeProblems } from '@/lib/compliance/verify-bundle';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';
import { parseDocuments } from '@/server/sources/parse-documents';
import { verifyBundleBytes } from './read-bundle';

/**
 * An exported bundle as a snapshot source: it must verify (a damaged or altered bundle is refused,
 * naming what changed), then objects.json is read with the ordinary snapshot parser and the
 * source's own warnings are restored, so the report equals the exported one.
 */
export function loadBundleState(bytes: Uint8Array, fileName: string): ClusterState {
  const result = verifyBundleBytes(bytes);
  if (!result.ok) {
    const lines = describeProblems(result.problems);
    throw new SnapshotError(`bundle does not verify: ${lines.slice(0, 3).join('; ')}${lines.length > 3 ? ` (and ${lines.length - 3} more)` : ''}`, { file: fileName });
  }
  const objects = result.entries.get(ENTRY.objects)!;
  let metadata: BundleMetadata;
  try {
    metadata = JSON.parse(new TextDecoder().decode(result.entries.get(ENTRY.metadata)!)) as BundleMetadata;
  } catch {
    throw new SnapshotError('metadata.json is not valid JSON', { file: fileName });
  }
  const items = parseDocuments(objects, `${fileName}:${ENTRY.objects}`, 'json');
  const state = buildClusterState(items, { kind: 'snapshot', name: fileName }, { onInvalid: 'fail' });
  state.source.name = fileName;
  if (Array.isArray(metadata.sourceWarnings)) state.warnings.unshift(...metadata.sourceWarnings.filter((w): w is string => typeof w === 'string'));
  return state;
}
