import type { Report } from '@/lib/report/types';
import { filterFindings, DEFAULT_FILTERS } from './findings-view';
import { buildQuotaRows } from './quota-view';
import { subjectKey } from './subjects';

export interface OverviewFacts {
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
  for (const n of report.nodes) for (const w of n.statusWriters) if (w.scope === 'all-nodes' && w.mode !== 'node-authorizer') allNodes.add(subjectKey(w.subject));
  const quotas = buildQuotaRows(report.quotas);
  return {
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
