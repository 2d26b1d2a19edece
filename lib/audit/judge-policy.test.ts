import { describe, expect, it } from 'vitest';
import { judgeAuditPolicy } from './judge-policy';
import { auditLevelFor } from './policy-level';
import type { AuditPolicyRule } from './recommended-policy';

// Expectations from audit/policy/checker.go (first match wins; namespaces compared exactly, '' for
// cluster-scoped requests; a group entry without resources matches the group) and from what each
// AUDIT check reads (bodies for AUDIT001/002, the response status for AUDIT004).

const DRA = 'resource.k8s.io';
const req = (verb: string, resource: string, namespace: string, extra: { subresource?: string; group?: string; name?: string; user?: string } = {}) => ({
  user: extra.user ?? 'u',
  groups: ['system:authenticated'],
  verb,
  group: extra.group ?? DRA,
  resource,
  subresource: extra.subresource ?? '',
  namespace,
  name: extra.name ?? 'x',
});

/** Everything the analysis needs, at the levels it needs. */
const complete: AuditPolicyRule[] = [
  { level: 'RequestResponse', resources: [{ group: DRA, resources: ['resourceclaims', 'resourceclaims/status', 'resourceclaimtemplates', 'deviceclasses'] }] },
  {
    level: 'Metadata',
    resources: [
      { group: DRA, resources: ['resourceslices'] },
      { group: '', resources: ['nodes/status'] },
    ],
  },
];

describe('policy level (checker.go semantics)', () => {
  it('matches namespaces exactly, with "" for cluster-scoped requests and no list for all', () => {
    const inTenant: AuditPolicyRule = { level: 'Request', namespaces: ['tenant-a'] };
    expect(auditLevelFor({ rules: [inTenant] }, req('create', 'resourceclaims', 'tenant-a'))).toBe('Request');
    expect(auditLevelFor({ rules: [inTenant] }, req('create', 'resourceslices', ''))).toBe('None');
    expect(auditLevelFor({ rules: [{ level: 'Request', namespaces: [''] }] }, req('create', 'resourceslices', ''))).toBe('Request');
    expect(auditLevelFor({ rules: [{ level: 'Request', namespaces: ['tenant-*'] }] }, req('create', 'resourceclaims', 'tenant-a'))).toBe('None');
    expect(auditLevelFor({ rules: [{ level: 'Request', resources: [{ group: DRA }] }] }, req('create', 'resourceslices', ''))).toBe('Request');
  });

  it('lets a group entry without resources match whatever its resourceNames say, and a nonResourceURLs rule match no resource request', () => {
    expect(auditLevelFor({ rules: [{ level: 'Metadata', resources: [{ group: DRA, resourceNames: ['other'] }] }] }, req('get', 'resourceclaims', 'a'))).toBe(
      'Metadata',
    );
    expect(
      auditLevelFor(
        { rules: [{ level: 'Metadata', resources: [{ group: DRA, resources: ['resourceclaims'], resourceNames: ['other'] }] }] },
        req('get', 'resourceclaims', 'a'),
      ),
    ).toBe('None');
    expect(auditLevelFor({ rules: [{ level: 'Metadata', nonResourceURLs: ['/healthz*'] }] }, req('get', 'resourceclaims', 'a'))).toBe('None');
  });
});

