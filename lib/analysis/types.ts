import type { ObjectRef, SubjectRef } from '@/lib/k8s/types';
import type { SourceKind } from '@/lib/k8s/cluster-state';
import type { ActivityReport } from '@/lib/audit/activity-types';
import type { ClusterConfig } from '@/lib/authz/cluster-config';

// The report contract (DESIGN.md §5) shared by the CLI, the HTTP API, the UI and exports.

import type { CheckId } from './catalog';
import type { Severity } from './severity';

export { SEVERITIES, type Severity } from './severity';
export type { CheckId } from './catalog';

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
  /** The issue (check + root cause) this finding belongs to: `Report.issues[].id`. */
  issueId: string;
  subjects: SubjectRef[];
  objects: ObjectRef[];
  evidence: Evidence[];
}

/**
 * A finding's words: what the check wrote about it and its own fix. The report's JSON carries them
 * once per issue (`Issue.title`, `Issue.remediation`); the engine keeps them beside the report
 * (`ReportBuild.texts`) for the pages and outputs that show one finding.
 */
export interface FindingText {
  /** The check's title. */
  title: string;
  message: string;
  remediation: string;
}

/** A finding with its words, as the checks produce it. */
export type DetailedFinding = Finding & FindingText;

/** Finding texts by finding ID. */
export type FindingTexts = ReadonlyMap<string, FindingText>;

/**
 * Findings grouped by cause: one issue per check and root cause (the roles that grant it, the
 * workload, the DeviceClass, the object, or the check itself for namespace-level gaps), ranked by risk.
 */
export interface Issue {
  /** Stable: a hash of the check ID and the root-cause refs. */
  id: string;
  check: CheckId;
  severity: Severity;
  /** The check's title and the root cause in words. */
  title: string;
  /** What a person changes (empty for a check-level gap: one policy for every affected namespace). */
  rootCause: ObjectRef[];
  /** Distinct subjects and objects the findings are about (root-cause refs left out), by kind. */
  affected: Record<string, number>;
  findingIds: string[];
  /** One fix for the whole group. */
  remediation: string;
  /**
   * The fix as changes the engine applied to a copy of the cluster and checked (lib/analysis/fixes/),
   * or why no change passes; absent for checks without a structured fix.
   */
  fix?: IssueFix;
  risk: IssueRisk;
}

/** A SubjectAccessReview spec (v1 field names): the request the API server is asked about. */
export interface ReviewSpec {
  user: string;
  groups: string[];
  extra: Record<string, string[]>;
  resourceAttributes: { verb: string; group: string; resource: string; subresource: string; namespace: string; name: string };
}

/**
 * One object change a platform team applies: a patch of an existing object (a JSON merge patch for
 * RBAC objects, whose lists it replaces whole; a strategic merge patch for workloads, whose
 * containers it merges by name), or a new object.
 */
export type FixChange =
  | { action: 'patch'; target: ObjectRef; apiVersion: string; patchType: 'merge' | 'strategic'; patch: Record<string, unknown>; why: string }
  | { action: 'create'; object: Record<string, unknown>; why: string };

/** A request whose answer the fix decides: refused after it (`removed`) or still allowed (`kept`). */
export interface FixProbe {
  expect: 'allowed' | 'denied';
  text: string;
  review: ReviewSpec;
  /**
   * Set when the request is a write of this object, decided by authorization and then by admission
   * (the API server's checks on the object and the ValidatingAdmissionPolicies a fix adds): the
   * review's user sends it (a client checks it with a dryRun=All create or delete as that user).
   */
  write?: { operation: 'CREATE' | 'DELETE'; object: Record<string, unknown> };
}

/**
 * A remediation as changes. `verified`: applied to a copy of the cluster, the finding's capability
 * is gone for every holder, what each holder needs still holds, and the objects are valid for the
 * API server. `none`: no change passed those checks (`reason` says why); nothing to apply.
 */
