import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLAST_RADII_KEPT, getAnalysis, getBlastRadius } from './get-report';

// Full blast radii list every claim an identity reaches (100,000 on the bench cluster): the server
// keeps only the last few asked for, not one per node ever asked (a crawl of /api/v1/nodes/*/blast-radius
// on a 10,000-node cluster grew the server without bound).

const dir = mkdtempSync(join(tmpdir(), 'dra-posture-radius-'));
const saved = { source: process.env.DRA_POSTURE_SOURCE, snapshot: process.env.DRA_POSTURE_SNAPSHOT };
const NODES = Array.from({ length: BLAST_RADII_KEPT + 5 }, (_, i) => `worker-${String(i).padStart(2, '0')}`);

beforeAll(() => {
  const file = join(dir, 'cluster.json');
  const items = NODES.map((name) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } }));
  writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  process.env.DRA_POSTURE_SOURCE = '';
  process.env.DRA_POSTURE_SNAPSHOT = file;
});

afterAll(() => {
  for (const [k, env] of [
    ['source', 'DRA_POSTURE_SOURCE'],
    ['snapshot', 'DRA_POSTURE_SNAPSHOT'],
  ] as const) {
    if (saved[k] === undefined) delete process.env[env];
    else process.env[env] = saved[k];
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('getBlastRadius', () => {
  it('answers from the cache for a node asked again, and keeps only the most recently asked', async () => {
    const first = await getBlastRadius(NODES[0]);
    expect(await getBlastRadius(NODES[0])).toBe(first);
    for (const n of NODES) await getBlastRadius(n);
    const kept = (await getAnalysis()).blastRadius;
    expect(kept.size).toBe(BLAST_RADII_KEPT);
    expect([...kept.keys()]).toEqual(NODES.slice(-BLAST_RADII_KEPT));
    await expect(getBlastRadius('no-such-node')).rejects.toThrow(/no node named/);
  });
});
