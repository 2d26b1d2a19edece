import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY } from '@/lib/compliance/bundle-format';
import { largeReport } from '@/lib/report/__fixtures__/large-report';
import { smallCluster } from '@/lib/report/__fixtures__/small-cluster';
import { buildReport } from '@/lib/report/build-report';
import { renderReportMarkdown } from '@/lib/report/render-markdown';
import { verifyBundleBytes } from './read-bundle';
import { bundleToBytes, makeBundle, writeBundleFile } from './write-bundle';

// Issue #26: `export` and the dashboard's snapshots died on a large cluster with "Maximum call stack
// size exceeded". The bundle of a report of that size (20,000 issues, 5,000 nodes, 200,000 quota
// rows), written to a file entry by entry and made in memory for the snapshot store: both verify and
// hold the whole report.

const dir = mkdtempSync(join(tmpdir(), 'dra-large-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const state = smallCluster();
const report = largeReport(buildReport(state), { issues: 20_000, nodes: 5_000, quotaRows: 200_000 });
const createdAt = '2026-01-02T03:04:05.000Z';

describe('the bundle of a large cluster', () => {
  it('is written to a file that verifies, the same bytes as in memory, with the whole report in it', async () => {
    const out = join(dir, 'large.tar');
    const written = await writeBundleFile(await makeBundle(state, { report, createdAt }), out);
    const bytes = readFileSync(out);
    expect(bytes.length).toBe(written.size);

    const result = verifyBundleBytes(bytes);
    expect(result.problems).toEqual([]);
    expect(result.fingerprint).toBe(written.fingerprint);
    expect(written.manifest.entries.map((e) => e.name)).toEqual([ENTRY.metadata, ENTRY.report, ENTRY.objects, ENTRY.findingsCsv, ENTRY.markdown, ENTRY.html]);

    const text = (name: string) => Buffer.from(result.entries.get(name)!).toString('utf8');
    expect(text(ENTRY.markdown)).toBe(renderReportMarkdown(report));
    const json = JSON.parse(text(ENTRY.report));
    expect(json.findings).toHaveLength(report.findings.length);
    expect(json.quotas).toHaveLength(report.quotas.length);
    expect(text(ENTRY.findingsCsv).split('\r\n').length - 2).toBe(report.findings.length);

    const inMemory = bundleToBytes(await makeBundle(state, { report, createdAt }));
    expect(inMemory.fingerprint).toBe(written.fingerprint);
    expect(Buffer.compare(Buffer.from(inMemory.bytes), bytes)).toBe(0);
  }, 120_000);
});
