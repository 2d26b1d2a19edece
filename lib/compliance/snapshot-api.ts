import type { Severity } from '@/lib/analysis/types';
import type { Drift } from './drift';

// Shapes and URLs of /api/v1/snapshots, shared by the route handlers, the Snapshots page and tests.

export interface SnapshotRecord {
  id: string;
  takenAt: string;
  sourceKind: string;
  sourceName: string;
  /** sha256 of the bundle's manifest.json. */
  fingerprint: string;
  summary: Record<Severity, number>;
  findings: number;
  size: number;
}

/**
 * A snapshot being taken in the background (a large cluster's bundle takes tens of seconds to store).
 * Its drift digest is made first, from the same analysis as its bundle, so it can be compared while
 * its bundle is stored; it is a stored snapshot (`storedId`) only once the bundle is committed whole.
 */
export interface SnapshotTake {
  /** `take-` and 12 hex digits: the snapshot's id is its bundle's fingerprint, known only at the end. */
  id: string;
  status: 'taking' | 'failed' | 'stored';
  takenAt: string;
  sourceKind: string;
  sourceName: string;
  summary: Record<Severity, number>;
  findings: number;
  /** Bytes of the bundle stored so far. */
  bytesStored: number;
  /** Why it failed (status `failed`): nothing of it was kept. */
  error?: string;
  /** The stored snapshot's id (status `stored`). */
  storedId?: string;
}

export interface SnapshotListResponse {
  snapshots: SnapshotRecord[];
  /** Takes still running or failed, and recently stored ones (to map a take's id to its snapshot), newest first. */
  takes?: SnapshotTake[];
}

export type SnapshotTakeResponse = SnapshotTake;

/** A take's id (SnapshotTake.id). */
export const TAKE_ID = /^take-[0-9a-f]{12}$/;

export type SnapshotDriftResponse = Drift;

/** What can be downloaded: the whole bundle or one of the reports in it. */
export const SNAPSHOT_PARTS = ['bundle', 'html', 'csv', 'markdown', 'json'] as const;
export type SnapshotPart = (typeof SNAPSHOT_PARTS)[number];

export const SNAPSHOT_PART_LABELS: Record<SnapshotPart, string> = {
  bundle: 'Bundle (.tar)',
  html: 'HTML report',
  csv: 'Findings CSV',
  markdown: 'Markdown',
  json: 'Report JSON',
};

export const snapshotApi = {
  list: () => '/api/v1/snapshots',
  take: () => '/api/v1/snapshots',
  storedPart: (id: string, part: SnapshotPart) => `/api/v1/snapshots/${encodeURIComponent(id)}/${part}`,
  currentPart: (part: SnapshotPart) => `/api/v1/snapshots/current/${part}`,
  drift: (from: string, to: string) => `/api/v1/snapshots/drift?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
};
