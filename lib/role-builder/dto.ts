import type { ApplyCheck, whoCanApply } from './who-can-apply';
import type { ApprovalRecord } from './approval';
import type { RoleReview } from './review-role';

// Shapes of the role-builder API (app/api/v1/role-builder), shared by the server and the page.

export interface RoleBuildResponse extends RoleReview {
  sourceFingerprint: string;
  /**
   * Decisions recorded about exactly this YAML (newest first), and earlier decisions about the same
   * persona and identity whose YAML differs (no longer valid); or why they could not be read.
   */
  decisions: { records: ApprovalRecord[]; superseded: ApprovalRecord[] } | { error: string };
  /** Who in the cluster could apply the bundle (each object created through the whole admission chain). */
  appliers: ReturnType<typeof whoCanApply>;
}

/** What the page sends to record a decision: the answers, the YAML's digest and the cluster version it was reviewed on. */
export interface DecisionRequestBody {
  build: BuildRequestBody;
  yamlSha256: string;
  sourceFingerprint?: string;
  decision: 'approve' | 'reject';
  approver?: string;
  comment: string;
}

export interface DecisionResponse {
  record: ApprovalRecord;
  /** The export with the approval annotations (approvals only). */
  approvedYaml?: string;
  /** Approvals: whether the approver, as a Kubernetes user of that name, could apply the bundle, and without escalate or bind. */
  approverCheck?: ApplyCheck;
}

export interface ApprovalsResponse {
  approvals: (ApprovalRecord & { approvedYaml?: string })[];
  currentFingerprint: string;
}

/** The wizard's answers as the build route takes them. */
export interface BuildRequestBody {
  persona: string;
  identity: { kind: 'ServiceAccount'; namespace: string; name: string } | { kind: 'User' | 'Group'; name: string };
  drivers: string[];
  namespace?: string;
  customRules?: string;
}

/** What the page offers as choices, from the current cluster. */
export interface BuilderOptions {
  drivers: string[];
  namespaces: string[];
  serviceAccounts: string[];
  kubernetesVersion: string | null;
  /** Roles, ClusterRoles and their bindings in the cluster: what a validation is checked against (the page says so while it runs). */
  rbacObjects: number;
}
