import type { DeviceClassReport, QuotaUsage, Report, Severity } from '@/lib/analysis/types';
import { describeFinding, findingTitle } from '@/lib/analysis/finding-texts';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { issueDigests, type IssueDigest } from './issue-drift';
import { nodeWriterDigest, type NodeWriterDigest } from './node-writer-entries';
import { permissionInputsOf, type PermissionInputs } from './permission-inputs';

// What drift compares of one snapshot, and nothing else: a few MiB where the bundle of a 10,000-node
// cluster is 600. Made once when a snapshot is taken (or read from a bundle), so comparing two
// snapshots reads two digests instead of re-reading and re-analysing two bundles.

export interface FindingBrief {
  id: string;
  check: string;
  severity: Severity;
  title: string;
  message: string;
}

export type QuotaDigest = Pick<QuotaUsage, 'namespace' | 'name' | 'resource' | 'hard' | 'used' | 'computedUsed'>;

export interface DriftDigest {
  findings: FindingBrief[];
  /** Null when the report was made before issues existed. */
  issues: IssueDigest[] | null;
  nodeWriters: NodeWriterDigest;
  quotas: QuotaDigest[];
  zeroing: { name: string; zeroing: DeviceClassReport['zeroing'] }[];
  permissions: PermissionInputs;
}

export const findingBrief = (f: Report['findings'][number]): FindingBrief => ({
  id: f.id,
  check: f.check,
  severity: f.severity,
  title: findingTitle(f),
  message: describeFinding(f),
});

export function driftDigest(report: Report, permissions: PermissionInputs): DriftDigest {
  return {
    findings: report.findings.map(findingBrief),
    issues: issueDigests(report),
    nodeWriters: nodeWriterDigest(report),
    quotas: report.quotas.map((q) => ({
      namespace: q.namespace,
      name: q.name,
      resource: q.resource,
      hard: q.hard,
      used: q.used,
      computedUsed: q.computedUsed,
    })),
    zeroing: report.deviceClasses.map((d) => ({ name: d.name, zeroing: d.zeroing })),
    permissions,
  };
}

/** The digest of a report and the cluster it was computed from. */
export function driftDigestOf(report: Report, state: ClusterState): DriftDigest {
  return driftDigest(report, permissionInputsOf(state));
}
