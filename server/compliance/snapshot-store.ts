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
    // What drift compares of each snapshot (drift-digest.ts), gzipped JSON: comparing two large
    // snapshots reads these, not 600 MiB bundles. A snapshot without one is read from its bundle.
    `CREATE TABLE snapshot_digests (
       id TEXT PRIMARY KEY,
       version INTEGER NOT NULL,
       digest BLOB NOT NULL
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
  return saveSnapshotPieces(
    (function* () {
      yield bundle;
    })(),
    () => record,
    chunkBytes,
  );
}

/**
 * Keeps a bundle as its pieces come (bundlePieces), 64 MiB at a time, so the whole bundle is never
 * in memory; the record is made from what the generator returns at the end (the fingerprint that
 * names the snapshot is known only then). One transaction: kept whole or not at all.
 */
export function saveSnapshotPieces<R>(
  pieces: Iterator<Uint8Array, R>,
  recordOf: (done: R) => Omit<SnapshotRecord, 'id' | 'size'>,
  chunkBytes = SNAPSHOT_CHUNK_BYTES,
): SnapshotRecord {
  return store().write((db) => {
    // Pieces go under a name no snapshot id has until the fingerprint is known.
    const pending = `pending-${process.pid}-${Date.now()}`;
    const insert = db.prepare('INSERT INTO snapshot_chunks (id, seq, data) VALUES (?, ?, ?)');
    let seq = 0;
    let size = 0;
    let chunk = Buffer.allocUnsafe(chunkBytes);
    let filled = 0;
    const flush = () => {
      insert.run(pending, seq++, chunk.subarray(0, filled));
      chunk = Buffer.allocUnsafe(chunkBytes);
      filled = 0;
    };
    let next = pieces.next();
    for (; !next.done; next = pieces.next()) {
      const piece = next.value;
      size += piece.byteLength;
      for (let at = 0; at < piece.byteLength;) {
        const n = Math.min(chunkBytes - filled, piece.byteLength - at);
        chunk.set(piece.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === chunkBytes) flush();
      }
    }
    if (filled > 0 || seq === 0) flush();
    const full: SnapshotRecord = { ...recordOf(next.value), id: '', size };
    full.id = snapshotId(full.fingerprint);
    db.prepare(
      `INSERT OR REPLACE INTO snapshots (id, taken_at, source_kind, source_name, fingerprint, summary, findings, size, bundle)
       VALUES (@id, @takenAt, @sourceKind, @sourceName, @fingerprint, @summary, @findings, @size, x'')`,
    ).run({ ...full, summary: JSON.stringify(full.summary) });
    db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(full.id);
    // A digest of what was stored under this id before would not describe these bytes.
    db.prepare('DELETE FROM snapshot_digests WHERE id = ?').run(full.id);
    db.prepare('UPDATE snapshot_chunks SET id = ? WHERE id = ?').run(full.id, pending);
    return full;
  });
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

/** Keeps a snapshot's drift digest (encoded by bundle-drift-digest.ts) beside its bundle. */
export function saveSnapshotDigest(id: string, version: number, digest: Uint8Array): void {
  store().write((db) => {
    if (!db.prepare('SELECT 1 FROM snapshots WHERE id = ?').get(id)) throw new Error(`no stored snapshot ${id}`);
    db.prepare('INSERT OR REPLACE INTO snapshot_digests (id, version, digest) VALUES (?, ?, ?)').run(
      id,
      version,
      Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength),
    );
  });
}

/** The snapshot's stored drift digest of this version, if any. */
export function getSnapshotDigest(id: string, version: number): Uint8Array | undefined {
  const row = store().read(
    (db) => db.prepare('SELECT digest FROM snapshot_digests WHERE id = ? AND version = ?').get(id, version) as { digest: Buffer } | undefined,
  );
  return row ? new Uint8Array(row.digest.buffer, row.digest.byteOffset, row.digest.byteLength) : undefined;
}
