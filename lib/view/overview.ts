import { SEVERITIES, type AttackPath, type Issue, type Report, type Severity } from '@/lib/analysis/types';
import { filterFindings, DEFAULT_FILTERS } from './findings-view';
import { buildQuotaRows } from './quota-view';
import { refKey } from '@/lib/k8s/refs';
import { catalogEntry, CHECK_FAMILIES, type CheckFamilyId } from '@/lib/analysis/catalog';

export interface CheckFamily {
  family: string;
  label: string;
  count: number;
  checks: string[];
  worst: Severity | null;
}

/** Findings per check family (DRA, NODE, CLAIM, QUOTA, ZERO, POD), in that order. */
export function checkFamilies(findings: Report['findings']): CheckFamily[] {
  return (Object.keys(CHECK_FAMILIES) as CheckFamilyId[]).map((family) => {
    const mine = findings.filter((f) => catalogEntry(f.check)?.family === family);
    const checks = [...new Set(mine.map((f) => f.check))].sort();
    const worst = SEVERITIES.find((s) => mine.some((f) => f.severity === s)) ?? null;
    return { family, label: CHECK_FAMILIES[family], count: mine.length, checks, worst };
  });
}

export interface OverviewFacts {
  families: CheckFamily[];
  /** The highest-risk issues, first first; issues with the same check and the same checked fix target are rolled up into the first. */
  topIssues: Issue[];
  /** Per top issue (by ID), the lower-ranked issues rolled up into it (topRisks). */
  alike: Record<string, Issue[]>;
  /** Attack paths of the top issues, by issue ID. */
  attackPaths: Record<string, AttackPath>;
  topFindings: Report['findings'];
  nodes: number;
  /** Identities (other than kubelets) that can write the status of every node. */
  allNodeStatusWriters: number;
  draQuotas: number;
  quotasNearLimit: number;
  tenantsWithoutClaimQuota: number;
  deviceClasses: number;
  classesWithoutZeroing: number;
  sharedWithoutZeroing: number;
}

/** Issues this far down the ranking are still rolled up into a top one that shares their check and fix target. */
const ROLL_UP_SCAN = 500;

/**
 * The same check on several roles fixed at one source (ClusterRoles filled by aggregation from one
 * role, whose checked fixes all edit that role): one row, not five near-identical ones. Issues
 * without a verified fix are never rolled up.
 */
function sameSourceKey(issue: Issue): string | undefined {
  if (issue.fix?.status !== 'verified') return undefined;
  const targets = issue.fix.changes.flatMap((c) => (c.action === 'patch' ? [refKey(c.target)] : [])).sort();
  return targets.length > 0 ? `${issue.check}|${targets.join(',')}` : undefined;
}

/** The first `n` issues after rolling up those that share a check and a fix target. */
export function topRisks(issues: readonly Issue[], n: number): { issue: Issue; alike: Issue[] }[] {
  const out: { issue: Issue; alike: Issue[] }[] = [];
  const byKey = new Map<string, { issue: Issue; alike: Issue[] }>();
  for (const issue of issues.slice(0, ROLL_UP_SCAN)) {
    const key = sameSourceKey(issue);
    const into = key === undefined ? undefined : byKey.get(key);
    if (into) into.alike.push(issue);
    else if (out.length < n) {
      const row = { issue, alike: [] };
      out.push(row);
      if (key !== undefined) byKey.set(key, row);
    }
  }
  return out;
}

export function overviewFacts(report: Report, topN = 8): OverviewFacts {
  const allNodes = new Set<string>();
  // Kubelets (Node authorizer) are listed for every node only when NodeRestriction is off: they count then.
  for (const w of report.allNodes.statusWriters) allNodes.add(refKey(w.subject));
  const quotas = buildQuotaRows(report.quotas);
  const top = topRisks(report.issues, 5);
  return {
    families: checkFamilies(report.findings),
    topIssues: top.map((t) => t.issue),
    alike: Object.fromEntries(top.filter((t) => t.alike.length > 0).map((t) => [t.issue.id, t.alike])),
    attackPaths: Object.fromEntries(report.attackPaths.filter((p) => top.some((t) => t.issue.id === p.issueId)).map((p) => [p.issueId, p])),
    topFindings: filterFindings(report.findings, DEFAULT_FILTERS).slice(0, topN),
    nodes: report.nodes.length,
    allNodeStatusWriters: allNodes.size,
    draQuotas: quotas.length,
    quotasNearLimit: quotas.filter((q) => q.ratio !== null && q.ratio >= 0.9).length,
    tenantsWithoutClaimQuota: report.findings.filter((f) => f.check === 'QUOTA001').length,
    deviceClasses: report.deviceClasses.length,
    classesWithoutZeroing: report.deviceClasses.filter((d) => d.zeroing === 'missing').length,
    sharedWithoutZeroing: report.findings.filter((f) => f.check === 'ZERO001').length,
  };
}
