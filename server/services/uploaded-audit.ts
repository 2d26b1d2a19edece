import 'server-only';
import type { AuditAggregate } from '@/lib/audit/aggregate-activity';

// An uploaded audit log (read by server/sources/read-audit-upload.ts, never held: only the aggregate is kept) joins
// the report of whatever source is current until it is cleared. On globalThis, as the uploaded
// snapshot: Next bundles route handlers and pages separately.
const KEY = Symbol.for('dra-posture.uploaded-audit');
const store = globalThis as unknown as Record<symbol, { aggregate: AuditAggregate; name: string; seq: number } | undefined>;
let seq = 0;

export function useUploadedAudit(aggregate: AuditAggregate, name: string): void {
  store[KEY] = { aggregate, name, seq: ++seq };
}

export function getUploadedAudit(): { aggregate: AuditAggregate; name: string; seq: number } | undefined {
  return store[KEY];
}

export function clearUploadedAudit(): void {
  store[KEY] = undefined;
}
