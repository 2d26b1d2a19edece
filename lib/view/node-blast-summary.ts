import type { BlastRadius, BlastRadiusClaim } from '@/lib/analysis/node-writers/blast-radius';
import type { SubjectRef } from '@/lib/k8s/types';
import { compareStrings } from '@/lib/k8s/refs';

// The blast radius as the Nodes page shows it: counts, with a few names each. On a large cluster one
// exposed driver account can write 100,000 claims and a kubelet every node's status; the full lists
// (the API's /nodes/:name/blast-radius) made the page's data 17 MB per node.

/** Names listed per identity and in the totals; the counts say the rest. */
export const BLAST_SAMPLE = 12;

export interface DriverCount {
  driver: string;
  count: number;
}

export interface BlastSummaryIdentity {
  subject: SubjectRef;
  allNodes: boolean;
  statusNodeCount: number;
  statusNodes: string[];
  claimCount: number;
  claimsByDriver: DriverCount[];
  /** Some of its claims are reachable wherever they are allocated (arbitrary-node). */
  anyNodeClaims: boolean;
  claims: BlastRadiusClaim[];
}

export interface BlastSummary {
  node: string;
  identities: BlastSummaryIdentity[];
  allNodes: boolean;
  otherNodeCount: number;
  otherNodes: string[];
  claimCount: number;
  claimsByDriver: DriverCount[];
}

function countByDriver(claims: readonly { driver: string }[]): DriverCount[] {
  const by = new Map<string, number>();
  for (const c of claims) by.set(c.driver, (by.get(c.driver) ?? 0) + 1);
  return [...by].map(([driver, count]) => ({ driver, count })).sort((a, b) => compareStrings(a.driver, b.driver));
}

export function summarizeBlastRadius(radius: BlastRadius, sample = BLAST_SAMPLE): BlastSummary {
  return {
    node: radius.node,
    identities: radius.identities.map((id) => ({
      subject: id.subject,
      allNodes: id.allNodes,
      statusNodeCount: id.statusNodes.length,
      statusNodes: id.statusNodes.slice(0, sample),
      claimCount: id.claims.length,
      claimsByDriver: countByDriver(id.claims),
      anyNodeClaims: id.claims.some((c) => c.mode === 'arbitrary-node'),
      claims: id.claims.slice(0, sample),
    })),
    allNodes: radius.allNodes,
    otherNodeCount: radius.otherNodes.length,
    otherNodes: radius.otherNodes.slice(0, sample),
    claimCount: radius.claims.length,
    claimsByDriver: countByDriver(radius.claims),
  };
}
