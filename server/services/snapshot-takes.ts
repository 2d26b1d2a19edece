import 'server-only';
import { randomBytes } from 'node:crypto';
import type { DriftDigest } from '@/lib/compliance/drift-digest';
import { driftDigestOf } from '@/lib/compliance/drift-digest';
import { prepareChangedGrantees } from '@/lib/compliance/changed-grantees';
import type { SnapshotTake } from '@/lib/compliance/snapshot-api';
import { DRIFT_DIGEST_VERSION, encodeDriftDigestInBackground } from '@/server/sources/bundle-drift-digest';
import { deleteAbandonedChunks, saveSnapshotPiecesInTurns, type SnapshotRecord } from '@/server/compliance/snapshot-store';
import { makeBundle } from '@/server/compliance/write-bundle';
import { getAnalysis } from './get-report';
import { RecentValues } from './recent-values';

// Snapshots taken in the background. Storing a 10,000-node cluster's bundle (650–790 MiB) takes
// tens of seconds; the user's click is answered once the snapshot's drift digest is made (from the
// same analysis its bundle is rendered from), and the bundle is rendered and stored after, giving
// the event loop a turn between pieces so the pages keep answering. Takes run one at a time (two
// bundles rendered at once would double the memory). State lives on globalThis: Next bundles the
// routes that start, list and compare takes separately.

interface TakeEntry {
  take: SnapshotTake;
  /** Until the take is stored: then the digest is kept with the stored snapshots' (recentDigests). */
  digest?: DriftDigest;
  done: Promise<SnapshotRecord>;
}

interface Takes {
  entries: Map<string, TakeEntry>;
  /** The last take started: the next one starts after it. */
  queue: Promise<unknown>;
  cleaned: boolean;
  /** Parsed digests of stored snapshots, by snapshot id: the two just compared and the ones just taken. */
  digests: RecentValues<DriftDigest>;
}

const KEY = Symbol.for('dra-posture.snapshot-takes');
/** Finished takes (stored or failed) listed, so a failure is seen and a take's id still resolves. */
const KEEP_FINISHED = 20;
/** A large cluster's parsed digest is tens of MiB: the pair compared and the newest two taken. */
const KEEP_DIGESTS = 4;
/** Background work waits this long after a take is answered: the response and the page's next requests go first. */
const START_AFTER_MS = 150;

function takes(): Takes {
  const g = globalThis as unknown as Record<symbol, Takes | undefined>;
  return (g[KEY] ??= { entries: new Map(), queue: Promise.resolve(), cleaned: false, digests: new RecentValues(KEEP_DIGESTS) });
}

const isAlive = (pid: number) => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but is not ours.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function forgetOldTakes(t: Takes): void {
  const finished = [...t.entries.values()].filter((e) => e.take.status !== 'taking');
  for (const e of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) t.entries.delete(e.take.id);
}

/**
 * Starts taking a snapshot of the current source; resolves once it can be compared (its digest is
 * made), with `done` resolving when its bundle is stored whole (or rejecting with why it was not).
 */
export async function startSnapshotTake(): Promise<{ take: SnapshotTake; done: Promise<SnapshotRecord> }> {
  const { state, report } = await getAnalysis();
  const t = takes();
  if (!t.cleaned) {
    t.cleaned = true;
    deleteAbandonedChunks(isAlive);
  }
  const takenAt = new Date().toISOString();
  const digest = driftDigestOf(report, state);
  const take: SnapshotTake = {
    id: `take-${randomBytes(6).toString('hex')}`,
    status: 'taking',
    takenAt,
    sourceKind: report.source.kind,
    sourceName: report.source.name,
    summary: report.summary,
    findings: report.findings.length,
    bytesStored: 0,
  };
  const store = async () => {
    const bundle = await makeBundle(state, { report, createdAt: takenAt });
    return saveSnapshotPiecesInTurns(
      bundle.pieces({ pauses: true }),
      ({ manifest, fingerprint }) => ({
        takenAt: manifest.createdAt,
        sourceKind: take.sourceKind,
        sourceName: take.sourceName,
        fingerprint,
        summary: take.summary,
        findings: take.findings,
      }),
      {
        // Committed with the snapshot: comparing it later reads this (a few MiB), not its bundle.
        digest: async () => ({ version: DRIFT_DIGEST_VERSION, bytes: await encodeDriftDigestInBackground(digest) }),
        onProgress: ({ bytes }) => (take.bytesStored = bytes),
      },
    );
  };
  // The next comparison is likely with this snapshot: what it reads of its RBAC is made once the click
  // is answered, not behind a take still storing its bundle.
  setTimeout(() => prepareChangedGrantees(digest.permissions), START_AFTER_MS);
  // The click is answered (and the page asks for the list) before the bundle's work starts.
  const done = t.queue.then(() => new Promise((r) => setTimeout(r, START_AFTER_MS))).then(store);
  t.queue = done.catch(() => undefined);
  const entry: TakeEntry = { take, digest, done };
  t.entries.set(take.id, entry);
  done.then(
    (record) => {
      take.status = 'stored';
      take.storedId = record.id;
      t.digests.get(record.id, () => digest);
      entry.digest = undefined;
      forgetOldTakes(t);
    },
    (e: unknown) => {
      take.status = 'failed';
      take.error = e instanceof Error ? e.message : String(e);
      entry.digest = undefined;
      forgetOldTakes(t);
    },
  );
  return { take, done };
}

/** Takes of this process, newest first. */
export function snapshotTakes(): SnapshotTake[] {
  return [...takes().entries.values()].map((e) => ({ ...e.take })).reverse();
}

/** A take by id: its state and, while its bundle is being stored, its digest. */
export function snapshotTake(id: string): { take: SnapshotTake; digest?: DriftDigest } | undefined {
  const e = takes().entries.get(id);
  return e && { take: { ...e.take }, digest: e.digest };
}

/** A stored snapshot's digest, kept in memory for the most recently asked. */
export function recentStoredDigest(id: string, read: () => DriftDigest): DriftDigest {
  return takes().digests.get(id, read);
}
