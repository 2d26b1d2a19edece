import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftIsEmpty } from '@/lib/compliance/drift';
import { verifyBundleBytes } from '@/server/compliance/read-bundle';
import { closeStores } from '@/server/store/get-store';
import { snapshotDrift, snapshotHistory, storedBundle, takeSnapshot } from './snapshots';
import { snapshotTakes, startSnapshotTake } from './snapshot-takes';
import { getReport } from './get-report';

// Taking snapshots of the current source (the demo) into a real SQLite store.

const saved = { store: process.env.DRA_POSTURE_STORE, source: process.env.DRA_POSTURE_SOURCE, snapshot: process.env.DRA_POSTURE_SNAPSHOT };

beforeAll(() => {
  process.env.DRA_POSTURE_STORE = join(mkdtempSync(join(tmpdir(), 'dra-snapshots-')), 'store.sqlite');
  process.env.DRA_POSTURE_SOURCE = 'demo';
  delete process.env.DRA_POSTURE_SNAPSHOT;
});

afterAll(() => {
  closeStores();
  for (const [k, env] of [
    ['store', 'DRA_POSTURE_STORE'],
    ['source', 'DRA_POSTURE_SOURCE'],
    ['snapshot', 'DRA_POSTURE_SNAPSHOT'],
  ] as const) {
    if (saved[k] === undefined) delete process.env[env];
    else process.env[env] = saved[k];
  }
});

describe('snapshot history', () => {
  it('stores verifiable bundles, lists them newest first, and finds no drift between two of the same cluster', async () => {
    const first = await takeSnapshot();
    await new Promise((r) => setTimeout(r, 5));
    const second = await takeSnapshot();
    expect(first.id).not.toBe(second.id);
    expect(second.id).toBe(`snap-${second.fingerprint.slice(0, 12)}`);
    expect(snapshotHistory().map((s) => s.id)).toEqual([second.id, first.id]);
    const report = await getReport();
    expect(second).toMatchObject({ sourceKind: 'demo', sourceName: 'demo', findings: report.findings.length, summary: report.summary });
    const { bytes, record } = storedBundle(first.id);
    expect(bytes.byteLength).toBe(record.size);
    expect(verifyBundleBytes(bytes)).toMatchObject({ ok: true, fingerprint: first.fingerprint });
    expect(driftIsEmpty(snapshotDrift(first.id, second.id))).toBe(true);
    expect(() => storedBundle('snap-000000000000')).toThrow(/no stored snapshot/);
  });

  it('answers a take before its bundle is stored: comparable at once, a snapshot only when stored whole', async () => {
    const stored = snapshotHistory().length;
    const { take, done } = await startSnapshotTake();
    expect(take).toMatchObject({ status: 'taking', sourceKind: 'demo', bytesStored: 0 });
    expect(take.id).toMatch(/^take-[0-9a-f]{12}$/);
    // Listed as being taken, not yet a stored snapshot.
    expect(snapshotTakes().find((t) => t.id === take.id)?.status).toBe('taking');
    expect(snapshotHistory()).toHaveLength(stored);
    // Compared by the digest of the analysis it is bundled from: the same source, so nothing changed.
    const newest = snapshotHistory()[0]!.id;
    const early = snapshotDrift(newest, take.id);
    expect(driftIsEmpty(early)).toBe(true);
    expect(early.to).toContain('bundle still being stored');

    const record = await done;
    expect(snapshotHistory()[0]!.id).toBe(record.id);
    expect(record.takenAt).toBe(take.takenAt);
    const listed = snapshotTakes().find((t) => t.id === take.id);
    expect(listed).toMatchObject({ status: 'stored', storedId: record.id, bytesStored: record.size });
    expect(verifyBundleBytes(storedBundle(record.id).bytes)).toMatchObject({ ok: true, fingerprint: record.fingerprint });
    // The take's id now names the stored snapshot.
    const late = snapshotDrift(newest, take.id);
    expect(late.to).toBe(`${record.id} (${record.takenAt})`);
    expect({ ...late, to: '' }).toEqual({ ...early, to: '' });
    expect(() => snapshotDrift(newest, 'take-000000000000')).toThrow(/no snapshot is being taken/);
  });
});
