import 'server-only';
import type Database from 'better-sqlite3';
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
    // Where the snapshot's pieces are kept when not under its id: renaming 700 MiB of pieces to the
    // id (known only once the bundle is written) rewrote every row, a seconds-long stall of the server.
    'ALTER TABLE snapshots ADD COLUMN chunks_id TEXT',
  ],
} as const;

/** Well under SQLite's one-value limit (1e9 bytes by default), big enough to keep the row count low. */
export const SNAPSHOT_CHUNK_BYTES = 64 * 1024 * 1024;

/** Pieces are stored under `pending-PID-…` until their snapshot is committed (and after, for saveSnapshotPiecesInTurns). */
const PENDING_PREFIX = 'pending-';

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
 * Cuts pieces of any size into chunks of `chunkBytes` and hands each full chunk to `write`; `end`
 * writes the last (an empty one when nothing came, so every bundle has a chunk) and returns the size.
 */
function chunkWriter(chunkBytes: number, write: (data: Buffer) => void) {
  let size = 0;
  let written = 0;
  let chunk = Buffer.allocUnsafe(chunkBytes);
  let filled = 0;
  const flush = () => {
    write(chunk.subarray(0, filled));
    written++;
    chunk = Buffer.allocUnsafe(chunkBytes);
    filled = 0;
  };
  return {
    push(piece: Uint8Array) {
      size += piece.byteLength;
      for (let at = 0; at < piece.byteLength;) {
        const n = Math.min(chunkBytes - filled, piece.byteLength - at);
        chunk.set(piece.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === chunkBytes) flush();
      }
    },
    size: () => size,
    end(): number {
      if (filled > 0 || written === 0) flush();
      return size;
    },
  };
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
    const pending = `${PENDING_PREFIX}${process.pid}-${Date.now()}`;
    const insert = db.prepare('INSERT INTO snapshot_chunks (id, seq, data) VALUES (?, ?, ?)');
    let seq = 0;
    const chunks = chunkWriter(chunkBytes, (data) => insert.run(pending, seq++, data));
    let next = pieces.next();
    for (; !next.done; next = pieces.next()) chunks.push(next.value);
    const size = chunks.end();
    const full: SnapshotRecord = { ...recordOf(next.value), id: '', size };
    full.id = snapshotId(full.fingerprint);
    dropStoredUnder(db, full.id);
    db.prepare(
      `INSERT OR REPLACE INTO snapshots (id, taken_at, source_kind, source_name, fingerprint, summary, findings, size, bundle)
       VALUES (@id, @takenAt, @sourceKind, @sourceName, @fingerprint, @summary, @findings, @size, x'')`,
    ).run({ ...full, summary: JSON.stringify(full.summary) });
    db.prepare('UPDATE snapshot_chunks SET id = ? WHERE id = ?').run(full.id, pending);
    return full;
  });
}

export interface SnapshotSaveProgress {
  /** Bytes of the bundle stored so far. */
  bytes: number;
}

/** Pieces a process left under a pending name when it stopped mid-take (no snapshot row names them). */
export function deleteAbandonedChunks(isAlive: (pid: number) => boolean): number {
  return store().write((db) => {
    const ids = (
      db
        .prepare(
          `SELECT DISTINCT id FROM snapshot_chunks WHERE id LIKE '${PENDING_PREFIX}%' AND id NOT IN (SELECT chunks_id FROM snapshots WHERE chunks_id IS NOT NULL)`,
        )
        .all() as { id: string }[]
    ).map((r) => r.id);
    let deleted = 0;
    for (const id of ids) {
      const pid = Number(id.slice(PENDING_PREFIX.length).split('-')[0]);
      if (Number.isInteger(pid) && isAlive(pid)) continue;
      deleted += db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(id).changes;
    }
    return deleted;
  });
}

/**
 * saveSnapshotPieces for a server that keeps answering while a large bundle is stored: the pieces are
 * kept 64 MiB at a time under a pending name, giving the event loop a turn between pieces, and the
 * snapshot (its row, its pieces renamed to its id, its drift digest) is committed in one last
 * transaction. Until then no snapshot names the pieces, so a failure or a crash leaves no snapshot,
 * only pieces deleteAbandonedChunks removes.
 */
