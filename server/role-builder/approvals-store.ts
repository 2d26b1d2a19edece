import 'server-only';
import { randomUUID } from 'node:crypto';
import { getStore } from '@/server/store/get-store';
import type { StoreFeature } from '@/server/store/open-store';
import type { ApprovalRecord, Decision } from '@/lib/role-builder/approval';

// Append only: a decision is never edited or deleted; the history is the audit trail.
export const APPROVALS_FEATURE: StoreFeature = {
  name: 'approvals',
  migrations: [
    `CREATE TABLE role_approvals (
       id TEXT PRIMARY KEY,
       decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
       approver TEXT NOT NULL,
       comment TEXT NOT NULL,
       at TEXT NOT NULL,
       yaml_sha256 TEXT NOT NULL,
       source_fingerprint TEXT NOT NULL,
       persona TEXT NOT NULL,
       identity TEXT NOT NULL,
       input_json TEXT NOT NULL,
       yaml TEXT NOT NULL
     )`,
    'CREATE INDEX role_approvals_sha ON role_approvals (yaml_sha256, at)',
    // serve --auth kubernetes: the approver is the signed-in user (TokenReview), with their groups.
    `ALTER TABLE role_approvals ADD COLUMN approver_groups TEXT NOT NULL DEFAULT '[]';
     ALTER TABLE role_approvals ADD COLUMN approver_authenticated INTEGER NOT NULL DEFAULT 0`,
  ],
};

interface Row {
  id: string;
  decision: Decision;
  approver: string;
  comment: string;
  at: string;
  yaml_sha256: string;
  source_fingerprint: string;
  persona: string;
  identity: string;
  input_json: string;
  yaml: string;
  approver_groups: string;
  approver_authenticated: number;
}

const toRecord = (r: Row): ApprovalRecord => ({
  id: r.id,
  decision: r.decision,
  approver: r.approver,
  ...(r.approver_authenticated ? { approverGroups: JSON.parse(r.approver_groups) as string[], approverAuthenticated: true } : {}),
  comment: r.comment,
  at: r.at,
  yamlSha256: r.yaml_sha256,
  sourceFingerprint: r.source_fingerprint,
  persona: r.persona,
  identity: r.identity,
  input: JSON.parse(r.input_json),
  yaml: r.yaml,
});

export function recordDecision(entry: Omit<ApprovalRecord, 'id' | 'at'>, at = new Date()): ApprovalRecord {
  const record: ApprovalRecord = { ...entry, id: randomUUID(), at: at.toISOString() };
  getStore(APPROVALS_FEATURE).write((db) =>
    db
      .prepare(
        `INSERT INTO role_approvals (id, decision, approver, comment, at, yaml_sha256, source_fingerprint, persona, identity, input_json, yaml,
                                     approver_groups, approver_authenticated)
         VALUES (@id, @decision, @approver, @comment, @at, @yamlSha256, @sourceFingerprint, @persona, @identity, @inputJson, @yaml,
                 @approverGroupsJson, @approverAuthenticatedFlag)`,
      )
      .run({
        ...record,
        inputJson: JSON.stringify(record.input),
        approverGroupsJson: JSON.stringify(record.approverGroups ?? []),
        approverAuthenticatedFlag: record.approverAuthenticated ? 1 : 0,
      }),
  );
  return record;
}

/** Every decision, newest first. */
export function listDecisions(limit = 500): ApprovalRecord[] {
  return getStore(APPROVALS_FEATURE).read((db) =>
    (db.prepare('SELECT * FROM role_approvals ORDER BY at DESC, id DESC LIMIT ?').all(limit) as Row[]).map(toRecord),
  );
}

/** Decisions about the same persona and identity, whatever the YAML, newest first. */
export function decisionsAbout(persona: string, identity: string): ApprovalRecord[] {
  return getStore(APPROVALS_FEATURE).read((db) =>
    (db.prepare('SELECT * FROM role_approvals WHERE persona = ? AND identity = ? ORDER BY at DESC, id DESC').all(persona, identity) as Row[]).map(toRecord),
  );
}
