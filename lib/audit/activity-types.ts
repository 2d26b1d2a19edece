import type { ObjectRef } from '@/lib/k8s/types';
import type { Evidence } from '@/lib/analysis/types';
import type { MalformedLine } from './types';

// The `activity` section of the report (new fields only): what identities did in the audit window.

export const DRA_WRITE_CATEGORIES = [
  'claim',
  'claim-template',
  'claim-status',
  'claim-binding',
  'claim-driver',
  'slice',
  'device-class',
  'node-status',
] as const;
export type DraWriteCategory = (typeof DRA_WRITE_CATEGORIES)[number];

/** One (identity, node, category, verb) row of DRA writes. */
export interface DraWriteRow {
  identity: string;
  /** The node of the requester's pod-bound token, or of a node identity; '' when none. */
  node: string;
  category: DraWriteCategory;
  verb: string;
  /** The identity that was impersonated, when the writes were made through impersonation. */
  impersonated?: string;
  allowed: number;
  denied: number;
  /** The reason of the last denial (authorization reason or response message). */
  deniedReason?: string;
  first: string;
  last: string;
}

export interface ActivityBucket {
  /** Start of the hour, ISO 8601. */
  start: string;
  category: DraWriteCategory;
  allowed: number;
  denied: number;
}

export interface ImpersonationRow {
  requester: string;
  requesterNode: string;
  impersonated: string;
  /** `own-node` when the requester's token is bound to the impersonated node, else `other`. */
  relation: 'own-node' | 'other-node' | 'not-a-node';
  allowed: number;
  denied: number;
}

export interface IdentityActivity {
  identity: string;
  groups: string[];
  nodes: string[];
  events: number;
  allowed: number;
  denied: number;
  first: string;
  last: string;
  /** True when more distinct requests were seen than kept (unused-grant answers are then conservative). */
  truncated: boolean;
}

export interface DeniedSample {
  time: string;
  identity: string;
  node: string;
  impersonated?: string;
  verb: string;
  resource: string;
  namespace: string;
  name: string;
  code?: number;
  reason?: string;
}

export interface CoverageRow {
  group: string;
  resource: string;
  verbs: string[];
  levels: string[];
  events: number;
}

export interface UnusedGrant {
  evidence: Extract<Evidence, { type: 'grant' }>;
  /** The rule touches resource.k8s.io, nodes/status or wildcards. */
  draRelevant: boolean;
  /** Whether the audit log holds any event for what the rule grants (the policy logged it). */
  covered: boolean;
}

export interface IdentityUnusedGrants {
  identity: string;
  unused: UnusedGrant[];
  used: number;
}

export interface ActivityReport {
  window: { first: string | null; last: string | null };
  files: { path: string; events: number; malformed: number; compressed: boolean }[];
  events: number;
  /** Earlier stages of the same requests (RequestReceived, ResponseStarted), not counted as events. */
  skippedStages: number;
  malformed: { count: number; samples: MalformedLine[] };
  /** Whether any request body was logged (Request or RequestResponse level): needed for adminAccess and parameter sizes. */
  requestBodies: boolean;
  coverage: CoverageRow[];
  identities: IdentityActivity[];
  writes: DraWriteRow[];
  timeline: ActivityBucket[];
  impersonation: ImpersonationRow[];
  denied: DeniedSample[];
  unusedGrants: IdentityUnusedGrants[];
  /** Limits reached while streaming (what was dropped). */
  notes: string[];
}

export type { ObjectRef };
