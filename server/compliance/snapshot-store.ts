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
    // A large cluster's bundle (634 MiB measured) is past what SQLite binds as one value ("The bound
    // string, buffer, or bigint is too big"): bundles are kept in pieces here, `bundle` stays empty.
    `CREATE TABLE snapshot_chunks (
       id TEXT NOT NULL,
       seq INTEGER NOT NULL,
       data BLOB NOT NULL,
       PRIMARY KEY (id, seq)
     )`,
  ],
} as const;

/** Well under SQLite's one-value limit (1e9 bytes by default), big enough to keep the row count low. */
export const SNAPSHOT_CHUNK_BYTES = 64 * 1024 * 1024;

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

export function saveSnapshot(record: Omit<SnapshotRecord, 'id' | 'size'>, bundle: Uint8Array, chunkBytes = SNAPSHOT_CHUNK_BYTES): SnapshotRecord {
  const full: SnapshotRecord = { ...record, id: snapshotId(record.fingerprint), size: bundle.byteLength };
  // One transaction: a snapshot is kept whole or not at all.
  store().write((db) => {
    db.prepare(
      `INSERT OR REPLACE INTO snapshots (id, taken_at, source_kind, source_name, fingerprint, summary, findings, size, bundle)
       VALUES (@id, @takenAt, @sourceKind, @sourceName, @fingerprint, @summary, @findings, @size, x'')`,
    ).run({ ...full, summary: JSON.stringify(full.summary) });
    db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(full.id);
    const insert = db.prepare('INSERT INTO snapshot_chunks (id, seq, data) VALUES (?, ?, ?)');
    for (let at = 0, seq = 0; at < bundle.byteLength || seq === 0; at += chunkBytes, seq++) {
      const piece = bundle.subarray(at, Math.min(at + chunkBytes, bundle.byteLength));
      insert.run(full.id, seq, Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    }
  });
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
  return store().read((db) => {
    const row = db.prepare('SELECT bundle, size FROM snapshots WHERE id = ?').get(id) as { bundle: Buffer; size: number } | undefined;
    if (!row) return undefined;
    const chunks = db.prepare('SELECT data FROM snapshot_chunks WHERE id = ? ORDER BY seq').all(id) as { data: Buffer }[];
    // Snapshots kept before the pieces table have their bytes in `bundle`.
    if (chunks.length === 0) return new Uint8Array(row.bundle.buffer, row.bundle.byteOffset, row.bundle.byteLength);
    const out = new Uint8Array(row.size);
    let at = 0;
    for (const { data } of chunks) {
      out.set(data, at);
      at += data.byteLength;
    }
    if (at !== row.size) throw new Error(`snapshot ${id}: the store holds ${at} of its ${row.size} bytes`);
    return out;
  });
}
