import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { judgeAuditPolicy } from './judge-policy';
import { auditLevelFor } from './policy-level';
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
    expect(auditLevelFor(policy, req('update', 'resourceclaims', 'status'))).toBe('Request');
    expect(auditLevelFor(policy, req('update', 'resourceslices', '', ''))).toBe('Metadata');
    expect(auditLevelFor(policy, req('watch', 'resourceslices', '', ''))).toBe('None');
    expect(auditLevelFor(policy, req('get', 'resourceclaims'))).toBe('Metadata');
    expect(auditLevelFor(policy, req('patch', 'nodes', 'status', '', ''))).toBe('Metadata');
    expect(auditLevelFor(policy, req('get', 'pods', '', 'a', ''))).toBe('None');
    expect(judgeAuditPolicy(policy, { tenantNamespaces: ['tenant-a', 'tenant-b'] })).toEqual({ shortfalls: [], warnings: [] });
    expect(judgeAuditPolicy(recommendedAuditPolicy().policy)).toEqual({ shortfalls: [], warnings: [] });
  });

  it('renders YAML that reads back as the same policy, each rule with its reason', () => {
    const text = renderAuditPolicyYaml(policy, reasons);
    expect(parse(text)).toEqual(policy);
    for (const r of reasons) expect(text).toContain(`# ${r}`);
  });

  it('finds the requests a policy misses', () => {
    const onlyCreate = { rules: [{ level: 'Metadata' as const, verbs: ['create'], resources: [{ group: 'resource.k8s.io', resources: ['resourceclaims'] }] }] };
    const misses = judgeAuditPolicy(onlyCreate).shortfalls.map((s) => `${s.need.verb} ${s.need.resource}/${s.need.subresource} ${s.level}`);
    expect(misses).toContain('update resourceclaims/status None');
    expect(misses).toContain('create resourceclaims/ Metadata');
    const subresourcesOnly = { rules: [{ level: 'Metadata' as const, resources: [{ group: 'resource.k8s.io', resources: ['resourceclaims/*'] }] }] };
    expect(judgeAuditPolicy(subresourcesOnly).shortfalls.some((s) => s.need.resource === 'resourceclaims' && s.need.subresource === 'status')).toBe(false);
  });
});
