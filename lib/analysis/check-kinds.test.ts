import { beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '@/lib/k8s/kinds';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReport } from '@/lib/report/build-report';
import { loadDemo } from '@/server/sources/demo-source';
import { CATALOG, type CheckId } from './catalog';
import { checksUnknownFor, kindsCheckNeeds } from './check-kinds';

/** Finding IDs per check. */
function findingsByCheck(state: ClusterState): Map<CheckId, string[]> {
  const out = new Map<CheckId, string[]>();
  for (const f of buildReport(state).findings) out.set(f.check, [...(out.get(f.check) ?? []), f.id]);
  for (const ids of out.values()) ids.sort();
  return out;
}

describe('checksUnknownFor', () => {
  it('nothing unread: no unknown checks', () => {
    expect(checksUnknownFor([])).toEqual([]);
  });

  it('RoleBindings unread: every cluster check is unknown (all of them ask RBAC who can do what); audit-log checks are not', () => {
    const unknown = checksUnknownFor([{ kind: 'RoleBinding', reason: 'forbidden' }]);
    const ids = unknown.map((u) => u.id);
    const cluster = (Object.keys(CATALOG) as CheckId[]).filter((id) => CATALOG[id].family !== 'AUDIT');
    expect(ids).toEqual(cluster);
    expect(ids.some((id) => id.startsWith('AUDIT'))).toBe(false);
    expect(unknown[0]).toEqual({ id: cluster[0], kinds: ['RoleBinding'], reason: expect.stringContaining('RoleBinding') });
  });

  it('ResourceQuotas unread: the quota checks only', () => {
    expect(checksUnknownFor([{ kind: 'ResourceQuota', reason: 'forbidden' }]).map((u) => u.id)).toEqual(['QUOTA001', 'QUOTA002', 'QUOTA003', 'QUOTA004']);
  });

  it('several kinds: each check lists the unread kinds it needs, once and sorted', () => {
    const unknown = checksUnknownFor([
      { kind: 'Role', reason: 'a' },
      { kind: 'ResourceQuota', reason: 'b' },
      { kind: 'Role', reason: 'c' },
    ]);
    expect(unknown.find((u) => u.id === 'QUOTA001')?.kinds).toEqual(['ResourceQuota', 'Role']);
    expect(unknown.find((u) => u.id === 'DRA001')?.kinds).toEqual(['Role']);
  });
});

// Soundness on the demo: removing every object of a kind may change a check's findings only if that
// check is declared to need the kind; otherwise a 403 on it would pass silently.
describe('kindsCheckNeeds covers what the checks read (demo)', () => {
  let demo: ClusterState;
  let full: Map<CheckId, string[]>;
  beforeAll(async () => {
    demo = await loadDemo();
    full = findingsByCheck(demo);
  }, 60_000);

  it.each(KINDS.filter((k) => k.kind !== 'ConfigMap').map((k) => [k.kind, k.collection] as const))(
    'without %s',
    (kind, collection) => {
      const without = { ...demo, [collection]: [] } as ClusterState;
      const got = findingsByCheck(without);
      const changed = (Object.keys(CATALOG) as CheckId[]).filter((id) => JSON.stringify(full.get(id) ?? []) !== JSON.stringify(got.get(id) ?? []));
      const undeclared = changed.filter((id) => !kindsCheckNeeds(id).has(kind));
      expect(undeclared, `checks whose findings change without ${kind}`).toEqual([]);
    },
    60_000,
  );

  it('the demo does exercise the rule: removing RoleBindings changes findings', () => {
    const got = findingsByCheck({ ...demo, roleBindings: [] });
    expect(JSON.stringify([...got])).not.toEqual(JSON.stringify([...full]));
  });
});
