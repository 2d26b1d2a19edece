import type { Report } from '@/lib/analysis/types';

/** The frame's data (a plain copy of server/services/shell-info ShellInfo; components never import server/). */
export interface ShellInfoView {
  source: Report['source'];
  summary: Report['summary'];
  warnings: string[];
  partial?: { headline: string; checks: string[] };
  computedAt: string;
  live?: { stale: boolean; staleReason?: string; lastSyncAt?: string };
}