export interface IssueFix {
  status: 'verified' | 'none';
  changes: FixChange[];
  /** The requests that decide it, as the engine answered them after the changes (see probesNotListed). */
  probes: FixProbe[];
  /**
   * More requests the engine decided as expected but that are not listed: a fix across hundreds of
   * namespaces checks thousands (16 MiB of one large cluster's report). The list keeps every write
   * and the first LISTED_PROBES_PER_EXPECTATION reviews expected denied and allowed. Absent when all are listed.
   */
  probesNotListed?: number;
  /** What was checked, in words. */
  checks: string[];
  /** Why no safe automatic fix exists (status none), or what the changes leave to a person (verified). */
  reason?: string;
  /**
   * Other issues whose verified fixes change an object this fix changes or creates (their IDs). Each
   * fix is made and checked against today's cluster, and a patch replaces the object's whole list:
   * applied one after the other as printed, the later one undoes the earlier one's change.
   */
  sharesObjectsWith?: string[];
}

/** Risk = severity × reach × exposure (lib/analysis/issues/risk.ts), each part explained. */
export interface IssueRisk {
  score: number;
  severity: number;
  /** 1 + log10(1 + nodes + claims + tenant namespaces reached); 2 + log10(1 + every node, claim and namespace) for full control of the cluster. */
  reach: number;
  /** The largest exposure multiplier of the identities behind the issue (1 when none applies). */
  exposure: number;
  /** The score's parts in words, reach first, then exposure. */
  reasons: string[];
}

/** One step of an attack path: what happens, and for a request, the review the engine allowed and why. */
export interface AttackStep {
  text: string;
  /** A SubjectAccessReview spec (v1 field names) that the API server answers the same way. */
  review?: {
    user: string;
    groups: string[];
    extra: Record<string, string[]>;
    resourceAttributes: { verb: string; group: string; resource: string; subresource: string; namespace: string; name: string };
  };
  evidence?: Evidence[];
}

/** From a foothold to an impact, for one of the highest-risk issues (computed by the engine). */
export interface AttackPath {
  issueId: string;
  /** The identity whose credentials the attacker uses. */
  subject: SubjectRef;
  foothold: string;
  impact: string;
  steps: AttackStep[];
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
 * `Report.allNodes` (see `writersOfNode` in lib/analysis/node-writers/writers-of-node.ts for the full list of a node).
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

/** lib/authz/cluster-config.ts ClusterConfig, without its notes (they are in the report's warnings). */
export type ReportClusterConfig = Omit<ClusterConfig, 'notes'>;

export interface Report {
  /** 2 since findings carry no title, message or remediation (their issue does). */
  schemaVersion: 2;
  source: { kind: SourceKind; name: string; collectedAt: string | null; kubernetesVersion: string | null };
  summary: Record<Severity, number>;
  /** Findings grouped by cause, highest risk first; every finding is in exactly one issue. */
  issues: Issue[];
  /** For the highest-risk issues, a foothold-to-impact chain, each request step as a SubjectAccessReview. */
  attackPaths: AttackPath[];
  findings: Finding[];
  allNodes: AllNodesWriters;
  nodes: NodeReport[];
  quotas: QuotaUsage[];
  deviceClasses: DeviceClassReport[];
  warnings: string[];
  /**
   * The API server configuration the analysis applied: authorizer chain, NodeRestriction and feature
   * gates, each with where it came from (absent in reports made before it existed).
   */
  clusterConfig?: ReportClusterConfig;
  /** Present when an audit log was read (--audit): what identities did in the window. */
  activity?: ActivityReport;
  /**
   * True when the source could not read some kinds in full (403): `warnings` says which, and
   * `checksUnknown` lists the checks whose answer depends on them. Absent when everything was read.
   */
  partial?: true;
  /** The checks that cannot be trusted on this partial data: "unknown", never a pass (present with `partial`). */
  checksUnknown?: ReportCheckUnknown[];
}

/** A check whose answer is unknown because the source could not read a kind it needs. */
export interface ReportCheckUnknown {
  id: CheckId;
  /** The kinds it needs and the source could not read in full, sorted. */
  kinds: string[];
  reason: string;
}
