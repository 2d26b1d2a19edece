import { stripApproval } from './render-yaml';
import { sha256Hex } from './sha256';
import type { BuildInput } from './types';

export type Decision = 'approve' | 'reject';

export interface ApprovalRecord {
  id: string;
  decision: Decision;
  /** Under `serve --auth kubernetes` the signed-in Kubernetes user; otherwise the name the approver typed. */
  approver: string;
  /** The signed-in approver's groups, as the API server's TokenReview gave them. */
  approverGroups?: string[];
  /** True when the approver is the identity the API server authenticated, not a typed name. */
  approverAuthenticated?: boolean;
  comment: string;
  /** ISO time of the decision. */
  at: string;
  /** SHA-256 of the YAML decided on (without approval annotations). */
  yamlSha256: string;
  /** sourceFingerprint() of the cluster the YAML was validated against. */
  sourceFingerprint: string;
  persona: string;
  identity: string;
  input: BuildInput;
  yaml: string;
}

export type ApprovalCheck =
  | { status: 'valid'; record: ApprovalRecord }
  | { status: 'modified'; claimed: string; actual: string }
  | { status: 'unknown'; actual: string; reason: string }
  | { status: 'rejected'; record: ApprovalRecord }
  | { status: 'unreadable'; reason: string };

/**
 * Checks an exported YAML against the recorded decisions: the digest of the YAML without the approval
 * annotations must equal the digest in the annotations and that of a recorded approval. Any edit,
 * including comments, makes it "modified".
 */
export function checkApprovedYaml(text: string, records: readonly ApprovalRecord[]): ApprovalCheck {
  let stripped;
  try {
    stripped = stripApproval(text);
  } catch (e) {
    return { status: 'unreadable', reason: (e as Error).message };
  }
  const actual = sha256Hex(stripped.yaml);
  const claimed = stripped.stamp.yamlSha256;
  if (!claimed) return { status: 'unknown', actual, reason: 'the YAML carries no dra-posture.io/yaml-sha256 annotation' };
  if (claimed !== actual) return { status: 'modified', claimed, actual };
  const latest = records.filter((r) => r.yamlSha256 === actual).sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))[0];
  if (!latest) return { status: 'unknown', actual, reason: 'no decision about this YAML is recorded in this store' };
  return latest.decision === 'approve' ? { status: 'valid', record: latest } : { status: 'rejected', record: latest };
}

/** The latest decision about a YAML digest, if any. */
export function latestDecision(records: readonly ApprovalRecord[], yamlSha256: string): ApprovalRecord | undefined {
  return records.filter((r) => r.yamlSha256 === yamlSha256).sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))[0];
}

/** The approved export of a recorded approval, or undefined when today's builder no longer produces the same YAML. */
export function approvedYamlFor(
  record: ApprovalRecord,
  build: (input: BuildInput) => { yaml: string; approved: (stamp: { approvedBy: string; approvedAt: string; yamlSha256: string }) => string },
): string | undefined {
  if (record.decision !== 'approve') return undefined;
  const { yaml, approved } = build(record.input);
  if (sha256Hex(yaml) !== record.yamlSha256) return undefined;
  return approved({ approvedBy: record.approver, approvedAt: record.at, yamlSha256: record.yamlSha256 });
}
