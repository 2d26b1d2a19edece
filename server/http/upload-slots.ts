import 'server-only';
import { ApiError } from './api-errors';

// Uploads (snapshots, audit logs) are read and parsed a few at a time: each holds up to its byte
// limit and a parse's worth of CPU, so a fourth concurrent one is refused at once with 429 and
// Retry-After instead of queueing behind the others. The count lives on globalThis: Next bundles
// each route handler separately, and the slots are shared by every upload route.

export const MAX_CONCURRENT_UPLOADS = 3;
export const UPLOAD_RETRY_AFTER_SECONDS = 5;

const KEY = Symbol.for('dra-posture.upload-slots');
const store = globalThis as unknown as Record<symbol, { busy: number } | undefined>;
const slots = (store[KEY] ??= { busy: 0 });

/** Runs `work` in an upload slot, or throws a 429 (with Retry-After) when all are taken. */
export async function withUploadSlot<T>(what: string, work: () => Promise<T>, max = MAX_CONCURRENT_UPLOADS): Promise<T> {
  if (slots.busy >= max)
    throw new ApiError('too_many_requests', `${max} uploads are already being read; send the ${what} again in ${UPLOAD_RETRY_AFTER_SECONDS} s`, {
      'Retry-After': String(UPLOAD_RETRY_AFTER_SECONDS),
    });
  slots.busy++;
  try {
    return await work();
  } finally {
    slots.busy--;
  }
}

/** Uploads being read now (for tests and diagnostics). */
export function uploadsInProgress(): number {
  return slots.busy;
}
