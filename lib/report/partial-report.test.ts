import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report';
import { reportJsonChunks } from './report-json';
import { smallCluster } from './__fixtures__/small-cluster';

// A source that could not read some kinds (403) gives a report marked partial, with the checks that
// need those kinds "unknown": their missing findings must not read as a pass.
describe('partial report', () => {
  it('everything read: no partial flag and no unknown checks (existing reports unchanged)', () => {
    const report = buildReport(smallCluster());
    expect(report).not.toHaveProperty('partial');
    expect(report).not.toHaveProperty('checksUnknown');
  });

  it('RoleBindings forbidden: partial, and the RBAC checks are unknown with the reason', () => {
    const state = smallCluster();
    const reason = 'cannot list rolebindings.rbac.authorization.k8s.io: forbidden by RBAC; results that depend on them are incomplete';
    state.roleBindings = [];
    state.source.unreadKinds = [{ kind: 'RoleBinding', reason }];
    state.warnings.push(reason);
    const report = buildReport(state);
    expect(report.partial).toBe(true);
    const ids = report.checksUnknown!.map((c) => c.id);
    for (const id of ['DRA001', 'DRA003', 'NODE001', 'CLAIM003', 'QUOTA001']) expect(ids).toContain(id);
    expect(ids.filter((id) => id.startsWith('AUDIT'))).toEqual([]);
    expect(report.checksUnknown![0].kinds).toEqual(['RoleBinding']);
    expect(report.warnings).toContain(reason);
    // The JSON the API and CLI serve carries both fields.
    const json = JSON.parse([...reportJsonChunks(report)].join('\n'));
    expect(json.partial).toBe(true);
    expect(json.checksUnknown.length).toBe(ids.length);
  });

  it('ResourceQuotas forbidden: only the quota checks are unknown', () => {
    const state = smallCluster();
    state.source.unreadKinds = [{ kind: 'ResourceQuota', reason: 'cannot list resourcequotas: forbidden by RBAC' }];
    const report = buildReport(state);
    expect(report.partial).toBe(true);
    expect(report.checksUnknown!.map((c) => c.id)).toEqual(['QUOTA001', 'QUOTA002', 'QUOTA003', 'QUOTA004']);
  });
});
