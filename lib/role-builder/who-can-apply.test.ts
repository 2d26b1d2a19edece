import { describe, expect, it } from 'vitest';
import { createAuthzEngine } from '@/lib/authz/authz-engine';
import { loadDemo } from '@/server/sources/demo-source';
import { buildBundle } from './build-bundle';
import { GOLDEN_INPUTS } from './golden-inputs';
import { canApplyBundle, engineForApplying, whoCanApply } from './who-can-apply';

// Issue 16: for an approval, can the approver apply the bundle without escalate or bind, and who could.
describe('who can apply a role bundle', () => {
  it('system:masters can (bypassing the escalation check); a tenant user cannot, refused at authorization', async () => {
    const engine = createAuthzEngine(await loadDemo());
    const bundle = buildBundle(GOLDEN_INPUTS['node-local-driver']);
    const root = canApplyBundle(engine, { name: 'root', groups: ['system:masters', 'system:authenticated'] }, bundle.objects);
    expect(root).toMatchObject({ allowed: true, withoutEscalation: true });
    expect(root.objects).toHaveLength(bundle.objects.length);
    const alice = canApplyBundle(engine, { name: 'alice', groups: ['system:authenticated'] }, bundle.objects);
    expect(alice.allowed).toBe(false);
    expect(alice.objects.find((o) => !o.allowed)!.reason).toMatch(/^authorization: /);
  });

  it('lists the cluster’s subjects that could apply it, each checked through the whole chain', async () => {
    const engine = createAuthzEngine(await loadDemo());
    const bundle = buildBundle(GOLDEN_INPUTS.scheduler);
    const { total, appliers } = whoCanApply(engine, bundle.objects);
    expect(total).toBeGreaterThan(0);
    expect(appliers.map((a) => `${a.subject.kind} ${a.subject.name}`)).toContain('Group system:masters');
    for (const a of appliers) expect(a.subject.kind === 'Group' || a.subject.kind === 'User' || a.subject.kind === 'ServiceAccount').toBe(true);
    expect(appliers.map((a) => a.subject.name)).not.toContain('alice');
    // cluster-admin holders hold every rule they would grant: no escalate or bind needed.
    expect(appliers.find((a) => a.subject.name === 'kubeadm:cluster-admins')?.withoutEscalation).toBe(true);
  });

  it('the cluster as the applier meets it: the bundle’s roles are in a new RBAC index, the node graph is the cluster’s', async () => {
    const engine = createAuthzEngine(await loadDemo());
    const bundle = buildBundle(GOLDEN_INPUTS['node-local-driver']);
    const prepared = engineForApplying(engine, bundle.objects);
    expect(prepared.nodeGraph).toBe(engine.nodeGraph);
    expect(prepared.nodeNames).toBe(engine.nodeNames);
    expect(prepared.rbac).not.toBe(engine.rbac);
    const clusterRoles = bundle.objects.filter((x) => x.object.kind === 'ClusterRole');
    expect(clusterRoles.length).toBeGreaterThan(0);
    for (const o of clusterRoles)
      expect([prepared.rbac.clusterRoles.has(o.object.metadata.name), engine.rbac.clusterRoles.has(o.object.metadata.name)]).toEqual([true, false]);
  });
});