describe('judgeAuditPolicy', () => {
  it('asks nothing of resourceclaims/binding or /driver and passes a policy logging claims and claims/status', () => {
    expect(judgeAuditPolicy({ rules: complete })).toEqual({ shortfalls: [], warnings: [] });
  });

  it('fails body-less claim creates and names the Metadata rule that shadows the RequestResponse one', () => {
    const { shortfalls, warnings } = judgeAuditPolicy({ rules: [{ level: 'Metadata', resources: [{ group: DRA }] }, ...complete] });
    const create = shortfalls.find((s) => s.need.verb === 'create' && s.need.resource === 'resourceclaims');
    expect(create).toMatchObject({ level: 'Metadata', rule: 0 });
    // Slices and claim status only need Metadata: rules[0] is enough for them.
    expect(shortfalls.some((s) => s.need.resource === 'resourceslices' || s.need.subresource === 'status')).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^rules\[0\] \(Metadata\) matches create resource\.k8s\.io\/resourceclaims first.*rules\[1\] \(RequestResponse\)/);
  });

  it('warns about glob namespaces and probes the tenant namespaces they were meant to cover', () => {
    const rules: AuditPolicyRule[] = [
      { level: 'RequestResponse', namespaces: ['tenant-*', 'prod'], resources: [{ group: DRA, resources: ['resourceclaims', 'resourceclaimtemplates'] }] },
      { level: 'Metadata', resources: [{ group: DRA, resources: ['resourceclaims', 'resourceclaimtemplates'] }] },
      ...complete,
    ];
    const { shortfalls, warnings } = judgeAuditPolicy({ rules }, { tenantNamespaces: ['tenant-a'] });
    expect(warnings).toEqual([
      expect.stringMatching(/^rules\[1\] \(Metadata\) matches create resource\.k8s\.io\/resourceclaims first.*rules\[2\] \(RequestResponse\)/),
      expect.stringMatching(/^rules\[0\]\.namespaces: "tenant-\*" is a glob.*matches nothing/),
    ]);
    const create = shortfalls.find((s) => s.need.verb === 'create' && s.need.resource === 'resourceclaims');
    // prod is logged by rules[0]; tenant-a and every unnamed namespace fall to rules[1].
    expect(create).toMatchObject({ level: 'Metadata', rule: 1, namespaces: ['tenant-a', 'dra-posture-probe'] });
  });

  it('calls a rule naming only binding/driver dead, and a dead entry beside a live one', () => {
    const dead: AuditPolicyRule = { level: 'RequestResponse', resources: [{ group: DRA, resources: ['resourceclaims/binding', 'resourceclaims/driver'] }] };
    const mixed: AuditPolicyRule = {
      level: 'Request',
      verbs: ['update'],
      resources: [{ group: DRA, resources: ['resourceclaims/status', 'resourceclaims/driver'] }],
    };
    const { warnings } = judgeAuditPolicy({ rules: [dead, mixed, ...complete] });
    expect(warnings).toEqual([
      expect.stringMatching(/^rules\[0\] can never match/),
      expect.stringMatching(/^rules\[1\]\.resources\[0\]: "resourceclaims\/driver"/),
    ]);
    // A namespace list of globs only makes the whole rule dead.
    expect(judgeAuditPolicy({ rules: [{ level: 'None', namespaces: ['team-?'] }, ...complete] }).warnings).toEqual([
      expect.stringMatching(/^rules\[0\] can never match/),
      expect.stringMatching(/^rules\[0\]\.namespaces: "team-\?" is a glob/),
    ]);
  });

  it('counts a request whose rule omits ResponseComplete as not logged', () => {
    const omitting = { rules: complete.map((r, i) => (i === 0 ? { ...r, omitStages: ['ResponseComplete'] } : r)) };
    expect(judgeAuditPolicy(omitting).shortfalls.find((s) => s.need.verb === 'create')).toMatchObject({ level: 'RequestResponse', omitsResponse: true });
    expect(judgeAuditPolicy({ rules: complete, omitStages: ['ResponseComplete'] }).shortfalls.length).toBeGreaterThan(0);
  });

  it('sees a None rule for an identity (the requester, not whom it impersonates) as a shortfall for that identity only', () => {
    const rules: AuditPolicyRule[] = [
      { level: 'None', userGroups: ['system:serviceaccounts'], resources: [{ group: '', resources: ['nodes/status'] }] },
      ...complete,
    ];
    const missed = judgeAuditPolicy({ rules }).shortfalls;
    expect(missed.map((s) => [s.need.resource, s.need.subresource, s.identities])).toEqual([
      ['nodes', 'status', ['service account']],
      ['nodes', 'status', ['service account']],
    ]);
  });
});
