import 'server-only';
import type { Report } from '@/lib/analysis/types';
import { partialNotice } from '@/lib/report/partial-notice';
import { getLiveStatus } from './current-cluster';
import { getAnalysis } from './get-report';

export interface ShellInfo {
  source: Report['source'];
  summary: Report['summary'];
  warnings: string[];
  /** Present when the source could not read some kinds: which, and the checks that are unknown. */
  partial?: { headline: string; checks: string[] };
  /** When the report was computed by this server. */
  computedAt: string;
  counts: { nodes: number; namespaces: number; claims: number; deviceClasses: number; bindings: number };
  /** Live sources only: whether the watches are current. */
  live?: { stale: boolean; staleReason?: string; lastSyncAt?: string };
}

/** What the dashboard frame (source banner, navigation badges) shows on every page. */
export async function getShellInfo(): Promise<ShellInfo> {
  const { report, state, computedAt } = await getAnalysis();
  const status = await getLiveStatus();
  const partial = partialNotice(report);
  return {
    ...(status ? { live: { stale: status.stale, staleReason: status.staleReason, lastSyncAt: status.lastSyncAt } } : {}),
    source: report.source,
    summary: report.summary,
    warnings: report.warnings,
    ...(partial ? { partial } : {}),
    computedAt,
    counts: {
      nodes: report.nodes.length,
      namespaces: state.namespaces.length,
      claims: state.resourceClaims.length,
      deviceClasses: state.deviceClasses.length,
      bindings: state.roleBindings.length + state.clusterRoleBindings.length,
    },
  };
}
