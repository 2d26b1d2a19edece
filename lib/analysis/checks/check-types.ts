import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { CheckId, DetailedFinding } from '@/lib/analysis/types';

/**
 * What a check's run() returns: a finding without the fields the runner fills in
 * (id from findingId(check, subjects, objects); issueId from the root cause; check, and severity from
 * the catalogue).
 */
export type FindingDraft = Omit<DetailedFinding, 'id' | 'check' | 'severity' | 'issueId' | 'title'>;

/** One small check object (house style §3): a stable catalogue id and a pure run(ctx). */
export interface Check {
  id: CheckId;
  run(ctx: AnalysisContext): FindingDraft[];
}
