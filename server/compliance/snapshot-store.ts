import 'server-only';
import type { SnapshotRecord } from '@/lib/compliance/snapshot-api';
import { getStore } from '@/server/store/get-store';

export type { SnapshotRecord };

// Snapshot history in the embedded store: the bundle's bytes as written (so a stored snapshot
// verifies and exports byte for byte) plus what the history list shows without opening it.

export const SNAPSHOTS_FEATURE = {
  name: 'snapshots',
  migrations: [
    `CREATE TABLE snapshots (
       id TEXT PRIMARY KEY,
       taken_at TEXT NOT NULL,
       source_kind TEXT NOT NULL,
       source_name TEXT NOT NULL,
       fingerprint TEXT NOT NULL,
       summary TEXT NOT NULL,
       findings INTEGER NOT NULL,
       size INTEGER NOT NULL,
       bundle BLOB NOT NULL
     )`,
    'CREATE INDEX snapshots_taken_at ON snapshots (taken_at)',
  ],
} as const;

interface Row {
  id: string;
  taken_at: string;
  source_kind: string;
  source_name: string;
  fingerprint: string;
  summary: string;
  findings: number;
  size: number;
}

const toRecord = (r: Row): SnapshotRecord => ({
  id: r.id,
  takenAt: r.taken_at,
  sourceKind: r.source_kind,
  sourceName: r.source_name,
  fingerprint: r.fingerprint,
  summary: JSON.parse(r.summary),
  findings: r.findings,
  size: r.size,
});

const store = () => getStore(SNAPSHOTS_FEATURE);

export const SNAPSHOT_ID = /^snap-[0-9a-f]{12}$/;

export function snapshotId(fingerprint: string): string {
  return `snap-${fingerprint.slice(0, 12)}`;
}

export function saveSnapshot(record: Omit<SnapshotRecord, 'id' | 'size'>, bundle: Uint8Array): SnapshotRecord {
  const full: SnapshotRecord = { ...record, id: snapshotId(record.fingerprint), size: bundle.byteLength };
  store().write((db) =>
    db
      .prepare(
        `INSERT OR REPLACE INTO snapshots (id, taken_at, source_kind, source_name, fingerprint, summary, findings, size, bundle)
         VALUES (@id, @takenAt, @sourceKind, @sourceName, @fingerprint, @summary, @findings, @size, @bundle)`,
      )
      .run({ ...full, summary: JSON.stringify(full.summary), bundle: Buffer.from(bundle.buffer, bundle.byteOffset, bundle.byteLength) }),
  );
  return full;
}

/** Newest first. */
export function listSnapshots(limit = 200): SnapshotRecord[] {
  return store().read((db) =>
    (
      db
        .prepare('SELECT id, taken_at, source_kind, source_name, fingerprint, summary, findings, size FROM snapshots ORDER BY taken_at DESC, id LIMIT ?')
        .all(limit) as Row[]
    ).map(toRecord),
  );
}

export function getSnapshotRecord(id: string): SnapshotRecord | undefined {
  const row = store().read(
    (db) =>
      db.prepare('SELECT id, taken_at, source_kind, source_name, fingerprint, summary, findings, size FROM snapshots WHERE id = ?').get(id) as Row | undefined,
  );
  return row ? toRecord(row) : undefined;
}

export function getSnapshotBundle(id: string): Uint8Array | undefined {
  const row = store().read((db) => db.prepare('SELECT bundle FROM snapshots WHERE id = ?').get(id) as { bundle: Buffer } | undefined);
  return row ? new Uint8Array(row.bundle.buffer, row.bundle.byteOffset, row.bundle.byteLength) : undefined;
}
