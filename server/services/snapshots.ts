import 'server-only';
import { diffDigests, type Drift } from '@/lib/compliance/drift';
import { TAKE_ID } from '@/lib/compliance/snapshot-api';
import { isSnapshotError } from '@/lib/k8s/snapshot-error';
import { ApiError } from '@/server/http/api-errors';
import { storedDriftDigest } from '@/server/sources/bundle-drift-digest';
import { getSnapshotBundle, getSnapshotRecord, listSnapshots, type SnapshotRecord } from '@/server/compliance/snapshot-store';
import { recentStoredDigest, snapshotTake, startSnapshotTake } from './snapshot-takes';

/**
 * Bundles the current source (its cached report, so the bundle matches what the pages show) and
 * stores it as it is rendered, never whole in memory, with its drift digest; resolves once stored.
 * The dashboard does not wait for this (startSnapshotTake).
 */
export async function takeSnapshot(): Promise<SnapshotRecord> {
  return (await startSnapshotTake()).done;
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

type DriftSide = Parameters<typeof diffDigests>[0];

function storedSide(id: string): DriftSide {
  const record = getSnapshotRecord(id);
  if (!record) throw new ApiError('not_found', `no stored snapshot "${id}"`);
  let digest;
  try {
    digest = recentStoredDigest(id, () => {
      const d = storedDriftDigest(id);
      if (!d) throw new ApiError('not_found', `no stored snapshot "${id}"`);
      return d;
    });
  } catch (e) {
    if (isSnapshotError(e)) throw new ApiError('invalid_snapshot', `stored snapshot ${e.message}`);
    throw e;
  }
  return { digest, label: `${id} (${record.takenAt})` };
}

/** A snapshot being taken compares by the digest it was started with, once stored as the snapshot. */
function takeSide(id: string): DriftSide {
  const found = snapshotTake(id);
  if (!found) throw new ApiError('not_found', `no snapshot is being taken as "${id}"`);
  const { take, digest } = found;
  if (take.status === 'failed') throw new ApiError('not_found', `snapshot ${id} was not taken: ${take.error}`);
  if (take.storedId) return storedSide(take.storedId);
  return { digest: digest!, label: `${id} (${take.takenAt}, bundle still being stored)` };
}

/** Drift between two snapshots, stored (`snap-…`) or being taken (`take-…`). */
export function snapshotDrift(fromId: string, toId: string): Drift {
  const side = (id: string) => (TAKE_ID.test(id) ? takeSide(id) : storedSide(id));
  return diffDigests(side(fromId), side(toId));
}
