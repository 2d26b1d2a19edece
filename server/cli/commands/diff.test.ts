import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Drift } from '@/lib/compliance/drift';
import { saveSnapshot } from '@/server/compliance/snapshot-store';
import { closeStores } from '@/server/store/get-store';
import { findDemo } from '@/server/sources/demo-source';
import { runCli as run } from '../__fixtures__/run-cli';

// `dra-posture diff A B` between bundle files and between stored snapshots (a real SQLite file).

const dir = mkdtempSync(join(tmpdir(), 'dra-diff-'));
const previousStore = process.env.DRA_POSTURE_STORE;
const a = join(dir, 'a.tar');
const b = join(dir, 'b.tar');

beforeAll(async () => {
  process.env.DRA_POSTURE_STORE = join(dir, 'store.sqlite');
  const edited = join(dir, 'edited');
  cpSync(findDemo()!.manifests, edited, { recursive: true });
  const file = join(edited, '43-rbac-dangerous.yaml');
  // The cluster-wide nodes/status binding of the intel reporter is deleted.
  const text = readFileSync(file, 'utf8');
  const next = text.replace(
    /apiVersion: rbac.authorization.k8s.io\/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: intel-reporter-node-status\n[\s\S]*?\n---\n/,
    '',
  );
  expect(next).not.toBe(text);
  writeFileSync(file, next);
  expect((await run('export', '--demo', '--out', a)).code).toBe(0);
  expect((await run('export', '--snapshot', edited, '--out', b)).code).toBe(0);
});

afterAll(() => {
  closeStores();
  if (previousStore === undefined) delete process.env.DRA_POSTURE_STORE;
  else process.env.DRA_POSTURE_STORE = previousStore;
});

describe('dra-posture diff', () => {
  it('exits 0 for a bundle against itself', async () => {
    const r = await run('diff', a, a);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/New findings \(0\)/);
  });

  it('lists the changes between two bundles and exits 1', async () => {
    const r = await run('diff', a, b);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/Resolved findings \(1\):\n {2}- \[high\] NODE001 /);
    expect(r.out).toMatch(/ServiceAccount kube-system\/intel-reporter\n {4}- patch nodes\/status \[any node\]\n {4}- update nodes\/status \[any node\]/);
    expect(r.out).toMatch(/- node-status ServiceAccount kube-system\/intel-reporter \(rbac, all-nodes\): -\d+ nodes/);
    const json = JSON.parse((await run('diff', a, b, '-o', 'json')).out) as Drift;
    expect(json.findings.resolved.map((f) => f.check)).toEqual(['NODE001']);
    expect(json.findings.added).toEqual([]);
  });

  it('reads stored snapshots by id', async () => {
    const store = (path: string, takenAt: string, fingerprint: string) =>
      saveSnapshot(
        { takenAt, sourceKind: 'demo', sourceName: 'demo', fingerprint, summary: { critical: 0, high: 0, medium: 0, low: 0, info: 0 }, findings: 0 },
        new Uint8Array(readFileSync(path)),
      );
    const first = store(a, '2026-01-01T00:00:00.000Z', 'aaaaaaaaaaaa0000');
    const second = store(b, '2026-01-02T00:00:00.000Z', 'bbbbbbbbbbbb0000');
    const r = await run('diff', first.id, second.id);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^Drift from snap-aaaaaaaaaaaa \(2026-01-01T00:00:00.000Z\) to snap-bbbbbbbbbbbb/);
    expect(r.out).toMatch(/NODE001/);
  });

  it('usage errors: wrong count, unknown argument, a damaged bundle', async () => {
    expect(await run('diff', a)).toMatchObject({ code: 2, err: expect.stringMatching(/expected two snapshots/) });
    expect(await run('diff', a, 'snap-000000000000')).toMatchObject({ code: 2, err: expect.stringMatching(/no stored snapshot snap-000000000000/) });
    expect(await run('diff', a, 'nonsense')).toMatchObject({ code: 2, err: expect.stringMatching(/neither a bundle file nor a stored snapshot id/) });
    const bytes = readFileSync(b);
    bytes[bytes.indexOf('intel-gpu-sa', 2048)] ^= 1;
    const damaged = join(dir, 'damaged.tar');
    writeFileSync(damaged, bytes);
    expect(await run('diff', a, damaged)).toMatchObject({ code: 2, err: expect.stringMatching(/damaged\.tar.*bundle does not verify/) });
  });
});
