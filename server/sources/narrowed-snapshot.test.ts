import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { kindsForCanI, kindsForWhoCan } from '@/lib/authz/kinds-for-question';
import type { AuthzRequest, ResourceAttributes, UserInfo } from '@/lib/authz/types';
import { res } from '@/lib/authz/__fixtures__/builders';
import { nodeUser, serviceAccountUser } from '@/lib/authz/user-info';
import { loadSnapshot } from './snapshot-source';

// A question reads only the kinds it needs from a snapshot (issue 15): the answers must be the
// ones the whole snapshot gives, and a broken object of a kind the question does not read must not
// stop it.

const DEMO = join(process.cwd(), 'demo', 'manifests');
const QUESTIONS: ResourceAttributes[] = [
  res('update', 'resource.k8s.io', 'resourceclaims', { subresource: 'status', namespace: 'tenant-a' }),
  res('create', 'resource.k8s.io', 'resourceslices'),
  res('patch', '', 'nodes', { subresource: 'status', name: 'gpu-h100-01' }),
  res('get', '', 'pods', { namespace: 'gpu-operator' }),
  res('arbitrary-node:update', 'resource.k8s.io', 'resourceclaims', { subresource: 'driver', namespace: 'tenant-a', name: 'gpu.nvidia.com' }),
  res('list', '', 'pods', { fieldSelector: [{ field: 'spec.nodeName', operator: '=', value: 'gpu-h100-01' }] }),
  res('get', 'resource.k8s.io', 'resourceclaims', { namespace: 'tenant-a', name: 'train-0-gpu-x7k2p' }),
];
const USERS: UserInfo[] = [
  serviceAccountUser('intel-gpu-resource-driver', 'intel-gpu-sa'),
  serviceAccountUser('gpu-operator', 'dra-driver-nvidia-gpu-service-account-kubeletplugin'),
  serviceAccountUser('tenant-a', 'trainer'),
  nodeUser('gpu-h100-01'),
  nodeUser('cp-01'),
  { name: 'alice', groups: ['system:authenticated'] },
];

describe('a snapshot read for one question', () => {
  it('answers who-can and can-i as the whole snapshot does', async () => {
    const whole = createAuthzEngine(await loadSnapshot(DEMO));
    let compared = 0;
    for (const q of QUESTIONS) {
      const narrowed = createAuthzEngine(await loadSnapshot(DEMO, { kinds: kindsForWhoCan(undefined, q) }));
      expect(narrowed.whoCan({ resource: q }), JSON.stringify(q)).toEqual(whole.whoCan({ resource: q }));
      for (const user of USERS) {
        const request: AuthzRequest = { user, resource: q };
        const forCanI = createAuthzEngine(await loadSnapshot(DEMO, { kinds: kindsForCanI(undefined, [user]) }));
        expect(forCanI.authorize(request), `${user.name} ${JSON.stringify(q)}`).toEqual(whole.authorize(request));
        compared++;
      }
    }
    expect(compared).toBe(QUESTIONS.length * USERS.length);
    // Some node answers come from the Node authorizer's graph (pods, claims, slices), which an
    // RBAC-only read would not have: the narrowing for a node identity must keep it.
    const rbacOnlyEngine = createAuthzEngine(await loadSnapshot(DEMO, { kinds: kindsForWhoCan(undefined, QUESTIONS[0]) }));
    const graphAnswers = USERS.filter((u) => u.groups.includes('system:nodes')).flatMap((user) =>
      QUESTIONS.filter((q) => whole.authorize({ user, resource: q }).allowed && !rbacOnlyEngine.authorize({ user, resource: q }).allowed),
    );
    expect(graphAnswers.length).toBeGreaterThan(0);
    // The narrowing is real: an RBAC-only read keeps no nodes, and no pods but the API server's
    // (its flags configure every answer: the demo's runs without NodeRestriction).
    const rbacOnly = await loadSnapshot(DEMO, { kinds: kindsForWhoCan(undefined, QUESTIONS[0]) });
    expect(rbacOnly.pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(['kube-system/kube-apiserver-cp-01']);
    expect(createAuthzEngine(rbacOnly).config.nodeRestriction).toEqual({ enabled: false, source: 'api-server' });
    expect(rbacOnly.nodes).toHaveLength(0);
    expect(rbacOnly.clusterRoles.length).toBeGreaterThan(10);
  });

  it('is not stopped by a broken object of a kind it does not read; the whole read still is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dra-narrow-'));
    const file = join(dir, 'cluster.json');
    const items = [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'r' },
        rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'b' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
        subjects: [{ kind: 'User', name: 'alice' }],
      },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'broken', namespace: 'x' }, spec: { containers: 'not a list' } },
    ];
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    await expect(loadSnapshot(file)).rejects.toThrow(/Pod "x\/broken"/);
    const q = res('get', '', 'pods', { namespace: 'x' });
    const engine = createAuthzEngine(await loadSnapshot(file, { kinds: kindsForWhoCan(undefined, q) }));
    expect(engine.whoCan({ resource: q }).map((e) => e.subject.name)).toContain('alice');
  });
});
