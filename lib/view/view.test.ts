import { describe, expect, it } from 'vitest';
import { SAMPLE_REPORT } from './__fixtures__/sample-report';
import { writersOfNode } from '@/lib/analysis/node-writers/node-writers';
import {
  countBySeverity,
  DEFAULT_FILTERS,
  filterFindings,
  findingFacets,
  findingFiltersToQuery,
  findingNamespaces,
  parseFindingFilters,
} from './findings-view';
import { claimWritersByDriver } from './node-matrix';
import { buildQuotaRows, QUOTA_CHART_ROWS, QUOTA_TABLE_ROWS, quotaLabel, quotaRowsShown } from './quota-view';

const params = (q: string) => new URLSearchParams(q);

describe('findings view', () => {
  const all = SAMPLE_REPORT.findings;

  it('sorts by severity by default, then check', () => {
    expect(filterFindings(all, DEFAULT_FILTERS).map((f) => f.id)).toEqual(['f-crit', 'f-high-a', 'f-high-b', 'f-med']);
  });

  it('filters by severity, check, namespace, subject and text', () => {
    expect(filterFindings(all, { ...DEFAULT_FILTERS, severity: ['high'] }).map((f) => f.id)).toEqual(['f-high-a', 'f-high-b']);
    expect(filterFindings(all, { ...DEFAULT_FILTERS, check: ['DRA006'] }).map((f) => f.id)).toEqual(['f-med']);
    expect(filterFindings(all, { ...DEFAULT_FILTERS, namespace: 'tenant-c' }).map((f) => f.id)).toEqual(['f-high-a']);
    expect(filterFindings(all, { ...DEFAULT_FILTERS, subject: 'Group//support-engineers' }).map((f) => f.id)).toEqual(['f-crit']);
    expect(filterFindings(all, { ...DEFAULT_FILTERS, q: 'OTHER THAN THE ALLOCATORS' }).map((f) => f.id)).toEqual(['f-high-b']);
  });

  it('round-trips filters through the URL and drops junk', () => {
    const f = parseFindingFilters(params('severity=high,bogus&check=DRA007&check=<x>&sort=check&namespace=tenant-a'));
    expect(f).toEqual({ ...DEFAULT_FILTERS, severity: ['high'], check: ['DRA007'], sort: 'check', namespace: 'tenant-a' });
    expect(findingFiltersToQuery(f)).toEqual({ severity: 'high', check: 'DRA007', namespace: 'tenant-a', subject: undefined, q: undefined, sort: 'check' });
    expect(parseFindingFilters(params('sort=evil')).sort).toBe('severity');
    // The page is user input too: a positive integer, anything else is the first page.
    expect(parseFindingFilters(params('page=3')).page).toBe(3);
    for (const junk of ['0', '-2', '2.5', 'x', '99999999999', '']) expect(parseFindingFilters(params(`page=${junk}`)).page).toBe(1);
    expect(findingFiltersToQuery({ ...DEFAULT_FILTERS, page: 3 }).page).toBe('3');
    expect(findingFiltersToQuery(DEFAULT_FILTERS).page).toBeUndefined();
  });

  it('derives namespaces and facets', () => {
    expect(findingNamespaces(all[2])).toEqual(['tenant-c']);
    const facets = findingFacets(all);
    expect(facets.checks.map((c) => c.check)).toEqual(['CLAIM001', 'DRA006', 'DRA007', 'NODE002']);
    expect(facets.namespaces).toEqual([
      { namespace: 'tenant-a', count: 1 },
      { namespace: 'tenant-b', count: 1 },
      { namespace: 'tenant-c', count: 1 },
    ]);
    expect(countBySeverity(all)).toEqual({ critical: 1, high: 2, medium: 1, low: 0, info: 0 });
  });
});

describe('node writer lists', () => {
  it("puts a node's full writer lists back together", () => {
    const w = writersOfNode(SAMPLE_REPORT, 'gpu-2');
    expect(w.statusWriters.map((x) => x.subject.name)).toEqual(['system:node:gpu-2', 'intel-reporter', 'support-engineers']);
    expect(w.claimStatusWriters).toEqual([]);
    expect(writersOfNode(SAMPLE_REPORT, 'gpu-1').claimStatusWriters.map((x) => `${x.driver} ${x.mode} ${x.subject.name}`)).toEqual([
      'gpu.example.com associated-node sa',
      'gpu.nvidia.com associated-node plugin',
      'gpu.nvidia.com arbitrary-node controller',
    ]);
  });

  it('groups claim-status writers by driver, arbitrary-node first', () => {
    const g = claimWritersByDriver(writersOfNode(SAMPLE_REPORT, 'gpu-1'));
    expect(g.map((x) => x.driver)).toEqual(['gpu.example.com', 'gpu.nvidia.com']);
    expect(g[1].writers.map((w) => w.mode)).toEqual(['arbitrary-node', 'associated-node']);
  });
});

