import 'server-only';
import { SnapshotError, isSnapshotError, type SnapshotErrorCode, type SnapshotErrorLocation } from '@/lib/k8s/snapshot-error';
import { ApiError, isApiError } from '@/server/http/api-errors';
import type { ApiErrorCode } from '@/lib/api/dto';

// An upload parsed in a worker fails there; the route must answer exactly as if it had failed on
// the main thread (same code, status, Retry-After, and a message naming the file, document and
// line). A structured clone keeps only an Error's message, so the two errors a parse can mean are
// sent as their fields and made again on this side.

export type WireError =
  | { kind: 'api'; code: ApiErrorCode; message: string; headers: Record<string, string> }
  | { kind: 'snapshot'; code: SnapshotErrorCode; reason: string; location: SnapshotErrorLocation }
  | { kind: 'other'; message: string };

export function toWireError(error: unknown): WireError {
  if (isApiError(error)) return { kind: 'api', code: error.code, message: error.message, headers: { ...error.headers } };
  if (isSnapshotError(error)) {
    const { file, document, item, line, object, path } = error;
    return { kind: 'snapshot', code: error.code, reason: error.reason, location: { file, document, item, line, object, path } };
  }
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) };
}

export function fromWireError(wire: WireError): Error {
  if (wire.kind === 'api') return new ApiError(wire.code, wire.message, wire.headers);
  if (wire.kind === 'snapshot') return new SnapshotError(wire.reason, wire.location, wire.code);
  return new Error(wire.message);
}
