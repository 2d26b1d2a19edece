import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeStores } from '@/server/store/get-store';
import {
  deleteAbandonedChunks,
  getSnapshotBundle,
  getSnapshotDigest,
  getSnapshotRecord,
  saveSnapshot,
  saveSnapshotDigest,
  saveSnapshotPieces,
  saveSnapshotPiecesInTurns,
} from './snapshot-store';

// Bundles are kept in pieces: a large cluster's bundle (634 MiB measured) is more than SQLite binds
// as one value, and "Take snapshot" failed with "The bound string, buffer, or bigint is too big".

const saved = process.env.DRA_POSTURE_STORE;
let dir: string;
let path: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dra-snapshot-store-'));
  path = join(dir, 'store.sqlite');
  process.env.DRA_POSTURE_STORE = path;
});
afterAll(() => {
  closeStores();
  if (saved === undefined) delete process.env.DRA_POSTURE_STORE;
  else process.env.DRA_POSTURE_STORE = saved;
  rmSync(dir, { recursive: true, force: true });
});

const record = (fingerprint: string) => ({
  takenAt: '2026-11-26T00:00:00.000Z',
  sourceKind: 'demo',
  sourceName: 'demo',
  fingerprint,
  summary: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  findings: 0,
});
const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
const pieces = (id: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM snapshot_chunks WHERE id = ?').get(id) as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('snapshot store', () => {
  it('keeps a bundle in pieces and gives back the same bytes', () => {
    const bundle = bytes(5_500, 1);
    const r = saveSnapshot(record('a'.repeat(64)), bundle, 1_000);
    expect(pieces(r.id)).toBe(6);
    expect(getSnapshotBundle(r.id)).toEqual(bundle);
  });

  it('keeps a bundle as its pieces come, named by what the pieces return at the end', () => {
    const parts = [bytes(700, 5), bytes(0, 0), bytes(2_650, 6), bytes(1, 7), bytes(999, 8)];
    function* bundle(): Generator<Uint8Array, string> {
      for (const p of parts) yield p;
      return 'd'.repeat(64);
    }
    const r = saveSnapshotPieces(bundle(), (fingerprint) => record(fingerprint), 1_000);
    expect(r).toMatchObject({ id: `snap-${'d'.repeat(12)}`, size: 4_350 });
    expect(pieces(r.id)).toBe(5);
    expect(getSnapshotBundle(r.id)).toEqual(Uint8Array.from(parts.flatMap((p) => [...p])));
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare("SELECT COUNT(*) AS n FROM snapshot_chunks WHERE id LIKE 'pending-%'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('keeps a drift digest per snapshot and version, dropped when the snapshot is kept again', () => {
    const r = saveSnapshot(record('e'.repeat(64)), bytes(10, 9));
    saveSnapshotDigest(r.id, 1, bytes(20, 1));
    expect(getSnapshotDigest(r.id, 1)).toEqual(bytes(20, 1));
    expect(getSnapshotDigest(r.id, 2)).toBeUndefined();
    saveSnapshot(record('e'.repeat(64)), bytes(10, 9));
    expect(getSnapshotDigest(r.id, 1)).toBeUndefined();
    expect(() => saveSnapshotDigest('snap-000000000000', 1, bytes(1, 1))).toThrow(/no stored snapshot/);
  });

  it('replaces every piece when the same snapshot is kept again, shorter', () => {
    const r = saveSnapshot(record('b'.repeat(64)), bytes(4_200, 2), 1_000);
    const shorter = bytes(1_500, 3);
    saveSnapshot(record('b'.repeat(64)), shorter, 1_000);
    expect(pieces(r.id)).toBe(2);
    expect(getSnapshotBundle(r.id)).toEqual(shorter);
  });

  it('reads snapshots kept before the pieces table, from their one value', () => {
    const r = saveSnapshot(record('c'.repeat(64)), bytes(10, 4));
    closeStores();
    const old = bytes(300, 5);
    const db = new Database(path);
    db.prepare('DELETE FROM snapshot_chunks WHERE id = ?').run(r.id);
    db.prepare('UPDATE snapshots SET bundle = ?, size = ? WHERE id = ?').run(Buffer.from(old), old.length, r.id);
    db.close();
    expect(getSnapshotBundle(r.id)).toEqual(old);
    expect(getSnapshotBundle('snap-000000000000')).toBeUndefined();
  });

  describe('stored while the server keeps answering (saveSnapshotPiecesInTurns)', () => {
    const pendingCount = () => {
      const db = new Database(path, { readonly: true });
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM snapshot_chunks WHERE id LIKE 'pending-%'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };

    it('commits the bundle and its digest together, giving the event loop turns on the way', async () => {
      const parts = Array.from({ length: 40 }, (_, i) => bytes(300, i));
      let busyUntil = 0;
      function* slow(): Generator<Uint8Array, string> {
        for (const p of parts) {
          // Each piece costs 5 ms of CPU, as rendering a large entry does.
          busyUntil = performance.now() + 5;
          while (performance.now() < busyUntil);
          yield p;
        }
        return 'f'.repeat(64);
      }
      let turns = 0;
      const timer = setInterval(() => turns++, 1);
      const progress: number[] = [];
      let seenMidway: ReturnType<typeof getSnapshotRecord> | 'unset' = 'unset';
      const saving = saveSnapshotPiecesInTurns(slow(), (fingerprint) => record(fingerprint), {
        chunkBytes: 1_000,
        turnMs: 10,
        digest: async () => ({ version: 1, bytes: bytes(50, 3) }),
        onProgress: ({ bytes: n }) => {
          progress.push(n);
          // Nothing is a snapshot before the last transaction.
          if (seenMidway === 'unset' && n > 3_000) seenMidway = getSnapshotRecord(`snap-${'f'.repeat(12)}`);
        },
      });
      const r = await saving;
      clearInterval(timer);
      expect(r).toMatchObject({ id: `snap-${'f'.repeat(12)}`, size: 12_000 });
      expect(getSnapshotBundle(r.id)).toEqual(Uint8Array.from(parts.flatMap((p) => [...p])));
      expect(getSnapshotDigest(r.id, 1)).toEqual(bytes(50, 3));
      expect(seenMidway).toBeUndefined();
      expect(turns).toBeGreaterThan(3);
      expect(progress.length).toBeGreaterThan(3);
      expect(progress.at(-1)).toBe(12_000);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    });

    it('keeps nothing of a bundle whose rendering fails', async () => {
      function* failing(): Generator<Uint8Array, string> {
        yield bytes(2_500, 1);
        throw new Error('render failed');
      }
      const before = pendingCount();
      await expect(saveSnapshotPiecesInTurns(failing(), (fingerprint) => record(fingerprint), { chunkBytes: 1_000 })).rejects.toThrow('render failed');
      expect(pendingCount()).toBe(before);
    });

    it('removes pieces a stopped process left pending, not those of a running one', () => {
      // The pieces of snapshots stored in turns stay under their pending name, named by the snapshot.
      const kept = pendingCount();
      expect(kept).toBeGreaterThan(0);
      const db = new Database(path);
      try {
        const insert = db.prepare('INSERT INTO snapshot_chunks (id, seq, data) VALUES (?, 0, ?)');
        insert.run('pending-999999999-1-aa', Buffer.from([1]));
        insert.run(`pending-${process.pid}-2-bb`, Buffer.from([2]));
      } finally {
        db.close();
      }
      expect(deleteAbandonedChunks((pid) => pid === process.pid)).toBe(1);
      expect(pendingCount()).toBe(kept + 1);
      expect(deleteAbandonedChunks(() => false)).toBe(1);
      expect(pendingCount()).toBe(kept);
      expect(getSnapshotBundle(`snap-${'f'.repeat(12)}`)).toHaveLength(12_000);
    });

    it('replaces every piece and the digest when the same snapshot is stored again', async () => {
      function* once(b: Uint8Array): Generator<Uint8Array, string> {
        yield b;
        return '9'.repeat(64);
      }
      const first = await saveSnapshotPiecesInTurns(once(bytes(3_000, 1)), (fingerprint) => record(fingerprint), {
        chunkBytes: 1_000,
        digest: async () => ({ version: 1, bytes: bytes(5, 1) }),
      });
      const before = pendingCount();
      const again = await saveSnapshotPiecesInTurns(once(bytes(1_200, 2)), (fingerprint) => record(fingerprint), { chunkBytes: 1_000 });
      expect(again.id).toBe(first.id);
      expect(getSnapshotBundle(again.id)).toEqual(bytes(1_200, 2));
      expect(getSnapshotDigest(again.id, 1)).toBeUndefined();
      // The first one's three pieces are gone, the new two are kept.
      expect(pendingCount()).toBe(before - 3 + 2);
      // Kept a third time by the synchronous save: its pieces under the id, none left pending.
      saveSnapshot(record('9'.repeat(64)), bytes(500, 3), 1_000);
      expect(pendingCount()).toBe(before - 3);
      expect(getSnapshotBundle(again.id)).toEqual(bytes(500, 3));
    });
  });
});
