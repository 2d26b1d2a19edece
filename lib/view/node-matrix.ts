import type { ClaimStatusWriter, StatusWriterMode } from '@/lib/analysis/types';
import { compareStrings, describeSubject } from '@/lib/k8s/refs';

// Orders and groupings of node writers shared by the Nodes page's views.

/** Most to least dangerous: legacy impersonation and plain RBAC reach any node. */
export const MODE_ORDER: readonly StatusWriterMode[] = ['impersonation', 'rbac', 'constrained-impersonation', 'node-authorizer'];

/** Claim-status writers of one node grouped by driver, drivers sorted, arbitrary-node writers first. */
export function claimWritersByDriver(node: { claimStatusWriters: ClaimStatusWriter[] }): { driver: string; writers: ClaimStatusWriter[] }[] {
  const by = new Map<string, ClaimStatusWriter[]>();
  for (const w of node.claimStatusWriters) (by.get(w.driver) ?? by.set(w.driver, []).get(w.driver)!).push(w);
  return [...by]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([driver, writers]) => ({
      driver,
      writers: [...writers].sort((a, b) =>
        a.mode === b.mode ? compareStrings(describeSubject(a.subject), describeSubject(b.subject)) : a.mode === 'arbitrary-node' ? -1 : 1,
      ),
    }));
}
