import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Drift } from '@/lib/compliance/drift';
import { bindingSubjects, draPermissions, permissionScope } from '@/lib/compliance/dra-permissions';
import { describeSubject } from '@/lib/k8s/refs';
import { openBundle } from '@/server/sources/bundle-source';
import { runCli as run } from '@/server/cli/__fixtures__/run-cli';
import { generateCluster, ns, saName, type ClusterSize } from '@/scripts/bench/generate-cluster';
import { writeChangedCluster } from '@/scripts/bench/drift-changes';

// Drift at scale (issue #26): a generated cluster of 2,000 nodes (~60,000 objects) and a copy with the
// bench's known change (drift-changes.ts), each exported as a bundle, compared with `diff`. The drift
// must name exactly the change: a quota removed, a claim-user binding removed, two grants added, and
// what they imply, and nothing else. The large cluster's pair is measured by `npm run bench:drift`.

const SIZE: ClusterSize = { namespaces: 4_000, nodes: 2_000, serviceAccounts: 8_000, pods: 30_000, resourceClaims: 12_000 };
const dir = mkdtempSync(join(tmpdir(), 'dra-drift-scale-'));
const a = join(dir, 'a.tar');
const b = join(dir, 'b.tar');
let drift: Drift;

beforeAll(async () => {
  await generateCluster(join(dir, 'a.json'), SIZE, 42, 'stamped');
  expect(await writeChangedCluster(join(dir, 'a.json'), join(dir, 'b.json'))).toBe(2);
  expect((await run('export', '--snapshot', join(dir, 'a.json'), '--out', a)).code).toBe(0);
  expect((await run('export', '--snapshot', join(dir, 'b.json'), '--out', b)).code).toBe(0);
  const r = await run('diff', a, b, '-o', 'json');
  expect(r.code).toBe(1);
  drift = JSON.parse(r.out) as Drift;
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// RBAC semantics: tenant-claim-user grants these verbs on resourceclaims and resourceclaimtemplates
// (generate-cluster.ts), so ns-2's app and runner lose them there when app-claims goes.
const CLAIM_USER_LINES = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']
  .flatMap((verb) => [`${verb} resourceclaims in ns-2`, `${verb} resourceclaimtemplates in ns-2`])
  .sort();

describe('drift between two bundles of a 2,000-node cluster', () => {
  it('names the permission changes of the four identities the change touches, and no other', () => {
    const ns2 = (sa: string) => ({ kind: 'ServiceAccount', namespace: ns(2), name: sa });
    expect(drift.permissions).toEqual(
      [
        { subject: ns2(saName(2)), gained: [], lost: CLAIM_USER_LINES },
        { subject: ns2(saName(2 + SIZE.namespaces)), gained: [], lost: CLAIM_USER_LINES },
        {
          subject: { kind: 'ServiceAccount', namespace: 'operators', name: 'operator-1' },
          gained: ['patch resourceclaims/status (all namespaces)', 'update resourceclaims/status (all namespaces)'],
          lost: [],
        },
        { subject: { kind: 'User', name: 'drift-node-agent' }, gained: ['patch nodes/status [node-3]', 'update nodes/status [node-3]'], lost: [] },
      ].sort((x, y) => (describeSubject(x.subject as never) < describeSubject(y.subject as never) ? -1 : 1)),
    );
  });

  it('asks only changed identities, and misses none: every identity asked on both whole clusters gives the same changes', () => {
    const before = openBundle(readFileSync(a), 'a.tar').state;
    const after = openBundle(readFileSync(b), 'b.tar').state;
    const subjects = new Map([...bindingSubjects(before), ...bindingSubjects(after)].map((s) => [describeSubject(s), s]));
    expect(subjects.size).toBeGreaterThan(SIZE.serviceAccounts);
    const scope = permissionScope([before, after]);
    const p = draPermissions(before, [...subjects.values()], scope);
    const q = draPermissions(after, [...subjects.values()], scope);
    const changed = [...subjects.keys()].filter((k) => {
      const x = [...(p.get(k)?.permissions ?? [])].sort().join('\n');
      const y = [...(q.get(k)?.permissions ?? [])].sort().join('\n');
      return x !== y;
    });
    expect(changed.sort()).toEqual(drift.permissions.map((c) => describeSubject(c.subject)).sort());
  }, 300_000);

  it('names the new node-status writer on node-3', () => {
    expect(drift.nodeWriters).toEqual([
      {
        change: 'added',
        kind: 'node-status',
        subject: { kind: 'User', name: 'drift-node-agent' },
        mode: 'rbac',
        scope: 'named',
        nodesGained: ['node-3'],
        nodesLost: [],
      },
    ]);
  });

  it("names every row of ns-1's removed quota, and no other quota or DeviceClass", () => {
    const items = (
      JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as {
        items: { kind: string; metadata: { name: string; namespace?: string }; spec: { hard: Record<string, string> } }[];
      }
    ).items;
    const quota = items.find((o) => o.kind === 'ResourceQuota' && o.metadata.namespace === ns(1) && o.metadata.name === 'dra')!;
    expect(drift.quotas.map((q) => `${q.change} ${q.namespace}/${q.name} ${q.resource} ${q.after === null}`)).toEqual(
      Object.keys(quota.spec.hard)
        .sort()
        .map((r) => `removed ns-1/dra ${r} true`),
    );
    expect(drift.zeroing).toEqual([]);
  });

  it('new findings and issues are about the changed objects only', () => {
    expect(drift.findings.resolved).toEqual([]);
    const checks = drift.findings.added.map((f) => f.check);
    // The operator's status writes without the 1.36 binding and driver grants; ns-1 without a claim
    // count quota, and without a per-class quota for each class its claims use.
    expect(checks.filter((c) => c === 'DRA006')).toHaveLength(1);
    expect(checks.filter((c) => c === 'QUOTA001')).toHaveLength(1);
    expect(checks.filter((c) => c !== 'DRA006' && c !== 'QUOTA001').every((c) => c === 'QUOTA002')).toBe(true);
    expect(checks.filter((c) => c === 'QUOTA002').length).toBeGreaterThan(0);
    for (const f of drift.findings.added) expect(f.message).toMatch(f.check === 'DRA006' ? /operators\/operator-1/ : /Namespace ns-1\b/);
    expect(new Set(drift.issues.map((i) => i.check))).toEqual(new Set(checks));
    for (const i of drift.issues) expect(i.findingsAfter - i.findingsBefore).toBe(checks.filter((c) => c === i.check).length);
  });

  it('a bundle against itself: no drift, exit 0', async () => {
    const r = await run('diff', b, b);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Permission changes on DRA resources \(0 identities\)/);
  }, 120_000);
});
