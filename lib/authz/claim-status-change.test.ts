import { describe, expect, it } from 'vitest';
import { claimStatusChange, requestsNewAdminAccess } from './claim-status-change';

// pkg/registry/resource/utils.go getModifiedDrivers and the binding check (as facts).
const claim = (status: Record<string, unknown>) => ({ metadata: { name: 'c', namespace: 'ns' }, status });
const dev = (driver: string, device: string, extra: Record<string, unknown> = {}) => ({ driver, pool: 'p', device, ...extra });

describe('claimStatusChange', () => {
  it('sees allocation and reservedFor changes, not key order or nil against empty', () => {
    const alloc = { devices: { results: [{ request: 'r', driver: 'd', pool: 'p', device: 'x' }] } };
    expect(claimStatusChange(claim({}), claim({ allocation: alloc }), 'update').changesBinding).toBe(true);
    expect(claimStatusChange(claim({ reservedFor: [] }), claim({}), 'update').changesBinding).toBe(false);
    expect(
      claimStatusChange(claim({ allocation: { devices: { results: [] }, nodeSelector: null } }), claim({ allocation: { devices: {} } }), 'patch')
        .changesBinding,
    ).toBe(false);
    const reordered = { devices: { results: [{ device: 'x', pool: 'p', driver: 'd', request: 'r' }] } };
    expect(claimStatusChange(claim({ allocation: alloc }), claim({ allocation: reordered }), 'update').changesBinding).toBe(false);
    expect(claimStatusChange(claim({ reservedFor: [{ resource: 'pods', name: 'a', uid: '1' }] }), claim({}), 'update').changesBinding).toBe(true);
  });

  it('lists the drivers whose device entries were added, removed or changed (key: driver, pool, device, shareID)', () => {
    const before = claim({ devices: [dev('a', 'x'), dev('b', 'y'), dev('c', 'z', { shareID: 's1' })] });
    const after = claim({ devices: [dev('a', 'x'), dev('b', 'y', { conditions: [{ type: 'Ready' }] }), dev('c', 'z', { shareID: 's2' }), dev('d', 'w')] });
    expect(claimStatusChange(before, after, 'update')).toEqual({ verb: 'update', changesBinding: false, drivers: ['b', 'c', 'd'] });
    expect(claimStatusChange(after, claim({}), 'patch').drivers).toEqual(['a', 'b', 'c', 'd']);
    expect(claimStatusChange(before, before, 'update').drivers).toEqual([]);
  });

  it('notices a new adminAccess allocation only when the old one had none', () => {
    const admin = { allocation: { devices: { results: [{ adminAccess: true }] } } };
    expect(requestsNewAdminAccess(claim({}), claim(admin))).toBe(true);
    expect(requestsNewAdminAccess(claim(admin), claim(admin))).toBe(false);
    expect(requestsNewAdminAccess(claim({}), claim({}))).toBe(false);
  });
});
