import { describe, expect, it } from 'vitest';
import { checkApprovedYaml, latestDecision, type ApprovalRecord } from './approval';
import { buildBundle } from './build-bundle';
import { GOLDEN_INPUTS } from './golden-inputs';
import { renderBundleYaml } from './render-yaml';
import { sha256Hex } from './sha256';

const bundle = buildBundle(GOLDEN_INPUTS.tenant);
const plain = renderBundleYaml(bundle);
const sha = sha256Hex(plain);
const record = (decision: 'approve' | 'reject', at: string, approver = 'Ada'): ApprovalRecord => ({
  id: `${decision}-${at}`,
  decision,
  approver,
  comment: '',
  at,
  yamlSha256: sha,
  sourceFingerprint: 'f',
  persona: 'tenant',
  identity: 'ServiceAccount tenant-a/batch-runner',
  input: bundle.input,
  yaml: plain,
});
const approved = renderBundleYaml(bundle, { approvedBy: 'Ada', approvedAt: '2026-02-01T00:00:00.000Z', yamlSha256: sha });

describe('checkApprovedYaml', () => {
  it('valid only when the digest matches the annotation and the latest recorded decision approves it', () => {
    expect(checkApprovedYaml(approved, [record('approve', '2026-02-01T00:00:00.000Z')])).toMatchObject({ status: 'valid', record: { approver: 'Ada' } });
    // A later rejection wins over an earlier approval.
    expect(checkApprovedYaml(approved, [record('approve', '2026-02-01T00:00:00.000Z'), record('reject', '2026-03-01T00:00:00.000Z', 'Bob')])).toMatchObject({
      status: 'rejected',
      record: { approver: 'Bob' },
    });
    expect(checkApprovedYaml(approved, [])).toMatchObject({ status: 'unknown', reason: 'no decision about this YAML is recorded in this store' });
    expect(checkApprovedYaml(plain, [record('approve', '2026-02-01T00:00:00.000Z')])).toMatchObject({
      status: 'unknown',
      reason: 'the YAML carries no dra-posture.io/yaml-sha256 annotation',
    });
    expect(checkApprovedYaml(approved.replace('tenant-a', 'tenant-z'), [record('approve', '2026-02-01T00:00:00.000Z')])).toMatchObject({
      status: 'modified',
      claimed: sha,
    });
    expect(checkApprovedYaml('key: [unclosed', [])).toMatchObject({ status: 'unreadable' });
  });

  it('latestDecision picks the newest record for a digest', () => {
    expect(latestDecision([record('approve', '2026-01-01T00:00:00.000Z'), record('reject', '2026-01-02T00:00:00.000Z')], sha)?.decision).toBe('reject');
    expect(latestDecision([record('approve', '2026-01-01T00:00:00.000Z')], '0'.repeat(64))).toBeUndefined();
  });
});
