import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeDrift, driftIsEmpty, type Drift } from '@/lib/compliance/drift';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { buildReport } from '@/lib/report/build-report';
import { findDemo, loadDemo } from '@/server/sources/demo-source';

// Drift between the bundled demo and a copy with four hand-made changes: each change must be
// reported, and nothing else.

const root = findDemo()!.manifests;

function editedDemo(edit: (dir: string) => void): Promise<ClusterState> {
  const dir = mkdtempSync(join(tmpdir(), 'dra-drift-'));
  cpSync(root, dir, { recursive: true });
  edit(dir);
  return loadDemo({ location: { manifests: dir } });
}

function replaceIn(dir: string, file: string, from: string | RegExp, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`edit of ${file} changed nothing`);
  writeFileSync(path, next);
}

const ADDED_BINDING = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: mallory-deviceclass-writer
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: tenant-deviceclass-writer
subjects:
- apiGroup: rbac.authorization.k8s.io
  kind: User
  name: mallory
`;

let before: ClusterState;
let after: ClusterState;
let drift: Drift;

beforeAll(async () => {
  before = await loadDemo();
  after = await editedDemo((dir) => {
    // 1. a dangerous binding is added
    writeFileSync(join(dir, '99-drift.yaml'), ADDED_BINDING);
    // 2. the cluster-wide nodes/status binding of the intel reporter is deleted
    replaceIn(
      dir,
      '43-rbac-dangerous.yaml',
      /apiVersion: rbac.authorization.k8s.io\/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: intel-reporter-node-status\n[\s\S]*?\n---\n/,
      '',
    );
    // 3. tenant-a's claim-count quota goes from 8 to 10 (6 of 10 used: no finding either way)
    replaceIn(
      dir,
      '70-quotas.yaml',
      /(name: tenant-a-dra[\s\S]*?)count\/resourceclaims.resource.k8s.io: '8'([\s\S]*?)count\/resourceclaims.resource.k8s.io: '8'/,
      "$1count/resourceclaims.resource.k8s.io: '10'$2count/resourceclaims.resource.k8s.io: '10'",
    );
    // 4. the Intel class loses its zeroing annotation
    replaceIn(dir, '20-device-classes.yaml', "    dra-posture.io/zero-on-release: 'true'\n", '');
  });
  drift = computeDrift({ report: buildReport(before), state: before, label: 'before' }, { report: buildReport(after), state: after, label: 'after' });
});

describe('drift between two versions of the demo', () => {
  it('reports nothing between a cluster and itself', async () => {
    const again = await loadDemo();
    const d = computeDrift({ report: buildReport(before), state: before, label: 'a' }, { report: buildReport(again), state: again, label: 'b' });
    expect(driftIsEmpty(d)).toBe(true);
  });

  it('new and resolved findings', () => {
    const added = drift.findings.added.map((f) => `${f.check} ${f.message.split(' ').slice(0, 3).join(' ')}`);
    expect(drift.findings.added.map((f) => f.check).sort()).toEqual(['DRA003', 'ZERO001', 'ZERO002']);
    expect(added.find((l) => l.startsWith('DRA003'))).toMatch(/mallory/);
    expect(drift.findings.added.filter((f) => f.check.startsWith('ZERO')).every((f) => f.message.includes('gpu.intel.com'))).toBe(true);
    expect(drift.findings.resolved.map((f) => f.check)).toEqual(['NODE001']);
    expect(drift.findings.resolved[0].message).toMatch(/kube-system\/intel-reporter/);
  });

  it('permission changes per identity', () => {
    expect(drift.permissions).toEqual([
      {
        subject: { kind: 'ServiceAccount', namespace: 'kube-system', name: 'intel-reporter' },
        gained: [],
        lost: ['patch nodes/status [any node]', 'update nodes/status [any node]'],
      },
      {
        subject: { kind: 'User', name: 'mallory' },
        gained: ['create deviceclasses', 'get deviceclasses', 'list deviceclasses', 'patch deviceclasses', 'update deviceclasses', 'watch deviceclasses'],
        lost: [],
      },
    ]);
  });

  it('node-writer changes', () => {
    expect(drift.nodeWriters).toEqual([
      {
        change: 'removed',
        kind: 'node-status',
        subject: { kind: 'ServiceAccount', namespace: 'kube-system', name: 'intel-reporter' },
        mode: 'rbac',
        scope: 'all-nodes',
        nodesGained: [],
        nodesLost: buildReport(before).nodes.map((n) => n.name),
      },
    ]);
  });

  it('quota and zeroing changes', () => {
    expect(drift.quotas).toEqual([
      {
        change: 'changed',
        namespace: 'tenant-a',
        name: 'tenant-a-dra',
        resource: 'count/resourceclaims.resource.k8s.io',
        before: { hard: '8', used: '5', computedUsed: '6' },
        after: { hard: '10', used: '5', computedUsed: '6' },
      },
    ]);
    expect(drift.zeroing).toEqual([{ change: 'changed', name: 'gpu.intel.com', before: 'configured', after: 'missing' }]);
  });
});