export async function saveSnapshotPiecesInTurns<R>(
  pieces: Iterator<Uint8Array, R>,
  recordOf: (done: R) => Omit<SnapshotRecord, 'id' | 'size'>,
  options: {
    /** Made once the pieces are stored, committed with them (encoding a large digest is work of its own). */
    digest?: () => Promise<{ version: number; bytes: Uint8Array }>;
    onProgress?: (progress: SnapshotSaveProgress) => void;
    /** Longest run of work between two turns of the event loop. */
    turnMs?: number;
    chunkBytes?: number;
  } = {},
): Promise<SnapshotRecord> {
  // Smaller pieces than the synchronous save's: each insert is a stall of its own.
  const chunkBytes = options.chunkBytes ?? SNAPSHOT_CHUNK_BYTES / 4;
  const turnMs = options.turnMs ?? 20;
  const pending = `${PENDING_PREFIX}${process.pid}-${Date.now()}-${Math.random().toString(16).slice(2, 10)}`;
  let seq = 0;
  const chunks = chunkWriter(chunkBytes, (data) => {
    const at = seq++;
    store().write((db) => db.prepare('INSERT INTO snapshot_chunks (id, seq, data) VALUES (?, ?, ?)').run(pending, at, data));
  });
  let turnStart = performance.now();
  try {
    let next = pieces.next();
    for (; !next.done; next = pieces.next()) {
      chunks.push(next.value);
      if (performance.now() - turnStart >= turnMs) {
        options.onProgress?.({ bytes: chunks.size() });
        await new Promise((r) => setImmediate(r));
        turnStart = performance.now();
      }
    }
    const size = chunks.end();
    const full: SnapshotRecord = { ...recordOf(next.value), id: '', size };
    full.id = snapshotId(full.fingerprint);
    options.onProgress?.({ bytes: size });
    const digest = await options.digest?.();
    return store().write((db) => {
      dropStoredUnder(db, full.id);
      // The pieces stay where they were written: the row names them (chunks_id).
      db.prepare(
        `INSERT OR REPLACE INTO snapshots (id, taken_at, source_kind, source_name, fingerprint, summary, findings, size, bundle, chunks_id)
         VALUES (@id, @takenAt, @sourceKind, @sourceName, @fingerprint, @summary, @findings, @size, x'', @chunksId)`,
      ).run({ ...full, summary: JSON.stringify(full.summary), chunksId: pending });
      if (digest)
        db.prepare('INSERT INTO snapshot_digests (id, version, digest) VALUES (?, ?, ?)').run(
          full.id,
          digest.version,
          Buffer.from(digest.bytes.buffer, digest.bytes.byteOffset, digest.bytes.byteLength),
        );
      return full;
    });
  } catch (e) {
    try {
      store().write((db) => db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(pending));
    } catch {
      // The first error is the one to report; deleteAbandonedChunks removes these later.
    }
    throw e;
  }
}

/** Deletes the pieces and digest a snapshot stored under this id held (it is being kept again). */
function dropStoredUnder(db: Database.Database, id: string): void {
  const old = db.prepare('SELECT chunks_id FROM snapshots WHERE id = ?').get(id) as { chunks_id: string | null } | undefined;
  if (old?.chunks_id) db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(old.chunks_id);
  db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(id);
  // A digest of what was stored under this id before would not describe these bytes.
  db.prepare('DELETE FROM snapshot_digests WHERE id = ?').run(id);
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
    const row = db.prepare('SELECT bundle, size, chunks_id FROM snapshots WHERE id = ?').get(id) as
      { bundle: Buffer; size: number; chunks_id: string | null } | undefined;
    if (!row) return undefined;
    const chunks = db.prepare('SELECT data FROM snapshot_chunks WHERE id = ? ORDER BY seq').all(row.chunks_id ?? id) as { data: Buffer }[];
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
