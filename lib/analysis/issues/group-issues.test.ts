import { describe, expect, it } from 'vitest';
import { clusterRole, crb, node, rb, res, role, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { Namespace, ResourceClaim } from '@/lib/k8s/types';
import type { Issue, Report } from '@/lib/analysis/types';
import { buildReport } from '@/lib/report/build-report';
import { CATALOG, type RootCauseKind } from '@/lib/analysis/catalog';
import { loadDemo } from '@/server/sources/demo-source';

const demoReport = buildReport(await loadDemo());

// Findings grouped by cause (DESIGN §4 checks, issue 13): one issue per check and root cause, every
// finding in exactly one issue, ranked by a reproducible risk score.

const namespace = (name: string): Namespace => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const claimIn = (ns: string): ResourceClaim => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name: 'gpu', namespace: ns },
  spec: { devices: { requests: [{ name: 'g', exactly: { deviceClassName: 'gpu.example.com' } }] } },
});
const classWriter = clusterRole('deviceclass-writer', [{ verbs: ['create', 'update'], apiGroups: ['resource.k8s.io'], resources: ['deviceclasses'] }]);

function issuesOf(state: ClusterState, check: string): { report: Report; issues: Issue[] } {
  const report = buildReport(state);
  return { report, issues: report.issues.filter((i) => i.check === check) };
}

function expectPartition(report: Report) {
  const owner = new Map<string, string>();
  for (const issue of report.issues)
    for (const id of issue.findingIds) {
      expect(owner.has(id), `finding ${id} in two issues`).toBe(false);
      owner.set(id, issue.id);
    }
  expect([...owner.keys()].sort()).toEqual(report.findings.map((f) => f.id).sort());
  for (const f of report.findings) expect(owner.get(f.id)).toBe(f.issueId);
}

