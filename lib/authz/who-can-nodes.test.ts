import { describe, expect, it } from 'vitest';
import { loadDemo } from '@/server/sources/demo-source';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { PolicyRule, Subject } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { Group, listOnNode, User } from './__fixtures__/builders';
import { randomRbacState, SMALL_RBAC } from './__fixtures__/random-rbac';
import { createAuthzEngine } from './authz-engine';
import { authorizeNode } from './node-authorizer';
import { buildNodeGraph } from './node-graph';
import type { AuthorizerName, ResourceAttributes } from './types';
import type { WhoCanEntry } from './who-can';
import { nodeUser } from './user-info';

// who-can asks the Node authorizer only about nodes that could answer differently from an unrelated
// node; this compares it with asking every node, over every object of the demo that a node can reach.

describe('who-can node identities', () => {
  it('equal asking every node, for every reachable object, verb and selector of the demo', async () => {
    const state = await loadDemo();
    const engine = createAuthzEngine(state, { chain: ['Node'] });
    const graph = buildNodeGraph(state);
    const nodes = state.nodes.map((n) => n.metadata.name);
    const questions = nodeQuestions(state);
    expect(questions.length).toBeGreaterThan(500);
    let allowedSomewhere = 0;
    for (const q of questions) {
      const expected = nodes.filter((n) => authorizeNode(graph, { user: nodeUser(n), resource: q })?.allowed);
      const entries = engine.whoCan({ resource: q }).filter((e) => e.via === 'node');
      const got = entries.some((e) => e.subject.name === 'system:nodes') ? nodes : entries.map((e) => e.subject.name.replace('system:node:', ''));
      expect([...got].sort(), JSON.stringify(q)).toEqual([...expected].sort());
      if (expected.length > 0 && expected.length < nodes.length) allowedSomewhere++;
    }
    // The interesting cases (some nodes but not all) are many, or this test proves little.
    expect(allowedSomewhere).toBeGreaterThan(100);
  });
});

// whoCanNodes is whoCan's Node-authorizer part alone (the analysis asks it for every question it
// answers): the same node entries, in the same order, whatever the chain and whatever RBAC grants
// (RBAC may bind node identities too; whoCan then adds its grants to their node entries).
describe('whoCanNodes', () => {
  const CHAINS: AuthorizerName[][] = [['Node', 'RBAC'], ['RBAC', 'Node'], ['Node'], ['RBAC'], ['AlwaysAllow', 'Node'], ['Node', 'AlwaysDeny', 'RBAC']];
  const RULES: PolicyRule[] = [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
    { verbs: ['get', 'update'], apiGroups: [''], resources: ['nodes', 'nodes/status', 'pods'] },
    { verbs: ['create'], apiGroups: ['resource.k8s.io'], resources: ['resourceslices'] },
  ];
  const shown = (e: WhoCanEntry) => ({ subject: e.subject, via: e.via, note: e.note });
  let demo: Promise<ClusterState> | undefined;
  for (let seed = 1; seed <= 12; seed++) {
    it(`gives whoCan's node entries (seed ${seed})`, async () => {
      const r = createRandom(3100 + seed);
      const cluster = await (demo ??= loadDemo());
      const nodeNames = cluster.nodes.map((n) => n.metadata.name);
      const subjects: Subject[] = [Group('system:nodes'), Group('system:authenticated'), User('alice'), ...nodeNames.map((n) => User(`system:node:${n}`))];
      const namespaces = [...new Set(cluster.pods.map((p) => p.metadata.namespace ?? ''))];
      const rbac = randomRbacState(r, { ...SMALL_RBAC, rules: RULES, subjects, namespaces });
      const state: ClusterState = {
        ...cluster,
        clusterRoles: rbac.clusterRoles,
        roles: rbac.roles,
        clusterRoleBindings: rbac.clusterRoleBindings,
        roleBindings: rbac.roleBindings,
      };
      const all = nodeQuestions(state);
      const asked = Array.from({ length: 200 }, () => r.pick(all));
      for (const chain of CHAINS) {
        const engine = createAuthzEngine(state, { chain });
        let found = 0;
        for (const q of asked) {
          const expected = engine.whoCan({ resource: q }).filter((e) => e.via === 'node');
          expect(engine.whoCanNodes({ resource: q }).map(shown), `${chain} ${JSON.stringify(q)}`).toEqual(expected.map(shown));
          found += expected.length;
        }
        // Where the Node authorizer is reached, some requests are allowed to nodes, or this proves little.
        if (chain.indexOf('Node') >= 0 && !chain.slice(0, chain.indexOf('Node')).some((m) => m.startsWith('Always')))
          expect(found, `${chain}`).toBeGreaterThan(0);
      }
    });
  }
});

/** Every request about an object of the state a node can reach, each verb, and the per-node list selectors. */
function nodeQuestions(state: ClusterState): ResourceAttributes[] {
  const nodes = state.nodes.map((n) => n.metadata.name);
  const questions: ResourceAttributes[] = [];
  const add = (group: string, resource: string, namespace: string, name: string, subresources: string[] = ['']) => {
    for (const verb of ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']) {
      for (const subresource of subresources) questions.push({ verb, group, resource, subresource, namespace, name });
    }
  };
  for (const p of state.pods) {
    const ns = p.metadata.namespace ?? '';
    add('', 'pods', ns, p.metadata.name, ['', 'status', 'eviction']);
    add('', 'serviceaccounts', ns, p.spec.serviceAccountName ?? 'default', ['token']);
    for (const v of p.spec.volumes ?? []) {
      if (v.secret?.secretName) add('', 'secrets', ns, v.secret.secretName);
      if (v.configMap?.name) add('', 'configmaps', ns, v.configMap.name);
      if (v.persistentVolumeClaim?.claimName) add('', 'persistentvolumeclaims', ns, v.persistentVolumeClaim.claimName, ['', 'status']);
    }
    for (const c of p.spec.resourceClaims ?? []) if (c.resourceClaimName) add('resource.k8s.io', 'resourceclaims', ns, c.resourceClaimName);
  }
  for (const v of state.persistentVolumes) add('', 'persistentvolumes', '', v.metadata.name);
  for (const s of state.resourceSlices) add('resource.k8s.io', 'resourceslices', '', s.metadata.name);
  for (const n of nodes) {
    add('', 'nodes', '', n, ['', 'status']);
    add('coordination.k8s.io', 'leases', 'kube-node-lease', n);
    questions.push(listOnNode('', 'pods', n));
    questions.push(listOnNode('resource.k8s.io', 'resourceslices', n));
  }
  return questions;
}
