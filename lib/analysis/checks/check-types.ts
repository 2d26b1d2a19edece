import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { CheckId, Finding, Severity } from '@/lib/analysis/types';

/**
 * What a check's run() returns: a finding without the fields the runner fills in
 * (id from findingId(check, subjects, objects); check, severity and title from the Check).
 */
export type FindingDraft = Omit<Finding, 'id' | 'check' | 'severity' | 'title'>;

/** One small check object (house style §3): stable id, fixed severity, pure run(ctx). */
export interface Check {
  id: CheckId;
  severity: Severity;
  title: string;
  description: string;
  run(ctx: AnalysisContext): FindingDraft[];
}
