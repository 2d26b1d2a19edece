import 'server-only';
import { diffDigests, type Drift } from '@/lib/compliance/drift';
import { driftDigestOf } from '@/lib/compliance/drift-digest';
import { isSnapshotError } from '@/lib/k8s/snapshot-error';
import { ApiError } from '@/server/http/api-errors';
import { DRIFT_DIGEST_VERSION, encodeDriftDigest, storedDriftDigest } from '@/server/sources/bundle-drift-digest';
import {
  getSnapshotBundle,
  getSnapshotRecord,
  listSnapshots,
  saveSnapshotPieces,
  saveSnapshotDigest,
  type SnapshotRecord,
} from '@/server/compliance/snapshot-store';
import { makeBundle } from '@/server/compliance/write-bundle';
import { getAnalysis } from './get-report';

/**
 * Bundles the current source (its cached report, so the bundle matches what the pages show) and
 * stores it as it is rendered, never whole in memory; its drift digest is kept beside it.
 */
export async function takeSnapshot(): Promise<SnapshotRecord> {
  const { state, report } = await getAnalysis();
  const bundle = await makeBundle(state, { report });
  const record = saveSnapshotPieces(bundle.pieces(), ({ manifest, fingerprint }) => ({
    takenAt: manifest.createdAt,
    sourceKind: report.source.kind,
    sourceName: report.source.name,
    fingerprint,
    summary: report.summary,
    findings: report.findings.length,
  }));
  // Comparing it later reads this (a few MiB) instead of its bundle.
  saveSnapshotDigest(record.id, DRIFT_DIGEST_VERSION, encodeDriftDigest(driftDigestOf(report, state)));
  return record;
}

export function snapshotHistory(): SnapshotRecord[] {
  return listSnapshots();
}

export function storedBundle(id: string): { record: SnapshotRecord; bytes: Uint8Array } {
  const record = getSnapshotRecord(id);
  const bytes = record ? getSnapshotBundle(id) : undefined;
  if (!record || !bytes) throw new ApiError('not_found', `no stored snapshot "${id}"`);
  return { record, bytes };
}

export function snapshotDrift(fromId: string, toId: string): Drift {
  const side = (id: string) => {
    const record = getSnapshotRecord(id);
    let digest;
    try {
      digest = record ? storedDriftDigest(id) : undefined;
    } catch (e) {
      if (isSnapshotError(e)) throw new ApiError('invalid_snapshot', `stored snapshot ${e.message}`);
      throw e;
    }
    if (!record || !digest) throw new ApiError('not_found', `no stored snapshot "${id}"`);
    return { digest, label: `${id} (${record.takenAt})` };
  };
  return diffDigests(side(fromId), side(toId));
}