describe('issues: findings grouped by root cause', () => {
  it('two bindings of one role → one issue naming the role, with both subjects affected', () => {
    const { report, issues } = issuesOf(
      stateOf({
        namespaces: [namespace('team-a')],
        clusterRoles: [classWriter],
        clusterRoleBindings: [
          crb('alice-classes', { kind: 'ClusterRole', name: 'deviceclass-writer' }, [User('alice')]),
          crb('bob-classes', { kind: 'ClusterRole', name: 'deviceclass-writer' }, [User('bob')]),
        ],
      }),
      'DRA003',
    );
    expect(report.findings.filter((f) => f.check === 'DRA003')).toHaveLength(2);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rootCause: [{ kind: 'ClusterRole', name: 'deviceclass-writer' }], affected: { ClusterRoleBinding: 2, User: 2 } });
    expect(issues[0].findingIds).toHaveLength(2);
    expectPartition(report);
  });

  it('copies of one Role (same name and rules) in three namespaces → one issue; a copy with other rules → its own', () => {
    const statusRules = [{ verbs: ['update', 'patch'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }];
    const teams = ['team-a', 'team-b', 'team-c', 'team-d'];
    const { report, issues } = issuesOf(
      stateOf({
        namespaces: teams.map(namespace),
        roles: teams.map((ns) =>
          role(
            ns,
            'claim-status',
            ns === 'team-d' ? [...statusRules, { verbs: ['get'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims'] }] : statusRules,
          ),
        ),
        roleBindings: teams.map((ns) => rb(ns, 'queue', { kind: 'Role', name: 'claim-status' }, [SA(ns, 'queue')])),
      }),
      'DRA006',
    );
    expect(report.findings.filter((f) => f.check === 'DRA006')).toHaveLength(4);
    expect(issues).toHaveLength(2);
    const copies = issues.find((i) => i.rootCause.length === 3)!;
    expect(copies.rootCause.map((r) => r.namespace)).toEqual(['team-a', 'team-b', 'team-c']);
    expect(copies.title).toContain('Role claim-status, the same rules in 3 namespaces');
    expect(copies.remediation).toMatch(/^The same Role \(name and rules\) is in 3 namespaces/);
    expect(copies.findingIds).toHaveLength(3);
    expect(issues.find((i) => i !== copies)!.rootCause).toEqual([{ kind: 'Role', namespace: 'team-d', name: 'claim-status' }]);
    expectPartition(report);
  });

  it('one binding, two subjects → one issue', () => {
    const { report, issues } = issuesOf(
      stateOf({
        clusterRoles: [classWriter],
        clusterRoleBindings: [crb('classes', { kind: 'ClusterRole', name: 'deviceclass-writer' }, [User('alice'), User('bob')])],
      }),
      'DRA003',
    );
    expect(issues).toHaveLength(1);
    expect(issues[0].affected).toEqual({ ClusterRoleBinding: 1, User: 2 });
    expectPartition(report);
  });

  it('two roles granting the same thing stay two issues (two different fixes)', () => {
    const other = clusterRole('other-writer', classWriter.rules!);
    const { issues } = issuesOf(
      stateOf({
        clusterRoles: [classWriter, other],
        clusterRoleBindings: [
          crb('a', { kind: 'ClusterRole', name: 'deviceclass-writer' }, [User('alice')]),
          crb('b', { kind: 'ClusterRole', name: 'other-writer' }, [User('bob')]),
        ],
      }),
      'DRA003',
    );
    expect(issues.map((i) => i.rootCause.map((r) => r.name).join())).toEqual(expect.arrayContaining(['deviceclass-writer', 'other-writer']));
    expect(issues).toHaveLength(2);
  });

  it('a stock role (cluster-admin, edit, system:*) is not the root cause: its bindings are', () => {
    const { issues } = issuesOf(
      stateOf({
        namespaces: [namespace('tenant-a'), namespace('tenant-b')],
        clusterRoles: [clusterRole('edit', [{ verbs: ['patch'], apiGroups: [''], resources: ['namespaces'] }])],
        roleBindings: [
          rb('tenant-a', 'devs', { kind: 'ClusterRole', name: 'edit' }, [User('alice')]),
          rb('tenant-b', 'devs', { kind: 'ClusterRole', name: 'edit' }, [User('bob')]),
        ],
      }),
      'CLAIM003',
    );
    expect(issues.map((i) => i.rootCause.map((r) => `${r.kind} ${r.namespace}/${r.name}`))).toEqual(
      expect.arrayContaining([['RoleBinding tenant-a/devs'], ['RoleBinding tenant-b/devs']]),
    );
  });

  it('3 tenant namespaces missing a claim quota → one QUOTA001 issue with 3 namespaces affected and one fix', () => {
    const names = ['tenant-a', 'tenant-b', 'tenant-c'];
    const { report, issues } = issuesOf(stateOf({ namespaces: names.map(namespace), resourceClaims: names.map(claimIn), nodes: [node('n1')] }), 'QUOTA001');
    expect(report.findings.filter((f) => f.check === 'QUOTA001')).toHaveLength(3);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rootCause: [], affected: { Namespace: 3 }, title: expect.stringContaining('3 namespaces') });
    expect(issues[0].remediation).toContain('count/resourceclaims.resource.k8s.io');
    expect(issues[0].risk.reasons).toContain('affects 3 tenant namespaces');
    expectPartition(report);
  });
});

