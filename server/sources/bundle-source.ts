import 'server-only';
import { ENTRY, type BundleMetadata, type Manifest } from '@/lib/compliance/bundle-format';
import { BundleReportError, parseBundleReport } from '@/lib/compliance/bundle-report';
import { describeProblems } from '@/lib/compliance/verify-bundle';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { SnapshotError } from '@/lib/k8s/snapshot-error';
import type { Report } from '@/lib/analysis/types';
import { parseDocuments } from './parse-documents';
import { verifyBundleBytes } from '@/server/compliance/read-bundle';

export interface OpenedBundle {
  state: ClusterState;
  /** The report as exported (report.json, expanded). */
  report: Report;
  metadata: BundleMetadata;
  manifest: Manifest;
  fingerprint: string;
}

function parseJsonEntry<T>(bytes: Uint8Array, entry: string, fileName: string): T {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  } catch {
    throw new SnapshotError(`${entry} is not valid JSON`, { file: fileName });
  }
}

/**
 * A verified bundle's parts. A damaged or altered bundle is refused, naming what changed; then
 * objects.json is read with the ordinary snapshot parser and the source's own warnings are
 * restored, so a report computed from the state equals the exported one.
 */
export function openBundle(bytes: Uint8Array, fileName: string): OpenedBundle {
  const verified = verifiedBundle(bytes, fileName);
  const { metadata, report } = verified;
  const items = parseDocuments(verified.entries.get(ENTRY.objects)!, `${fileName}:${ENTRY.objects}`, 'json');
  const state = buildClusterState(items, { kind: 'snapshot', name: fileName }, { onInvalid: 'fail' });
  state.source.name = fileName;
  if (Array.isArray(metadata.sourceWarnings))
    state.warnings = [...metadata.sourceWarnings.filter((w): w is string => typeof w === 'string'), ...state.warnings];
  return { state, report, metadata, manifest: verified.manifest, fingerprint: verified.fingerprint };
}

/** A bundle that verifies, with its metadata and report read; a damaged or altered one is refused, naming what changed. */
export function verifiedBundle(bytes: Uint8Array, fileName: string): Omit<OpenedBundle, 'state'> & { entries: ReadonlyMap<string, Uint8Array> } {
  const result = verifyBundleBytes(bytes);
  if (!result.ok) {
    const lines = describeProblems(result.problems);
    throw new SnapshotError(`bundle does not verify: ${lines.slice(0, 3).join('; ')}${lines.length > 3 ? ` (and ${lines.length - 3} more)` : ''}`, {
      file: fileName,
    });
  }
  const metadata = parseJsonEntry<BundleMetadata>(result.entries.get(ENTRY.metadata)!, ENTRY.metadata, fileName);
  let report: Report;
  try {
    report = parseBundleReport(parseJsonEntry<unknown>(result.entries.get(ENTRY.report)!, ENTRY.report, fileName));
  } catch (e) {
    if (e instanceof BundleReportError) throw new SnapshotError(e.message, { file: fileName });
    throw e;
  }
  return { entries: result.entries, report, metadata, manifest: result.manifest!, fingerprint: result.fingerprint! };
}

/** An exported bundle as a snapshot source. */
export function loadBundleState(bytes: Uint8Array, fileName: string): ClusterState {
  return openBundle(bytes, fileName).state;
}
