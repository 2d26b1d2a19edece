import { describe, expect, it } from 'vitest';
import { node, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { DeviceRequest, ResourceQuota } from '@/lib/k8s/types';
import { claim, claimTemplate, namespace } from '@/lib/analysis/__fixtures__/builders';
import type { AnalysisContext } from '@/lib/analysis/context-types';
import type { Finding, Issue } from '@/lib/analysis/types';
import { claimRequestsByNamespace, specOf } from '@/lib/analysis/context/claim-requests';
import { addClaimDeviceUsage, computeQuotaUsage } from '@/lib/analysis/quota/quota-usage';
import { createRandom } from '@/scripts/bench/prng';
import { proposeDeviceQuota } from './propose-quota-limits';
import type { AfterFix } from './verify-fix';
import { buildReport, buildReportWithContext } from '@/lib/report/build-report';

// QUOTA001/QUOTA002's fix: one ResourceQuota per tenant namespace. Expectations from the quota
// evaluator's semantics (pkg/quota/v1/evaluator/core/resource_claims.go, dra-facts §6): a claim
// counts 1 against count/resourceclaims.resource.k8s.io; ExactCount charges its count (default 1)
// and allocationMode All charges 32 against <class>.deviceclass.resource.k8s.io/devices; a quota
// with scopes never charges claims; two quotas of one name cannot exist in a namespace.

const NODES = [node('worker-1')];
const CLAIMS_KEY = 'count/resourceclaims.resource.k8s.io';
const devices = (cls: string) => `${cls}.deviceclass.resource.k8s.io/devices`;

function quota(ns: string, name: string, hard: Record<string, string>, scopes?: string[]): ResourceQuota {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: ns }, spec: { hard, ...(scopes ? { scopes } : {}) } };
}

function issueOf(state: ClusterState, check: string): Issue {
  const issues = buildReport(state).issues.filter((i) => i.check === check);
  expect(issues, check).toHaveLength(1);
  return issues[0];
}

/** The quotas the fix creates, by namespace. */
function created(issue: Issue): Map<string, ResourceQuota> {
  const out = new Map<string, ResourceQuota>();
  for (const c of issue.fix!.changes) {
    expect(c.action).toBe('create');
    if (c.action !== 'create') continue;
    const q = c.object as unknown as ResourceQuota;
    expect(q.kind).toBe('ResourceQuota');
    out.set(q.metadata.namespace!, q);
  }
  return out;
}

const withQuotas = (state: ClusterState, quotas: ResourceQuota[]): ClusterState => ({ ...state, resourceQuotas: [...state.resourceQuotas, ...quotas] });
const checksOf = (state: ClusterState) => new Set(buildReport(state).issues.map((i) => i.check));

