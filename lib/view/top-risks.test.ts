import { describe, expect, it } from 'vitest';
import type { Issue, IssueFix } from '@/lib/analysis/types';
import { topRisks } from './overview';

// Five near-identical top risks (one check on five aggregated roles, all fixed in the one source role)
// read as one row with the others rolled up; issues without a checked fix are never rolled up.

const fixOf = (...roles: string[]): IssueFix => ({
  status: 'verified',
  changes: roles.map((name) => ({
    action: 'patch' as const,
    target: { kind: 'ClusterRole', name },
    apiVersion: 'rbac.authorization.k8s.io/v1',
    patchType: 'merge' as const,
    patch: { rules: [] },
    why: 'remove it',
  })),
  probes: [],
  checks: [],
});
const issue = (id: string, check: string, score: number, fix?: IssueFix): Issue => ({
  id,
  check: check as Issue['check'],
  severity: 'critical',
  title: `${check} on ${id}`,
  rootCause: [],
  affected: {},
  findingIds: [`${id}-f`],
  remediation: '',
  risk: { score, severity: 10, reach: 1, exposure: 1, reasons: [] },
  ...(fix ? { fix } : {}),
});

describe('topRisks', () => {
  it('rolls issues with the same check and fix target into the first, and fills the list with the next distinct ones', () => {
    const issues = [
      issue('agg-1', 'NODE002', 120.8, fixOf('source')),
      issue('agg-2', 'NODE002', 120.8, fixOf('source')),
      issue('other-check', 'DRA005', 100, fixOf('source')),
      issue('agg-3', 'NODE002', 120.8, fixOf('source')),
      issue('no-fix-1', 'DRA001', 90),
      issue('no-fix-2', 'DRA001', 90),
      issue('elsewhere', 'NODE002', 80, fixOf('another')),
      issue('sixth', 'POD001', 10),
    ];
    const top = topRisks(issues, 5);
    expect(top.map((t) => t.issue.id)).toEqual(['agg-1', 'other-check', 'no-fix-1', 'no-fix-2', 'elsewhere']);
    expect(top[0].alike.map((i) => i.id)).toEqual(['agg-2', 'agg-3']);
    expect(top.slice(1).every((t) => t.alike.length === 0)).toBe(true);
  });

  it('leaves the ranking as it is when nothing shares a fix', () => {
    const issues = [issue('a', 'NODE002', 3, fixOf('x')), issue('b', 'NODE002', 2, fixOf('y')), issue('c', 'DRA001', 1)];
    expect(topRisks(issues, 5).map((t) => [t.issue.id, t.alike.length])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 0],
    ]);
  });
});
