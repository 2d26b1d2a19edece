import { describe, expect, it } from 'vitest';
import type { Finding } from '@/lib/analysis/types';
import { buildQuotaGapView, claimObjectsPerNamespace } from './quota-gaps';

// QUOTA001 is about a namespace; QUOTA002 about a namespace and a DeviceClass (DESIGN §4).
const q1 = (ns: string): Finding => ({
  id: `1-${ns}`,
  check: 'QUOTA001',
  severity: 'medium',
  issueId: 'i1',
  subjects: [],
  objects: [{ kind: 'Namespace', name: ns }],
  evidence: [],
});
const q2 = (ns: string, cls: string): Finding => ({
  id: `2-${ns}-${cls}`,
  check: 'QUOTA002',
  severity: 'low',
  issueId: 'i2',
  subjects: [],
  objects: [
    { kind: 'Namespace', name: ns },
    { kind: 'DeviceClass', name: cls },
  ],
  evidence: [],
});
const other: Finding = {
  id: 'x',
  check: 'QUOTA003',
  severity: 'low',
  issueId: 'i3',
  subjects: [],
  objects: [{ kind: 'ResourceQuota', name: 'q', namespace: 'a' }],
  evidence: [],
};

const findings = [q2('a', 'gpu'), q2('b', 'gpu'), q2('c', 'gpu'), q2('c', 'fpga'), q1('b'), q1('c'), other];
const claims = new Map([
  ['a', 1],
  ['b', 5],
  ['c', 3],
]);

describe('buildQuotaGapView', () => {
  it('groups the claim-count gap first, then classes by how many namespaces lack a quota, namespaces by claims held', () => {
    const v = buildQuotaGapView(findings, claims);
    expect(v.total).toBe(6);
    expect(v.namespaces).toBe(3);
    expect(v.groups.map((g) => [g.key, g.total, g.namespaces.map((n) => n.namespace)])).toEqual([
      ['claims', 2, ['b', 'c']],
      ['gpu', 3, ['b', 'c', 'a']],
      ['fpga', 1, ['c']],
    ]);
    expect(v.groups[1].namespaces[0]).toEqual({ namespace: 'b', findingId: '2-b-gpu', claims: 5 });
  });

  it('the namespace filter keeps only that namespace’s gaps, in every group', () => {
    const v = buildQuotaGapView(findings, claims, { namespace: 'a' });
    expect(v.groups.map((g) => [g.key, g.total])).toEqual([['gpu', 1]]);
    expect(v.total).toBe(1);
    expect(buildQuotaGapView(findings, claims, { namespace: 'nowhere' }).groups).toEqual([]);
  });

  it('carries the first n of a large group, most claims first, and counts them all', () => {
    const many = Array.from({ length: 1000 }, (_, i) => q2(`ns-${String(i).padStart(4, '0')}`, 'gpu'));
    const counts = new Map(many.map((f, i) => [f.objects[0].name, i % 7]));
    const v = buildQuotaGapView(many, counts, { carried: 10 });
    expect(v.groups[0].total).toBe(1000);
    const expected = [...counts]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10)
      .map(([ns]) => ns);
    expect(v.groups[0].namespaces.map((n) => n.namespace)).toEqual(expected);
  });
});

describe('claimObjectsPerNamespace', () => {
  it('counts claims and templates per namespace', () => {
    const meta = (namespace: string, name: string) => ({ name, namespace });
    const m = claimObjectsPerNamespace({
      resourceClaims: [{ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: meta('a', 'c1'), spec: {} }],
      resourceClaimTemplates: [{ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: meta('a', 't1'), spec: { spec: {} } }],
    });
    expect([...m]).toEqual([['a', 2]]);
  });
});
