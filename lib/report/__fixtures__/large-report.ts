import type { Report } from '@/lib/analysis/types';

// A report of a large cluster's size, made from a small one's: more issues (one finding each), nodes
// and DRA quota rows than the export paths can hold on the stack if any of them is spread into a
// call's arguments (V8 overflows past ~120,000). Names are distinct per row, so tests can count them.

export interface LargeReportSizes {
  issues: number;
  nodes: number;
  quotaRows: number;
}

export function largeReport(base: Report, sizes: LargeReportSizes): Report {
  const issue = base.issues[0];
  const finding = base.findings.find((f) => f.id === issue.findingIds[0])!;
  const node = base.nodes[0];
  const issues: Report['issues'] = [];
  const findings: Report['findings'] = [];
  for (let i = 0; i < sizes.issues; i++) {
    const id = `large-issue-${i}`;
    const findingId = `large-finding-${i}`;
    issues.push({ ...issue, id, title: `${issue.title} #${i}`, findingIds: [findingId] });
    findings.push({ ...finding, id: findingId, issueId: id });
  }
  const nodes: Report['nodes'] = [];
  for (let i = 0; i < sizes.nodes; i++) nodes.push({ ...node, name: `large-node-${i}` });
  const quotas: Report['quotas'] = [];
  for (let i = 0; i < sizes.quotaRows; i++) {
    quotas.push({
      namespace: `large-ns-${Math.floor(i / 10)}`,
      name: 'dra',
      resource: `class-${i % 10}.deviceclass.resource.k8s.io/devices`,
      hard: '4',
      used: '1',
      computedUsed: '1',
    });
  }
  return { ...base, issues, findings, attackPaths: [], nodes, quotas };
}
