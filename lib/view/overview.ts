import { SEVERITIES, type Report, type Severity } from '@/lib/report/types';
import { filterFindings, DEFAULT_FILTERS } from './findings-view';
import { buildQuotaRows } from './quota-view';
import { subjectKey } from './subjects';

export interface CheckFamily {
  family: string;
  label: string;
  count: number;
  checks: string[];
  worst: Severity | null;
}

export const FAMILY_LABELS: Record<string, string> = {
  DRA: 'DRA RBAC',
  NODE: 'Nodes & impersonation',
  CLAIM: 'Claims & admin access',
  QUOTA: 'Quota',
  ZERO: 'Device zeroing',
  POD: 'Driver pods',
  AUDIT: 'Audit log',
};

/** Findings per check family (DRA, NODE, CLAIM, QUOTA, ZERO, POD, AUDIT), in that order. */
export function checkFamilies(findings: Report['findings']): CheckFamily[] {
  return Object.keys(FAMILY_LABELS).map((family) => {
    const mine = findings.filter((f) => f.check.startsWith(family) && /^\d/.test(f.check.slice(family.length)));
    const checks = [...new Set(mine.map((f) => f.check))].sort();
    const worst = SEVERITIES.find((s) => mine.some((f) => f.severity === s)) ?? null;
    return { family, label: FAMILY_LABELS[family], count: mine.length, checks, worst };
  });
}

export interface OverviewFacts {
  families: CheckFamily[];
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
  for (const w of report.allNodes.statusWriters) if (w.mode !== 'node-authorizer') allNodes.add(subjectKey(w.subject));
  const quotas = buildQuotaRows(report.quotas);
  return {
    families: checkFamilies(report.findings),
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
