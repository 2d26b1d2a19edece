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

export interface SnapshotListResponse {
  snapshots: SnapshotRecord[];
}

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
