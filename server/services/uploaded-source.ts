import 'server-only';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { parseSnapshotUpload } from '@/server/sources/parse-upload';

// An uploaded snapshot replaces the configured source for everyone using this server (the dashboard
// is a single-user local tool by default) until it is reset. It lives in memory only, on globalThis:
// Next bundles route handlers and pages separately, so a module variable would not be shared.
const KEY = Symbol.for('dra-posture.uploaded-snapshot');
const store = globalThis as unknown as Record<symbol, ClusterState | undefined>;

export const DEFAULT_MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

export function maxUploadBytes(): number {
  const v = Number(process.env.DRA_POSTURE_MAX_UPLOAD_BYTES);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_MAX_UPLOAD_BYTES;
}

/**
 * Parses and validates an uploaded file (in a worker thread; `bytes` is handed over to it); the
 * current source changes only if all of it loads.
 */
export async function useUploadedSnapshot(bytes: Uint8Array, fileName: string): Promise<ClusterState> {
  const state = await parseSnapshotUpload(bytes, fileName, maxUploadBytes());
  store[KEY] = state;
  return state;
}

export function getUploadedSnapshot(): ClusterState | undefined {
  return store[KEY];
}

export function clearUploadedSnapshot(): void {
  store[KEY] = undefined;
}