describe('quota rows', () => {
  it('computes ratios and flags disagreeing usage', () => {
    const rows = buildQuotaRows(SAMPLE_REPORT.quotas);
    expect(rows.map((r) => r.namespace)).toEqual(['tenant-a', 'tenant-b']);
    expect(rows[0]).toMatchObject({ label: 'ResourceClaims', ratio: 0.75, mismatch: true });
    expect(rows[1].ratio).toBeCloseTo(34 / 36);
    expect(rows[1].mismatch).toBe(false);
    expect(quotaLabel('gpu.nvidia.com.deviceclass.resource.k8s.io/devices')).toBe('devices of gpu.nvidia.com');
  });

  it('on a large cluster shows the quotas needing attention first, and every quota of a namespace on request', () => {
    const quotas = Array.from({ length: 1200 }, (_, i) => ({
      namespace: `ns-${i % 400}`,
      name: 'dra',
      resource: ['count/resourceclaims.resource.k8s.io', 'a.deviceclass.resource.k8s.io/devices', 'b.deviceclass.resource.k8s.io/devices'][Math.floor(i / 400)],
      hard: '100',
      used: i === 777 ? '3' : null,
      computedUsed: String(i % 97),
    }));
    const rows = buildQuotaRows(quotas);
    const all = quotaRowsShown(rows, '');
    expect(all.cut).toBe(true);
    expect(all.table).toHaveLength(QUOTA_TABLE_ROWS);
    expect(all.chart).toHaveLength(QUOTA_CHART_ROWS);
    expect(all.table[0].mismatch).toBe(true);
    const ratios = all.table.slice(1).map((r) => r.ratio!);
    expect(ratios).toEqual([...ratios].sort((a, b) => b - a));
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(Math.max(...rows.filter((r) => !all.table.includes(r)).map((r) => r.ratio!)));
    const one = quotaRowsShown(rows, 'ns-5');
    expect(one.cut).toBe(false);
    expect(one.table.map((r) => r.resource)).toEqual(rows.filter((r) => r.namespace === 'ns-5').map((r) => r.resource));
    expect(one.table).toHaveLength(3);
    const small = quotaRowsShown(buildQuotaRows(SAMPLE_REPORT.quotas), '');
    expect(small).toMatchObject({ cut: false, table: buildQuotaRows(SAMPLE_REPORT.quotas) });
  });
});

import { splitRemediation } from './remediation';

describe('splitRemediation', () => {
  it('separates prose, commands and a trailing YAML manifest', () => {
    const parts = splitRemediation('Remove the binding:\nkubectl delete clusterrolebinding x\nThen apply:\napiVersion: v1\nkind: Role\n---\napiVersion: v1');
    expect(parts.map((p) => p.type)).toEqual(['text', 'command', 'text', 'yaml']);
    expect(parts[3].text).toBe('apiVersion: v1\nkind: Role\n---\napiVersion: v1');
  });
  it('keeps plain prose as one part', () => {
    expect(splitRemediation('Just do it.\nCarefully.')).toEqual([{ type: 'text', text: 'Just do it.\nCarefully.' }]);
  });
});

describe('findings of one issue', () => {
  it('the issue filter keeps only the findings whose issueId matches, and survives the URL', () => {
    const params = new URLSearchParams({ issue: 'issue-0' });
    // Only 16 lower-case hex digits are an issue ID: anything else from the URL is dropped.
    expect(parseFindingFilters(params).issue).toBe('');
    const id = '0123456789abcdef';
    const parsed = parseFindingFilters(new URLSearchParams({ issue: id }));
    expect(parsed.issue).toBe(id);
    expect(findingFiltersToQuery(parsed).issue).toBe(id);
    const findings = SAMPLE_REPORT.findings.map((f, i) => ({ ...f, issueId: i === 1 ? id : f.issueId }));
    expect(filterFindings(findings, parsed).map((f) => f.id)).toEqual([SAMPLE_REPORT.findings[1].id]);
  });
});
