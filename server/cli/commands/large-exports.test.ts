import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { verifyBundleBytes } from '@/server/compliance/read-bundle';
import type { CommandIO } from '../command-io';
import { main } from '../main';

// Issue #26: `report -o markdown` and `export` exited 1 with "Maximum call stack size exceeded" on a
// large cluster. A snapshot whose report has as many Markdown lines (1,500 tenant namespaces, each
// with a ResourceQuota of 100 DRA device-class limits: 150,000 quota rows; a ResourceQuota reports
// one row per DRA hard key), through the CLI as a user runs it.

const dir = mkdtempSync(join(tmpdir(), 'dra-large-exports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMESPACES = 1_500;
const CLASSES = 100;

function snapshot(): string {
  const items: unknown[] = [];
  for (let n = 0; n < NAMESPACES; n++) {
    const namespace = `tenant-${n}`;
    items.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    const hard: Record<string, string> = {};
    for (let c = 0; c < CLASSES; c++) hard[`class-${c}.deviceclass.resource.k8s.io/devices`] = '4';
    items.push({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'dra', namespace }, spec: { hard } });
  }
  const path = join(dir, 'many-quotas.json');
  writeFileSync(path, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return path;
}

/** Runs the CLI in process, writing as processIO does (a newline only after text without one). */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    out: (t) => void out.push(t.endsWith('\n') ? t : `${t}\n`),
    err: (t) => void err.push(t.endsWith('\n') ? t : `${t}\n`),
  };
  const code = await main(argv, io);
  return { code, out: out.join(''), err: err.join('') };
}

const quotaRows = (md: string) => (md.match(/^\| tenant-\d+ \| dra \| class-\d+\.deviceclass\.resource\.k8s\.io\/devices \| 4 \| – \| 0 \|$/gm) ?? []).length;

describe('the CLI exports of a large cluster', () => {
  const path = snapshot();

  it('report -o markdown prints every quota row', async () => {
    const r = await cli('report', '--snapshot', path, '-o', 'markdown');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(quotaRows(r.out)).toBe(NAMESPACES * CLASSES);
    expect(r.out.startsWith('# DRA posture report\n')).toBe(true);
    expect(r.out.endsWith('\n') && !r.out.endsWith('\n\n')).toBe(true);
  }, 120_000);

  it('export writes a bundle that verifies, its report.md holding every quota row', async () => {
    const out = join(dir, 'large.tar');
    const r = await cli('export', '--snapshot', path, '--out', out);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const result = verifyBundleBytes(readFileSync(out));
    expect(result.problems).toEqual([]);
    expect(r.out).toContain(`manifest sha256 ${result.fingerprint}`);
    expect(quotaRows(Buffer.from(result.entries.get(ENTRY.markdown)!).toString('utf8'))).toBe(NAMESPACES * CLASSES);
  }, 120_000);
});
