import { describe, expect, it } from 'vitest';
import { KINDS } from '@/lib/k8s/kinds';
import { isApiServerPod } from '@/lib/k8s/api-server-flags';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import { loadDemo } from '@/server/sources/demo-source';
import { listOnNode } from './__fixtures__/builders';
import { createAuthzEngine } from './authz-engine';
import { kindsForCanI, kindsForWhoCan, NAMESPACED_RBAC_KINDS, RBAC_KINDS, rbacNamespacesFor } from './kinds-for-question';
import type { ResourceAttributes, UserInfo } from './types';

// A live question reads only the kinds these functions name; the answers must equal those from the
// whole cluster. This reads the demo whole, then keeps only the named kinds, and compares.

function only(state: ClusterState, kinds: ReadonlySet<string>): ClusterState {
  const copy = { ...state } as Record<string, unknown>;
  for (const k of KINDS) if (!kinds.has(k.kind)) copy[k.collection] = [];
  // As the loaders do: the API server's pods are kept (their flags configure every answer).
  if (!kinds.has('Pod')) copy.pods = state.pods.filter((p) => isApiServerPod(p.metadata));
  return copy as unknown as ClusterState;
}

/** The state with Roles and RoleBindings kept only in these namespaces (what a scoped live read lists). */
function rbacIn(state: ClusterState, namespaces: ReadonlySet<string>): ClusterState {
  const copy = { ...state } as Record<string, unknown>;
  for (const k of KINDS)
    if (NAMESPACED_RBAC_KINDS.has(k.kind))
      copy[k.collection] = (copy[k.collection] as { metadata: { namespace?: string } }[]).filter((o) => namespaces.has(o.metadata.namespace ?? ''));
  return copy as unknown as ClusterState;
}

async function demoQuestions() {
  const state = await loadDemo();
  const questions: ResourceAttributes[] = [];
  const add = (group: string, resource: string, namespace: string, name: string, subresources = ['']) => {
    for (const verb of ['get', 'list', 'create', 'update', 'delete'])
      for (const subresource of subresources) questions.push({ verb, group, resource, subresource, namespace, name });
  };
  for (const p of state.pods) {
    const ns = p.metadata.namespace ?? '';
    add('', 'pods', ns, p.metadata.name, ['', 'status']);
    add('', 'pods', ns, '');
    add('', 'serviceaccounts', ns, p.spec.serviceAccountName ?? 'default', ['token']);
    for (const c of p.spec.resourceClaims ?? [])
      if (c.resourceClaimName) add('resource.k8s.io', 'resourceclaims', ns, c.resourceClaimName, ['', 'status', 'binding']);
  }
  for (const s of state.resourceSlices) add('resource.k8s.io', 'resourceslices', '', s.metadata.name);
  for (const n of state.nodes) {
    add('', 'nodes', '', n.metadata.name, ['', 'status']);
    questions.push(listOnNode('', 'pods', n.metadata.name));
  }
  add('resource.k8s.io', 'resourceslices', '', '');
  add('resource.k8s.io', 'deviceclasses', '', '');
  add('', 'nodes', '', '', ['', 'status']);
  return { state, questions };
}

