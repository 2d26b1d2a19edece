import type { AnalysisContext } from '@/lib/analysis/context-types';
import { findingId } from '@/lib/analysis/finding-id';
import { SEVERITIES, type CheckId, type DetailedFinding, type Finding } from '@/lib/analysis/types';
import { CATALOG } from '@/lib/analysis/catalog';
import { issueIdOf, rootCauseOf } from '@/lib/analysis/issues/root-cause';
import { roleCopyKeys } from '@/lib/analysis/issues/role-copies';
import { workloadCopyKeys } from '@/lib/analysis/issues/workload-copies';
import type { Check } from './check-types';
import { AUDIT_CHECKS } from './audit-checks';
import { CLAIM_CHECKS } from './claim-checks';
import { DRA_CHECKS } from './dra-checks';
import { NODE_CHECKS } from './node-checks';
import { POD_CHECKS } from './pod-checks';
import { QUOTA_CHECKS } from './quota-checks';
import { ZERO_CHECKS } from './zero-checks';
import { compareStrings } from '@/lib/k8s/refs';
import { refKey } from '@/lib/k8s/refs';

/** Every check, one family per module, in catalogue order (a test holds them to CHECK_IDS). */
export const CHECK_LIST: readonly Check[] = [...DRA_CHECKS, ...NODE_CHECKS, ...CLAIM_CHECKS, ...QUOTA_CHECKS, ...ZERO_CHECKS, ...POD_CHECKS, ...AUDIT_CHECKS];

/** Checks keyed by their stable ID. */
export const CHECKS: Readonly<Partial<Record<CheckId, Check>>> = Object.freeze(Object.fromEntries(CHECK_LIST.map((c) => [c.id, c])));

const SEVERITY_RANK = new Map(SEVERITIES.map((s, i) => [s, i]));

/** Severity (critical first), check ID, then the subject keys and the object keys. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (SEVERITY_RANK.get(a.severity) ?? 99) - (SEVERITY_RANK.get(b.severity) ?? 99) ||
    compareStrings(a.check, b.check) ||
    compareStrings(a.subjects.map(refKey).join('\n'), b.subjects.map(refKey).join('\n')) ||
    compareStrings(a.objects.map(refKey).join('\n'), b.objects.map(refKey).join('\n')) ||
    compareStrings(a.id, b.id)
  );
}

/**
 * The findings in compareFindings order, in place, each finding's subject and object keys joined once:
 * the comparison joined them again for every pair it compared (~27,000 findings on the diverse bench
 * cluster, most of a check's findings tied on severity and check). The sort is stable, as with compareFindings.
 */
export function sortFindings<T extends Finding>(findings: T[]): T[] {
  const keyed = findings.map((f) => ({
    f,
    rank: SEVERITY_RANK.get(f.severity) ?? 99,
    subjects: f.subjects.map(refKey).join('\n'),
    objects: f.objects.map(refKey).join('\n'),
  }));
  keyed.sort(
    (a, b) =>
      a.rank - b.rank ||
      compareStrings(a.f.check, b.f.check) ||
      compareStrings(a.subjects, b.subjects) ||
      compareStrings(a.objects, b.objects) ||
      compareStrings(a.f.id, b.f.id),
  );
  for (let i = 0; i < keyed.length; i++) findings[i] = keyed[i].f;
  return findings;
}

/** Runs the given checks (all by default) and returns complete findings in a deterministic order. */
export function runChecks(ctx: AnalysisContext, checks: readonly Check[] = CHECK_LIST): DetailedFinding[] {
  const findings: DetailedFinding[] = [];
  const copyKeys = new Map([...roleCopyKeys(ctx.engine.rbac), ...workloadCopyKeys(ctx.state)]);
  for (const check of checks) {
    const { severity, title } = CATALOG[check.id];
    for (const draft of check.run(ctx)) {
      findings.push({
        id: findingId(check.id, draft.subjects, draft.objects),
        check: check.id,
        severity,
        issueId: issueIdOf(check.id, rootCauseOf({ check: check.id, objects: draft.objects }), copyKeys),
        subjects: draft.subjects,
        objects: draft.objects,
        evidence: draft.evidence,
        title,
        message: draft.message,
        remediation: draft.remediation,
      });
    }
  }
  return sortFindings(findings);
}
