import 'server-only';
import { computeDrift, type Drift } from '@/lib/compliance/drift';
import { isSnapshotError } from '@/lib/k8s/snapshot-error';
import { ApiError } from '@/server/http/api-errors';
import { openBundle } from '@/server/sources/bundle-source';
import { getSnapshotBundle, getSnapshotRecord, listSnapshots, saveSnapshot, type SnapshotRecord } from '@/server/compliance/snapshot-store';
import { bundleToBytes, makeBundle } from '@/server/compliance/write-bundle';
import { getAnalysis } from './get-report';

/** Bundles the current source (its cached report, so the bundle matches what the pages show) and stores it. */
export async function takeSnapshot(): Promise<SnapshotRecord> {
  const { state, report } = await getAnalysis();
  const { bytes, manifest, fingerprint } = bundleToBytes(await makeBundle(state, { report }));
  return saveSnapshot(
    {
      takenAt: manifest.createdAt,
      sourceKind: report.source.kind,
      sourceName: report.source.name,
      fingerprint,
      summary: report.summary,
      findings: report.findings.length,
    },
    bytes,
  );
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
    const { record, bytes } = storedBundle(id);
    let opened;
    try {
      opened = openBundle(bytes, id);
    } catch (e) {
      if (isSnapshotError(e)) throw new ApiError('invalid_snapshot', `stored snapshot ${e.message}`);
      throw e;
    }
    return { report: opened.report, state: opened.state, label: `${id} (${record.takenAt})` };
  };
  return computeDrift(side(fromId), side(toId));
}