describe('kinds a question needs', () => {
  it('who-can: the answer from only the needed kinds equals the whole cluster’s, for every demo question', async () => {
    const { state, questions } = await demoQuestions();
    const full = createAuthzEngine(state);
    const engines = new Map<ReadonlySet<string>, ReturnType<typeof createAuthzEngine>>();
    let narrowed = 0;
    let nodeAnswers = 0;
    for (const q of questions) {
      const kinds = kindsForWhoCan(undefined, q);
      if (kinds === RBAC_KINDS) narrowed++;
      if (!engines.has(kinds)) engines.set(kinds, createAuthzEngine(only(state, kinds)));
      const expected = full.whoCan({ resource: q });
      if (expected.some((e) => e.via === 'node' && e.subject.kind === 'User')) nodeAnswers++;
      expect(engines.get(kinds)!.whoCan({ resource: q }), JSON.stringify(q)).toEqual(expected);
    }
    // Both paths are exercised, and named nodes answer in many of them, or this proves little.
    expect(narrowed).toBeGreaterThan(20);
    expect(nodeAnswers).toBeGreaterThan(20);
  });

  it('who-can: a named question with RBAC kinds only would miss node identities (the test can fail)', async () => {
    const { state, questions } = await demoQuestions();
    const full = createAuthzEngine(state);
    const rbacOnly = createAuthzEngine(only(state, RBAC_KINDS));
    const differs = questions.filter((q) => JSON.stringify(full.whoCan({ resource: q })) !== JSON.stringify(rbacOnly.whoCan({ resource: q })));
    expect(differs.length).toBeGreaterThan(0);
    for (const q of differs) expect(kindsForWhoCan(undefined, q)).not.toBe(RBAC_KINDS);
  });

  it('can-i: the decision from only the needed kinds equals the whole cluster’s, for node and other users', async () => {
    const { state, questions } = await demoQuestions();
    const full = createAuthzEngine(state);
    const users: UserInfo[] = [
      ...state.nodes.map((n) => ({ name: `system:node:${n.metadata.name}`, groups: ['system:nodes', 'system:authenticated'] })),
      { name: 'alice', groups: ['system:authenticated'] },
      { name: 'system:serviceaccount:gpu-operator:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:gpu-operator', 'system:authenticated'] },
    ];
    let allowed = 0;
    for (const user of users) {
      const kinds = kindsForCanI(undefined, [user]);
      const engine = createAuthzEngine(only(state, kinds));
      for (const q of questions) {
        const expected = full.authorize({ user, resource: q });
        if (expected.allowed) allowed++;
        expect(engine.authorize({ user, resource: q }).allowed, `${user.name} ${JSON.stringify(q)}`).toBe(expected.allowed);
      }
    }
    expect(allowed).toBeGreaterThan(20);
    expect(kindsForCanI(['RBAC'], [users[0]])).toBe(RBAC_KINDS);
  });

  it('a question in one namespace: Roles and RoleBindings of that namespace alone give the whole cluster’s answers (who-can and can-i)', async () => {
    const { state, questions } = await demoQuestions();
    const full = createAuthzEngine(state);
    const users: UserInfo[] = [
      { name: 'alice', groups: ['system:authenticated'] },
      ...state.serviceAccounts.map((sa) => ({
        name: `system:serviceaccount:${sa.metadata.namespace}:${sa.metadata.name}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${sa.metadata.namespace}`, 'system:authenticated'],
      })),
    ];
    let scoped = 0;
    let fromRoleBindings = 0;
    for (const q of questions) {
      const namespaces = rbacNamespacesFor([q]);
      if (!namespaces) {
        expect(q.namespace).toBe('');
        continue;
      }
      scoped++;
      const engine = createAuthzEngine(rbacIn(state, namespaces));
      const expected = full.whoCan({ resource: q });
      if (expected.some((e) => e.grants.some((g) => g.binding.kind === 'RoleBinding'))) fromRoleBindings++;
      expect(engine.whoCan({ resource: q }), JSON.stringify(q)).toEqual(expected);
      for (const user of users) expect(engine.authorize({ user, resource: q }).allowed).toBe(full.authorize({ user, resource: q }).allowed);
    }
    expect(scoped).toBeGreaterThan(50);
    expect(fromRoleBindings).toBeGreaterThan(10);
    // The scope matters: without the question's own namespace, RoleBinding grants go missing.
    const q = questions.find((x) => x.namespace && full.whoCan({ resource: x }).some((e) => e.grants.some((g) => g.binding.kind === 'RoleBinding')))!;
    expect(createAuthzEngine(rbacIn(state, new Set(['elsewhere']))).whoCan({ resource: q })).not.toEqual(full.whoCan({ resource: q }));
  });

  it('rbacNamespacesFor: the union of named namespaces; all (undefined) once one request has none; none for non-resource', () => {
    expect([...rbacNamespacesFor([{ namespace: 'a' }, { namespace: 'b' }, { namespace: 'a' }])!]).toEqual(['a', 'b']);
    expect(rbacNamespacesFor([{ namespace: 'a' }, { namespace: '' }])).toBeUndefined();
    expect(rbacNamespacesFor([undefined])!.size).toBe(0);
  });
});
