import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, stateOf } from '@/lib/authz/__fixtures__/builders';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { mergeSettings } from '@/lib/analysis/settings';
import type { FixProbe } from '@/lib/analysis/types';
import { res, reviewOf } from './holder';
import { LISTED_PROBES_PER_EXPECTATION, verifyProposal } from './verify-fix';

// A fix across hundreds of namespaces checks thousands of requests (CLAIM003 on the diverse bench
// cluster: 46,040 reviews, 16 MiB of its report); the report lists a bounded number and counts the rest,
// every one of them still decided by the engine.

const state = stateOf({
  clusterRoles: [clusterRole('ns-reader', [{ apiGroups: [''], resources: ['namespaces'], verbs: ['get'] }])],
  clusterRoleBindings: [crb('readers', { kind: 'ClusterRole', name: 'ns-reader' }, [Group('readers')])],
});
const ctx = buildAnalysisContext(state, createAuthzEngine(state), mergeSettings(undefined));
const member = { name: 'someone', groups: ['readers', 'system:authenticated'] };
const probe = (verb: 'get' | 'update', ns: string): FixProbe => ({
  expect: verb === 'get' ? 'allowed' : 'denied',
  text: `${verb} namespace ${ns}`,
  review: reviewOf(member, res(verb, '', 'namespaces', { namespace: ns, name: ns })),
});
const namespaces = Array.from({ length: 40 }, (_, i) => `ns-${i}`);

describe('verifyProposal: the probes a verified fix lists', () => {
  it('lists the first reviews of each expectation and counts the others, all of them checked', () => {
    const probes = namespaces.flatMap((ns) => [probe('update', ns), probe('get', ns)]);
    const fix = verifyProposal(ctx, { holders: [], probes, checks: [], summary: 'test' });
    expect(fix.reason).toBeUndefined();
    expect(fix.status).toBe('verified');
    expect(fix.probes.filter((p) => p.expect === 'denied')).toEqual(probes.filter((p) => p.expect === 'denied').slice(0, LISTED_PROBES_PER_EXPECTATION));
    expect(fix.probes.filter((p) => p.expect === 'allowed')).toHaveLength(LISTED_PROBES_PER_EXPECTATION);
    expect(fix.probesNotListed).toBe(80 - 2 * LISTED_PROBES_PER_EXPECTATION);
  });

  it('a wrong answer among the unlisted ones still fails the fix', () => {
    const probes = [...namespaces.map((ns) => probe('update', ns)), { ...probe('update', 'ns-last'), expect: 'allowed' as const }];
    const fix = verifyProposal(ctx, { holders: [], probes, checks: [], summary: 'test' });
    expect(fix.status).toBe('none');
    expect(fix.reason).toMatch(/update namespace ns-last would be refused/);
  });

  it('lists everything, with no count, when there are few', () => {
    const probes = [probe('update', 'a'), probe('get', 'a')];
    const fix = verifyProposal(ctx, { holders: [], probes, checks: [], summary: 'test' });
    expect(fix.probes).toEqual(probes);
    expect(fix.probesNotListed).toBeUndefined();
  });
});
