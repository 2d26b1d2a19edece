import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { auditLevelFor, missedClaimMutations } from './policy-level';
import { recommendedAuditPolicy, renderAuditPolicyYaml } from './recommended-policy';

const req = (verb: string, resource: string, subresource = '', namespace = 'tenant-a', group = 'resource.k8s.io') => ({
  user: 'u',
  groups: [],
  verb,
  group,
  resource,
  subresource,
  namespace,
  name: 'x',
});

describe('recommendedAuditPolicy', () => {
  const { policy, reasons } = recommendedAuditPolicy({ tenantNamespaces: ['tenant-a'] });

  it('logs tenant claims with responses, other claims with requests, slices at Metadata and slice reads not at all', () => {
    expect(auditLevelFor(policy, req('create', 'resourceclaims'))).toBe('RequestResponse');
    expect(auditLevelFor(policy, req('create', 'resourceclaims', '', 'other'))).toBe('Request');
    expect(auditLevelFor(policy, req('update', 'resourceclaims', 'driver'))).toBe('Request');
    expect(auditLevelFor(policy, req('update', 'resourceslices', '', ''))).toBe('Metadata');
    expect(auditLevelFor(policy, req('watch', 'resourceslices', '', ''))).toBe('None');
    expect(auditLevelFor(policy, req('get', 'resourceclaims'))).toBe('Metadata');
    expect(auditLevelFor(policy, req('patch', 'nodes', 'status', '', ''))).toBe('Metadata');
    expect(auditLevelFor(policy, req('get', 'pods', '', 'a', ''))).toBe('None');
    expect(missedClaimMutations(policy)).toEqual([]);
  });

  it('renders YAML that reads back as the same policy, each rule with its reason', () => {
    const text = renderAuditPolicyYaml(policy, reasons);
    expect(parse(text)).toEqual(policy);
    for (const r of reasons) expect(text).toContain(`# ${r}`);
  });

  it('finds the claim mutations a policy misses', () => {
    const onlyCreate = { rules: [{ level: 'Metadata' as const, verbs: ['create'], resources: [{ group: 'resource.k8s.io', resources: ['resourceclaims'] }] }] };
    expect(missedClaimMutations(onlyCreate)).toContain('update resourceclaims/driver');
    expect(missedClaimMutations(onlyCreate)).not.toContain('create resourceclaims');
    expect(missedClaimMutations({ rules: [{ level: 'Metadata', resources: [{ group: 'resource.k8s.io', resources: ['resourceclaims/*'] }] }] })).toEqual([]);
  });
});
