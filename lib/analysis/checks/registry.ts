import type { AnalysisContext } from '@/lib/analysis/context-types';
import { findingId, refKey } from '@/lib/analysis/finding-id';
import { SEVERITIES, type CheckId, type Finding } from '@/lib/report/types';
import type { Check } from './check-types';
import { CLAIM_CHECKS } from './claim-checks';
import { DRA_CHECKS } from './dra-checks';
import { NODE_CHECKS } from './node-checks';
import { POD_CHECKS } from './pod-checks';
import { QUOTA_CHECKS } from './quota-checks';
import { ZERO_CHECKS } from './zero-checks';
import { compareStrings as cmp } from '@/lib/k8s/compare-strings';

/** Every check in catalogue order, one family per module. */
export const CHECK_LIST: readonly Check[] = [...DRA_CHECKS, ...NODE_CHECKS, ...CLAIM_CHECKS, ...QUOTA_CHECKS, ...ZERO_CHECKS, ...POD_CHECKS];

/** Checks keyed by their stable ID. */
export const CHECKS: Readonly<Partial<Record<CheckId, Check>>> = Object.freeze(Object.fromEntries(CHECK_LIST.map((c) => [c.id, c])));

const SEVERITY_RANK = new Map(SEVERITIES.map((s, i) => [s, i]));

/** Severity (critical first), check ID, then the subject keys and the object keys. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (SEVERITY_RANK.get(a.severity) ?? 99) - (SEVERITY_RANK.get(b.severity) ?? 99) ||
    cmp(a.check, b.check) ||
    cmp(a.subjects.map(refKey).join('\n'), b.subjects.map(refKey).join('\n')) ||
    cmp(a.objects.map(refKey).join('\n'), b.objects.map(refKey).join('\n')) ||
    cmp(a.id, b.id)
  );
}

/** Runs the given checks (all by default) and returns complete findings in a deterministic order. */
export function runChecks(ctx: AnalysisContext, checks: readonly Check[] = CHECK_LIST): Finding[] {
  const findings: Finding[] = [];
  for (const check of checks) {
    for (const draft of check.run(ctx)) {
      findings.push({
        id: findingId(check.id, draft.subjects, draft.objects),
        check: check.id,
        severity: check.severity,
        title: check.title,
        subjects: draft.subjects,
        objects: draft.objects,
        message: draft.message,
        evidence: draft.evidence,
        remediation: draft.remediation,
      });
    }
  }
  return findings.sort(compareFindings);
}
