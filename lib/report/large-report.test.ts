import { describe, expect, it } from 'vitest';
import { smallCluster } from './__fixtures__/small-cluster';
import { largeReport } from './__fixtures__/large-report';
import { buildReport } from './build-report';
import { renderReportMarkdown, renderReportMarkdownChunks } from './render-markdown';
import { renderReportHtmlChunks } from './render-html';
import { renderReportJunit } from './render-junit';
import { renderReportSarifChunks } from './render-sarif';

// Issue #26: on a large cluster `report -o markdown` and every bundle died with "Maximum call stack
// size exceeded" (section lines spread into push()). A report of that size: 20,000 issues with a
// finding each, 5,000 nodes and 200,000 DRA quota rows, about 500,000 lines of Markdown.

const SIZES = { issues: 20_000, nodes: 5_000, quotaRows: 200_000 };
const report = largeReport(buildReport(smallCluster()), SIZES);

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe('the reports of a large cluster', () => {
  it('Markdown: every issue, finding, node and quota row, in pieces of whole lines that add up to the whole text', () => {
    const md = renderReportMarkdown(report);
    expect(count(md, /^### \d+\. /gm)).toBe(SIZES.issues);
    expect(count(md, /^#### Finding large-finding-\d+$/gm)).toBe(SIZES.issues);
    expect(count(md, /^\| large-node-\d+ \|/gm)).toBe(SIZES.nodes);
    expect(count(md, /^\| large-ns-\d+ \| dra \| class-\d\.deviceclass\.resource\.k8s\.io\/devices \| 4 \| 1 \| 1 \|$/gm)).toBe(SIZES.quotaRows);
    expect(md.split('\n').length).toBeGreaterThan(400_000);
    expect(md.endsWith('\n') && !md.endsWith('\n\n')).toBe(true);

    const chunks = [...renderReportMarkdownChunks(report)];
    expect(chunks.length).toBeGreaterThan(100);
    for (const c of chunks) expect(c.endsWith('\n')).toBe(true);
    expect(chunks.join('')).toBe(md);
  }, 60_000);

  it('HTML: every finding and quota row', () => {
    let findings = 0;
    let quotaRows = 0;
    for (const chunk of renderReportHtmlChunks(report, { generatedAt: '2026-01-02T03:04:05.000Z', toolVersion: 'test' })) {
      findings += count(chunk, /<article class="finding"/g);
      quotaRows += count(chunk, /<tr><td>large-ns-\d+<\/td>/g);
    }
    expect(findings).toBe(SIZES.issues);
    expect(quotaRows).toBe(SIZES.quotaRows);
  }, 60_000);

  it('SARIF and JUnit of 300,000 findings: the SARIF log in pieces (whole, it is past the longest string), JUnit in seconds', () => {
    const many = largeReport(buildReport(smallCluster()), { issues: 300_000, nodes: 1, quotaRows: 1 });
    let results = 0;
    let chars = 0;
    let first = '';
    let lastChunk = '';
    for (const chunk of renderReportSarifChunks(many, { toolVersion: 'test' })) {
      first ||= chunk;
      if (lastChunk) expect(lastChunk.endsWith('\n')).toBe(true);
      results += count(chunk, /^ {8}\{\n {10}"ruleId": /gm);
      chars += chunk.length;
      lastChunk = chunk;
    }
    expect(results).toBe(many.findings.length);
    expect(chars).toBeGreaterThan(2 ** 29); // V8's longest string is 2^29 - 24 characters
    expect(first.endsWith('"results": [\n')).toBe(true);
    expect(lastChunk.endsWith('\n  ]\n}')).toBe(true);

    // Each check's findings were gathered by copying the list for every finding: minutes at this size.
    const junit = renderReportJunit(many);
    // One line per finding, the first of a check's right after its <failure> or <system-out> tag.
    expect(count(junit, /(^|>)\[\w+\] /gm)).toBe(many.findings.length);
  }, 60_000);
});