describe('issues of the demo', () => {
  it('partition the findings, carry stable IDs and an explained, reproducible risk', async () => {
    const state = await loadDemo();
    const a = buildReport(state);
    expectPartition(a);
    expect(buildReport(state).issues).toEqual(a.issues);
    for (const i of a.issues) {
      expect(i.risk.score).toBeCloseTo(Math.round(i.risk.severity * i.risk.reach * i.risk.exposure * 10) / 10, 0);
      expect(i.findingIds.length).toBeGreaterThan(0);
    }
    const scores = a.issues.map((i) => i.risk.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
  });

  it('rank the reviewed top risks in the order demo/EXPECTED.md §6 explains', async () => {
    const top = buildReport(await loadDemo())
      .issues.slice(0, 6)
      .map((i) => `${i.check} ${i.rootCause.map((r) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`).join(', ')}`);
    expect(top).toEqual([
      'DRA001 ClusterRoleBinding intel-driver-admin',
      'NODE002 ClusterRole support-impersonator',
      'DRA005 ClusterRole nv-status-writer',
      'DRA012 ClusterRole dra-driver-common, ClusterRole dra-driver-nvidia-gpu-clusterrole-kubeletplugin',
      'POD001 DaemonSet gpu-operator/dra-driver-nvidia-gpu-kubelet-plugin',
      'POD004 Pod tenant-b/nvidia-smi-debug',
    ]);
  });

  it('rank support-engineers’ impersonation of system:masters among the takeovers: full control, the reach of cluster-admin (#24)', async () => {
    const state = await loadDemo();
    // The fact (authz-semantics §7): legacy impersonation may name system:masters, and the demo lets any member of
    // support-engineers impersonate any user and any group, so a member may send any request as system:masters.
    const member = { name: 'a-support-engineer', groups: ['support-engineers', 'system:authenticated'] };
    const asMasters = createAuthzEngine(state).authorizeImpersonated(member, { user: 'anyone', groups: ['system:masters'] }, { resource: res('*', '*', '*') });
    expect(asMasters.allowed).toBe(true);

    const { issues } = buildReport(state);
    const takeover = (i: Issue) => i.risk.reasons.some((r) => r.startsWith('full control of the cluster'));
    const support = issues.find((i) => i.check === 'NODE002' && i.rootCause.some((r) => r.name === 'support-impersonator'))!;
    const clusterAdmin = issues.find((i) => i.check === 'DRA001' && i.rootCause.some((r) => r.name === 'intel-driver-admin'))!;
    expect(support.risk.reasons[0]).toMatch(/^full control of the cluster .*: Group support-engineers may impersonate Group system:masters/);
    expect(support.risk.reach).toBe(clusterAdmin.risk.reach);
    // Only takeovers rank above it; every issue of bounded reach ranks below it.
    const rank = issues.indexOf(support);
    expect(issues.slice(0, rank).every(takeover)).toBe(true);
    expect(issues.slice(0, rank)).toContain(clusterAdmin);
    for (const other of issues.filter((i) => !takeover(i))) expect(issues.indexOf(other)).toBeGreaterThan(rank);
  });

  it('say on how many nodes a DaemonSet holds the token (counted from its pods)', async () => {
    const state = await loadDemo();
    const plugin = 'intel-gpu-resource-driver-kubelet-plugin';
    const nodes = new Set(
      state.pods.filter((p) => p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet' && o.name === plugin)).map((p) => p.spec?.nodeName),
    );
    expect(nodes.size).toBeGreaterThan(0);
    expect(nodes.size).toBeLessThan(state.nodes.length);
    const issue = buildReport(state).issues.find((i) => i.rootCause.some((r) => r.name === 'intel-driver-admin'))!;
    expect(issue.risk.reasons).toContain(`token on ${nodes.size} of ${state.nodes.length} nodes through DaemonSet intel-gpu-resource-driver/${plugin}`);
  });

  // Per check: each issue's root cause is of the kind the catalogue gives the check, and every
  // finding of the issue names it.
  const KINDS: Record<RootCauseKind, (kinds: string[]) => boolean> = {
    // ...or the API server pod, for NODE001's finding on a cluster without NodeRestriction.
    role: (k) =>
      k.length > 0 && (k.every((x) => x === 'Role' || x === 'ClusterRole') || k.every((x) => x.endsWith('RoleBinding')) || k.every((x) => x === 'Pod')),
    workload: (k) => k.length === 1 && ['DaemonSet', 'Deployment', 'StatefulSet', 'ReplicaSet', 'Job', 'CronJob', 'Pod'].includes(k[0]),
    'device-class': (k) => k.length === 1 && k[0] === 'DeviceClass',
    object: (k) => k.length > 0,
    check: (k) => k.length === 0,
  };
  const demoChecks = [...new Set(demoReport.issues.map((i) => i.check))].sort();
  it('the demo fires most checks, so the table below covers them', () => expect(demoChecks.length).toBeGreaterThanOrEqual(25));
  it.each(demoChecks)('%s: issues group its findings by the root cause its catalogue entry names', async (check) => {
    const report = buildReport(await loadDemo());
    const byId = new Map(report.findings.map((f) => [f.id, f]));
    for (const issue of report.issues.filter((i) => i.check === check)) {
      const kind = CATALOG[check as keyof typeof CATALOG].rootCause;
      expect(KINDS[kind](issue.rootCause.map((r) => r.kind)), `${issue.title}: ${JSON.stringify(issue.rootCause)}`).toBe(true);
      for (const id of issue.findingIds) {
        const f = byId.get(id)!;
        expect(f.check).toBe(check);
        if (kind !== 'check')
          expect(issue.rootCause.some((r) => f.objects.some((o) => o.kind === r.kind && o.name === r.name && o.namespace === r.namespace))).toBe(true);
      }
    }
  });
});