describe('QUOTA001 and QUOTA002: a quota per tenant namespace', () => {
  const state = stateOf({
    namespaces: [namespace('team-a'), namespace('team-b')],
    nodes: NODES,
    resourceClaims: [
      claim('team-a', 'a1', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com', count: 2 } }]),
      claim('team-a', 'a2', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com' } }]),
      claim('team-a', 'a3', [{ name: 'r', exactly: { deviceClassName: 'fpga.example.com', allocationMode: 'All' } }]),
      claim('team-b', 'b1', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com' } }]),
    ],
    resourceClaimTemplates: [claimTemplate('team-a', 't1', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com', count: 4 } }])],
    // team-b's claim limit is scoped: a scoped quota never charges claims, so it limits nothing here,
    // and its name is taken.
    resourceQuotas: [quota('team-b', 'dra-claim-count', { [CLAIMS_KEY]: '5' }, ['BestEffort'])],
  });

  it('QUOTA001: a claim-count quota per namespace, room for what it holds, under a name not taken', () => {
    const issue = issueOf(state, 'QUOTA001');
    expect(issue.fix!.status).toBe('verified');
    const quotas = created(issue);
    expect([...quotas.keys()].sort()).toEqual(['team-a', 'team-b']);
    // team-a holds 3 claims and a template: today's claims and one claim per template fit.
    expect(Number(quotas.get('team-a')!.spec!.hard![CLAIMS_KEY])).toBeGreaterThanOrEqual(4);
    expect(quotas.get('team-b')!.metadata.name).not.toBe('dra-claim-count');
    for (const q of quotas.values()) expect(q.spec!.scopes).toBeUndefined();
    const after = withQuotas(state, [...quotas.values()]);
    expect(checksOf(state).has('QUOTA001')).toBe(true);
    expect(checksOf(after).has('QUOTA001')).toBe(false);
  });

  it('QUOTA002: a devices limit per DeviceClass each namespace uses, with room for what its claims charge (All charges 32)', () => {
    const issue = issueOf(state, 'QUOTA002');
    expect(issue.fix!.status).toBe('verified');
    const quotas = created(issue);
    const a = quotas.get('team-a')!.spec!.hard!;
    // gpu: 2 + 1 by the claims, 4 by each claim the template makes; fpga: All = 32.
    expect(Number(a[devices('gpu.example.com')])).toBeGreaterThanOrEqual(7);
    expect(Number(a[devices('fpga.example.com')])).toBeGreaterThanOrEqual(32);
    expect(Number(quotas.get('team-b')!.spec!.hard![devices('gpu.example.com')])).toBeGreaterThanOrEqual(1);
    expect(checksOf(withQuotas(state, [...quotas.values()])).has('QUOTA002')).toBe(false);
  });

  it('the fix text shows every quota of a small issue as YAML a person applies', () => {
    const issue = issueOf(state, 'QUOTA002');
    expect(issue.remediation).toMatch(/^Add a ResourceQuota limiting the devices per DeviceClass in each of 2 namespaces/);
    expect(issue.remediation.match(/^kind: ResourceQuota$/gm)).toHaveLength(2);
  });

  it('a class name too long for a quota key gives no fix (the API server would refuse the quota)', () => {
    const cls = `${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(45)}`;
    const long = stateOf({
      namespaces: [namespace('team-a')],
      nodes: NODES,
      resourceClaims: [claim('team-a', 'a1', [{ name: 'r', exactly: { deviceClassName: cls } }])],
    });
    const issue = issueOf(long, 'QUOTA002');
    expect(issue.fix!.status).toBe('none');
    expect(issue.remediation).toMatch(/^No safe automatic fix: the changes would be refused: .*fully qualified resource name/);
  });
});

describe('QUOTA001 on many namespaces', () => {
  const names = Array.from({ length: 25 }, (_, i) => `team-${String(i).padStart(2, '0')}`);
  const state = stateOf({
    namespaces: names.map((n) => namespace(n)),
    nodes: NODES,
    resourceClaims: names.map((n) => claim(n, 'c', [{ name: 'r', exactly: { deviceClassName: 'gpu.example.com' } }])),
  });

  it('carries a quota for each namespace and prints 20 of them, naming how many more', () => {
    const issue = issueOf(state, 'QUOTA001');
    expect(issue.fix!.status).toBe('verified');
    expect(created(issue).size).toBe(25);
    expect(issue.remediation.match(/^kind: ResourceQuota$/gm)).toHaveLength(20);
    expect(issue.remediation).toContain('and 5 more objects of the same form');
  });

  it("each finding shows its own namespace's quota, also for the namespaces past the 20 the issue prints", () => {
    const build = buildReportWithContext(state);
    const findings = build.report.findings.filter((f) => f.check === 'QUOTA001');
    expect(findings).toHaveLength(25);
    for (const f of findings) {
      const ns = f.objects.find((o) => o.kind === 'Namespace')!.name;
      const text = build.texts.get(f.id)!.remediation;
      expect(text.match(/^kind: ResourceQuota$/gm), ns).toHaveLength(1);
      expect(text, ns).toMatch(new RegExp(`^  namespace: ${ns}$`, 'm'));
    }
  });
});

describe('QUOTA002 limits against a bigint sum of every claim and template, on random clusters', () => {
  // The fix reads the claims' totals the quota rows summed (numbers, bigints past 2^53) and adds the
  // templates': each limit must be what a plain bigint sum of every claim and template of the
  // namespace gives (dra-facts §6), twice over, or 1 when they charge nothing.
  const CLASSES = ['gpu', 'nic', 'fpga', 'mig'];
  const COUNTS = [undefined, 0, 1, 2, 3, -1, 2.7, 2 ** 52, 2 ** 53 - 1, 2 ** 53, 2 ** 60, 1e300, Number.NaN];
  const MODES = [undefined, 'ExactCount', 'All', 'Unknown'];
  const NAMESPACES = ['a', 'b', 'c', 'd'];

  it('gives each namespace the plain limits, on 200 random clusters', () => {
    const r = createRandom(3400);
    let large = 0;
    for (let round = 0; round < 200; round++) {
      const big = r.chance(0.3);
      const count = () => (big && r.chance(0.5) ? r.pick(COUNTS) : r.pick(COUNTS.slice(0, 7)));
      const sub = () => ({ name: 's', deviceClassName: r.pick(CLASSES), allocationMode: r.pick(MODES), count: count() });
      const request = (j: number): DeviceRequest =>
        r.chance(0.3)
          ? ({ name: `r${j}`, firstAvailable: Array.from({ length: 1 + r.int(4) }, sub) } as DeviceRequest)
          : ({ name: `r${j}`, exactly: sub() } as DeviceRequest);
      const requests = () => Array.from({ length: r.int(4) }, (_, j) => request(j));
      const state = stateOf({
        namespaces: NAMESPACES.map((n) => namespace(n)),
        resourceClaims: Array.from({ length: r.int(20) }, (_, i) => claim(r.pick(NAMESPACES), `c${i}`, requests())),
        resourceClaimTemplates: Array.from({ length: r.int(4) }, (_, i) => claimTemplate(r.pick(NAMESPACES), `t${i}`, requests())),
      });
      // The quota rows are summed before the fixes in a report, not always in a test.
      if (r.chance(0.5)) computeQuotaUsage(state);
      const findings = Array.from(
        { length: 1 + r.int(6) },
        (_, i) =>
          ({
            id: `f${i}`,
            objects: [
              { kind: 'Namespace', name: r.pick(NAMESPACES) },
              { kind: 'DeviceClass', name: r.pick([...CLASSES, 'absent']) },
            ],
          }) as unknown as Finding,
      );
      const expected = new Map<string, Record<string, string>>();
      for (const f of findings) {
        const [ns, cls] = f.objects.map((o) => o.name);
        const charged = new Map<string, bigint>();
        for (const o of claimRequestsByNamespace(state).get(ns)?.objects ?? []) addClaimDeviceUsage(specOf(o), charged);
        const used = charged.get(cls) ?? 0n;
        if (used > BigInt(Number.MAX_SAFE_INTEGER)) large++;
        expected.set(ns, { ...expected.get(ns), [devices(cls)]: String(used > 0n ? 2n * used : 1n) });
      }
      const proposed = proposeDeviceQuota({ state } as AnalysisContext, findings);
      if ('none' in proposed) throw new Error(proposed.none);
      const got = new Map(
        (proposed.otherChanges ?? []).map((c) => {
          const q = (c as unknown as { object: ResourceQuota }).object;
          return [q.metadata.namespace!, q.spec!.hard!];
        }),
      );
      expect(got).toEqual(expected);
      expect(proposed.problems).toEqual([]);
      expect(proposed.after?.({} as AfterFix)).toEqual([]);
    }
    // Some limits are past the safe integers (bigint sums), most are not.
    expect(large).toBeGreaterThan(10);
    expect(large).toBeLessThan(150);
  });
});
