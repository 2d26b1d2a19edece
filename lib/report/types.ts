import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import type { SourceKind } from '@/lib/k8s/cluster-state';

// The report contract (DESIGN.md §5) shared by the CLI, the HTTP API, the UI and exports.

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export type CheckId =
  | 'DRA001'
  | 'DRA002'
  | 'DRA003'
  | 'DRA004'
  | 'DRA005'
  | 'DRA006'
  | 'DRA007'
  | 'DRA008'
  | 'DRA009'
  | 'NODE001'
  | 'NODE002'
  | 'NODE003'
  | 'NODE004'
  | 'NODE005'
  | 'CLAIM001'
  | 'CLAIM002'
  | 'CLAIM003'
  | 'CLAIM004'
  | 'CLAIM005'
  | 'QUOTA001'
  | 'QUOTA002'
  | 'QUOTA003'
  | 'QUOTA004'
  | 'ZERO001'
  | 'ZERO002'
  | 'POD001'
  | 'POD002'
  | 'POD003'
  | 'POD004';

/** One step of why a finding exists: a grant (binding → role → rule) or an object field. */
export type Evidence =
  | {
      type: 'grant';
      binding: ObjectRef;
      role: ObjectRef;
      ruleIndex: number;
      rule: { verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
      aggregatedFrom?: string;
    }
  | { type: 'field'; object: ObjectRef; path: string; value: unknown }
  | { type: 'note'; text: string };

export interface Finding {
  /** Stable: a hash of the check ID and the refs it is about. */
  id: string;
  check: CheckId;
  severity: Severity;
  title: string;
  subjects: SubjectRef[];
  objects: ObjectRef[];
  message: string;
  evidence: Evidence[];
  remediation: string;
}

export type StatusWriterMode = 'node-authorizer' | 'constrained-impersonation' | 'rbac' | 'impersonation';

export interface NodeStatusWriter {
  subject: SubjectRef;
  mode: StatusWriterMode;
  scope: 'own-node' | 'all-nodes' | 'named';
  via: Evidence[];
}

export interface ClaimStatusWriter {
  driver: string;
  subject: SubjectRef;
  mode: 'associated-node' | 'arbitrary-node';
  via: Evidence[];
}

/**
 * One node. Writers that reach every node are not repeated here but listed once in
 * `Report.allNodes` (see `writersOfNode` in lib/report/node-writers.ts for the full list of a node).
 */
export interface NodeReport {
  name: string;
  /** Writers of this node's nodes/status specific to it (own-node, named). */
  statusWriters: NodeStatusWriter[];
  /** Drivers with claims allocated on this node (the `allNodes` claim writers of these apply here). */
  claimDrivers: string[];
  /** Writers of status.devices of claims allocated here, beyond `allNodes.claimStatusWriters`. */
  claimStatusWriters: ClaimStatusWriter[];
}

/** Writers of every node: nodes/status of all nodes; status.devices of every claim of a driver. */
export interface AllNodesWriters {
  statusWriters: NodeStatusWriter[];
  claimStatusWriters: ClaimStatusWriter[];
}

export interface QuotaUsage {
  namespace: string;
  name: string;
  resource: string;
  hard: string;
  used: string | null;
  computedUsed: string;
}

export interface DeviceClassReport {
  name: string;
  driver: string | null;
  zeroing: 'configured' | 'missing' | 'unknown';
  usedByNamespaces: string[];
}

export interface Report {
  schemaVersion: 1;
  source: { kind: SourceKind; name: string; collectedAt: string | null; kubernetesVersion: string | null };
  summary: Record<Severity, number>;
  findings: Finding[];
  allNodes: AllNodesWriters;
  nodes: NodeReport[];
  quotas: QuotaUsage[];
  deviceClasses: DeviceClassReport[];
  warnings: string[];
}
