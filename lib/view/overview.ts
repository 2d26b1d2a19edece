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
  /** The highest-risk issues, first first. */
  topIssues: Issue[];
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

export function overviewFacts(report: Report, topN = 8): OverviewFacts {
  const allNodes = new Set<string>();
  // Kubelets (Node authorizer) are listed for every node only when NodeRestriction is off: they count then.
  for (const w of report.allNodes.statusWriters) allNodes.add(refKey(w.subject));
  const quotas = buildQuotaRows(report.quotas);
  return {
    families: checkFamilies(report.findings),
    topIssues: report.issues.slice(0, 5),
    attackPaths: Object.fromEntries(report.attackPaths.filter((p) => report.issues.slice(0, 5).some((i) => i.id === p.issueId)).map((p) => [p.issueId, p])),
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
