import type { FindingFilters } from '@/lib/view/findings-view';
import type { AccessQuery, CanIQuery, GraphQuery } from './routes';

// react-query keys, shared by server prefetch and client hooks.
export const queryKeys = {
  report: () => ['report'] as const,
  findings: (f: FindingFilters) => ['findings', f] as const,
  blastRadius: (node: string) => ['blast-radius', node] as const,
  nodeSearch: (q: string) => ['node-search', q] as const,
  nodeView: (node: string) => ['node-view', node] as const,
  nodeWriters: (group: string, offset: number, q: string) => ['node-writers', group, offset, q] as const,
  whoCan: (q: AccessQuery) => ['who-can', q] as const,
  canI: (q: CanIQuery) => ['can-i', q] as const,
  simulatePrefill: (key: string) => ['simulate-prefill', key] as const,
  graph: (q: GraphQuery) => ['graph', q] as const,
  graphSearch: (q: string) => ['graph-search', q] as const,
  roleApprovals: () => ['role-approvals'] as const,
};
