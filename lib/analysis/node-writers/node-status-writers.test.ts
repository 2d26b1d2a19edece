import { describe, expect, it } from 'vitest';
import { buildAnalysisContext } from '@/lib/analysis/context/build-analysis-context';
import { DEFAULT_SETTINGS } from '@/lib/analysis/settings';
import { createAuthzEngine, type AuthzEngineOptions } from '@/lib/authz/authz-engine';
import { clusterRole, crb, Group, node, pod, rb, SA, stateOf, User } from '@/lib/authz/__fixtures__/builders';
import type { ClusterState } from '@/lib/k8s/cluster-state';
import type { NodeStatusWriter } from '@/lib/analysis/types';
import { listNodeWriters, writersOfNode, type NodeWriterLists } from './node-writers';
import { computeBlastRadius } from './blast-radius';

// The full writer list of every node, put back together from the all-nodes list and each node's own.
const perNode = (w: NodeWriterLists) => new Map(w.nodes.map((n) => [n.name, writersOfNode(w, n).statusWriters]));

// DESIGN §3 / dra-facts §8: who can write each node's nodes/status, and how.

const constrainedRoles = [
  clusterRole('node-readiness-impersonator', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
  clusterRole('node-status-patcher-constrained', [
    { verbs: ['impersonate-on:associated-node:get'], apiGroups: [''], resources: ['nodes'] },
    { verbs: ['impersonate-on:associated-node:update'], apiGroups: [''], resources: ['nodes/status'] },
  ]),
];

function baseState(): ClusterState {
  return stateOf({
    nodes: [node('n1'), node('n2'), node('n3')],
    pods: [
      pod('kube-system', 'reporter-n1', { nodeName: 'n1', serviceAccountName: 'reporter' }),
      pod('kube-system', 'reporter-n2', { nodeName: 'n2', serviceAccountName: 'reporter' }),
      pod('kube-system', 'intel-reporter-n3', { nodeName: 'n3', serviceAccountName: 'intel-reporter' }),
    ],
    clusterRoles: [
      ...constrainedRoles,
      clusterRole('node-status-patch-role', [
        { verbs: ['get'], apiGroups: [''], resources: ['nodes'] },
        { verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] },
      ]),
      clusterRole('node-labeler', [{ verbs: ['get', 'update', 'patch'], apiGroups: [''], resources: ['nodes'] }]),
      clusterRole('n2-status', [{ verbs: ['update'], apiGroups: [''], resources: ['nodes/status'], resourceNames: ['n2'] }]),
      clusterRole('legacy-impersonator', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] }]),
      clusterRole('arbitrary-n3', [
        { verbs: ['impersonate:arbitrary-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'], resourceNames: ['n3'] },
        { verbs: ['impersonate-on:arbitrary-node:patch'], apiGroups: [''], resources: ['nodes/status'] },
      ]),
    ],
    clusterRoleBindings: [
      crb('reporter-identity', { kind: 'ClusterRole', name: 'node-readiness-impersonator' }, [
        SA('kube-system', 'reporter'),
        SA('kube-system', 'idle-reporter'),
      ]),
      crb('reporter-action', { kind: 'ClusterRole', name: 'node-status-patcher-constrained' }, [
        SA('kube-system', 'reporter'),
        SA('kube-system', 'idle-reporter'),
      ]),
      crb('intel-reporter', { kind: 'ClusterRole', name: 'node-status-patch-role' }, [SA('kube-system', 'intel-reporter')]),
      crb('labeler', { kind: 'ClusterRole', name: 'node-labeler' }, [SA('nvidia', 'kubelet-plugin')]),
      crb('n2-op', { kind: 'ClusterRole', name: 'n2-status' }, [User('n2-operator')]),
      crb('legacy', { kind: 'ClusterRole', name: 'legacy-impersonator' }, [User('legacy-admin')]),
      crb('arb', { kind: 'ClusterRole', name: 'arbitrary-n3' }, [Group('node-ops')]),
    ],
  });
}

const label = (w: NodeStatusWriter) => `${w.mode} ${w.scope} ${w.subject.kind}/${w.subject.namespace ? `${w.subject.namespace}/` : ''}${w.subject.name}`;

function writers(state: ClusterState, options: AuthzEngineOptions = {}) {
  const engine = createAuthzEngine(state, options);
  const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
  const map = perNode(listNodeWriters(ctx));
  return { map, labels: (n: string) => (map.get(n) ?? []).map(label) };
}

describe('node status writers (listNodeWriters)', () => {
  const { map, labels } = writers(baseState());

  it('lists every node, writers sorted by mode then subject', () => {
    expect([...map.keys()]).toEqual(['n1', 'n2', 'n3']);
    expect(labels('n1')).toEqual([
      'node-authorizer own-node User/system:node:n1',
      'constrained-impersonation own-node ServiceAccount/kube-system/reporter',
      'rbac all-nodes ServiceAccount/kube-system/intel-reporter',
      'impersonation all-nodes User/legacy-admin',
    ]);
  });

  it('own-node constrained impersonation: exactly the nodes where the reporter has pods', () => {
    const nodesOf = (name: string) =>
      [...map].filter(([, ws]) => ws.some((w) => w.mode === 'constrained-impersonation' && w.subject.name === name)).map(([n]) => n);
    expect(nodesOf('reporter')).toEqual(['n1', 'n2']);
    // Same grants but no pod anywhere: its tokens name no node.
    expect(nodesOf('idle-reporter')).toEqual([]);
  });

  it('a reporter with no pod on a node is not listed there', () => {
    expect(labels('n3')).not.toContain('constrained-impersonation own-node ServiceAccount/kube-system/reporter');
  });

  it('a node identity writes only its own node', () => {
    for (const n of ['n1', 'n2', 'n3']) {
      expect((map.get(n) ?? []).filter((w) => w.mode === 'node-authorizer').map((w) => w.subject.name)).toEqual([`system:node:${n}`]);
    }
  });

  it('resourceNames-restricted RBAC is listed only on the named node, with scope named', () => {
    expect(labels('n2')).toContain('rbac named User/n2-operator');
    expect(labels('n1').some((l) => l.includes('n2-operator'))).toBe(false);
    expect(labels('n3').some((l) => l.includes('n2-operator'))).toBe(false);
  });

  it('a grant on nodes alone does not make a nodes/status writer', () => {
    for (const n of ['n1', 'n2', 'n3']) expect(labels(n).some((l) => l.includes('kubelet-plugin'))).toBe(false);
  });

  it('legacy impersonation of users and groups reaches every node', () => {
    for (const n of ['n1', 'n2', 'n3']) expect(labels(n)).toContain('impersonation all-nodes User/legacy-admin');
    const w = map.get('n3')!.find((x) => x.subject.name === 'legacy-admin')!;
    expect(w.via).toEqual([
      {
        type: 'grant',
        binding: { kind: 'ClusterRoleBinding', name: 'legacy' },
        role: { kind: 'ClusterRole', name: 'legacy-impersonator' },
        ruleIndex: 0,
        rule: { verbs: ['impersonate'], apiGroups: [''], resources: ['users', 'groups'] },
      },
      { type: 'note', text: 'Node: nodes may write nodes/status (NodeRestriction limits them to their own)' },
      { type: 'note', text: 'impersonates any node identity (system:node:<name> with group system:nodes) (legacy impersonation)' },
    ]);
  });

  it('arbitrary-node constrained impersonation named to one node', () => {
    expect(labels('n3')).toContain('constrained-impersonation named Group/node-ops');
    expect(labels('n1').some((l) => l.includes('node-ops'))).toBe(false);
  });

  it('via holds binding → role → rule evidence', () => {
    const w = map.get('n1')!.find((x) => x.subject.name === 'intel-reporter')!;
    expect(w.via).toEqual([
      {
        type: 'grant',
        binding: { kind: 'ClusterRoleBinding', name: 'intel-reporter' },
        role: { kind: 'ClusterRole', name: 'node-status-patch-role' },
        ruleIndex: 1,
        rule: { verbs: ['patch', 'update'], apiGroups: [''], resources: ['nodes/status'] },
      },
    ]);
    const r = map.get('n1')!.find((x) => x.subject.name === 'reporter')!;
    expect(r.via.filter((e) => e.type === 'grant').map((e) => (e.type === 'grant' ? e.role.name : ''))).toEqual([
      'node-status-patcher-constrained',
      'node-readiness-impersonator',
    ]);
  });

  it('without the Node authorizer in the chain, node identities are not writers', () => {
    const { labels: l } = writers(baseState(), { chain: ['RBAC'] });
    expect(l('n1').filter((x) => x.startsWith('node-authorizer'))).toEqual([]);
  });

  it('constrained impersonation off (1.34): the reporter is no writer', () => {
    const s = baseState();
    s.source = { ...s.source, kubernetesVersion: 'v1.34.2' };
    const { labels: l } = writers(s);
    expect(l('n1').some((x) => x.includes('reporter') && x.startsWith('constrained'))).toBe(false);
  });

  it('an admin-equivalent appears as rbac all-nodes with an admin note', () => {
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('cluster-admin', [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ]),
    );
    s.clusterRoleBindings.push(crb('root', { kind: 'ClusterRole', name: 'cluster-admin' }, [User('root')]));
    const { map: m } = writers(s);
    const root = m.get('n2')!.filter((w) => w.subject.name === 'root');
    expect(root.map(label)).toEqual(['rbac all-nodes User/root']);
    expect(root[0].via.some((e) => e.type === 'note' && e.text.startsWith('admin-equivalent'))).toBe(true);
  });

  it('one entry per subject and mode: an own-node reporter that also impersonates any node is listed once, all-nodes', () => {
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('arbitrary-any', [
        { verbs: ['impersonate:arbitrary-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] },
        { verbs: ['impersonate-on:arbitrary-node:update'], apiGroups: [''], resources: ['nodes/status'] },
      ]),
    );
    s.clusterRoleBindings.push(crb('reporter-any', { kind: 'ClusterRole', name: 'arbitrary-any' }, [SA('kube-system', 'reporter')]));
    const { labels: l } = writers(s);
    for (const n of ['n1', 'n2', 'n3'])
      expect(l(n).filter((x) => x.endsWith('kube-system/reporter'))).toEqual(['constrained-impersonation all-nodes ServiceAccount/kube-system/reporter']);
  });

  it('impersonating an all-nodes RBAC writer (service account) counts as impersonation', () => {
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('impersonate-intel', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['intel-reporter'] }]),
    );
    s.clusterRoleBindings.push(crb('helpdesk', { kind: 'ClusterRole', name: 'impersonate-intel' }, [User('helpdesk')]));
    const { labels: l } = writers(s);
    expect(l('n1')).toContain('impersonation all-nodes User/helpdesk');
  });

  // Both found by e2e/integration/capability-differential.test.ts against a real kube-apiserver.
  it('impersonating an all-nodes writer with an action grant naming one node writes that node only', () => {
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('user-info-on-n3', [
        { verbs: ['impersonate:user-info'], apiGroups: ['authentication.k8s.io'], resources: ['users'] },
        { verbs: ['impersonate-on:user-info:update'], apiGroups: [''], resources: ['nodes/status'], resourceNames: ['n3'] },
      ]),
    );
    s.clusterRoleBindings.push(
      crb('ghost', { kind: 'ClusterRole', name: 'node-status-patch-role' }, [User('ghost-writer')]),
      crb('helper', { kind: 'ClusterRole', name: 'user-info-on-n3' }, [User('helper')]),
    );
    const { labels: l } = writers(s);
    expect(l('n3')).toContain('constrained-impersonation named User/helper');
    for (const n of ['n1', 'n2']) expect(l(n).filter((x) => x.endsWith('User/helper'))).toEqual([]);
  });

  it('impersonating an all-nodes writer through the one verb its grant names a node for', () => {
    // The writer updates every node but patches only n2; the impersonator may only patch.
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('update-all-patch-n2', [
        { verbs: ['update'], apiGroups: [''], resources: ['nodes/status'] },
        { verbs: ['patch'], apiGroups: [''], resources: ['nodes/status'], resourceNames: ['n2'] },
      ]),
      clusterRole('sa-impersonator-patch', [
        { verbs: ['impersonate:serviceaccount'], apiGroups: ['authentication.k8s.io'], resources: ['serviceaccounts'], resourceNames: ['writer'] },
        { verbs: ['impersonate-on:serviceaccount:patch'], apiGroups: [''], resources: ['nodes/status'] },
      ]),
    );
    s.clusterRoleBindings.push(
      crb('writer', { kind: 'ClusterRole', name: 'update-all-patch-n2' }, [SA('ops', 'writer')]),
      crb('patcher', { kind: 'ClusterRole', name: 'sa-impersonator-patch' }, [SA('ops', 'patcher')]),
    );
    const { labels: l } = writers(s);
    expect(l('n2')).toContain('constrained-impersonation named ServiceAccount/ops/patcher');
    for (const n of ['n1', 'n3']) expect(l(n).filter((x) => x.endsWith('ops/patcher'))).toEqual([]);
  });

  it('impersonating system:masters beside the one user name a grant allows', () => {
    // Impersonating a group takes a user too: a grant naming one user still reaches any group.
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('impersonate-viewer-any-group', [
        { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['viewer'] },
        { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'] },
      ]),
    );
    s.clusterRoleBindings.push(crb('masquerade', { kind: 'ClusterRole', name: 'impersonate-viewer-any-group' }, [SA('ops', 'masquerader')]));
    const { labels: l } = writers(s);
    for (const n of ['n1', 'n2', 'n3']) expect(l(n)).toContain('impersonation all-nodes ServiceAccount/ops/masquerader');
  });

  it('impersonating any service account of a namespace whose group writes status (no group impersonation needed)', () => {
    // An impersonated service account carries system:serviceaccounts:<its namespace>.
    const s = baseState();
    s.clusterRoles.push(
      clusterRole('n3-status', [{ verbs: ['update', 'patch'], apiGroups: [''], resources: ['nodes/status'], resourceNames: ['n3'] }]),
      clusterRole('impersonate-bot', [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['bot'] }]),
      clusterRole('sa-user-info-any', [
        { verbs: ['impersonate:serviceaccount'], apiGroups: ['authentication.k8s.io'], resources: ['serviceaccounts'] },
        { verbs: ['impersonate-on:serviceaccount:patch'], apiGroups: [''], resources: ['nodes/status'] },
      ]),
    );
    s.clusterRoleBindings.push(
      crb('ops-n3', { kind: 'ClusterRole', name: 'n3-status' }, [Group('system:serviceaccounts:ops')]),
      crb('ci-all', { kind: 'ClusterRole', name: 'node-status-patch-role' }, [Group('system:serviceaccounts:ci')]),
      crb('any-sa', { kind: 'ClusterRole', name: 'sa-user-info-any' }, [User('sa-hopper')]),
    );
    s.roleBindings.push(rb('ops', 'bot-impersonator', { kind: 'ClusterRole', name: 'impersonate-bot' }, [User('bot-keeper')]));
    s.serviceAccounts.push({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'ops', name: 'bot' } });
    const { labels: l } = writers(s);
    expect(l('n3')).toContain('impersonation named User/bot-keeper');
    for (const n of ['n1', 'n2']) expect(l(n).filter((x) => x.endsWith('User/bot-keeper'))).toEqual([]);
    expect(l('n1')).toContain('constrained-impersonation all-nodes User/sa-hopper');
  });
});

describe('node status writers follow the API server configuration', () => {
  // kube-apiserver flags as kubeadm's static pod shows them; NodeRestriction runs only when enabled.
  const apiServer = (...flags: string[]) =>
    pod('kube-system', 'kube-apiserver-cp', {
      containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', '--authorization-mode=Node,RBAC', ...flags] }],
    });
  const withServer = (s: ClusterState, ...flags: string[]) => ({ ...s, pods: [...s.pods, apiServer(...flags)] });
  const allNodes = (s: ClusterState, options: AuthzEngineOptions = {}) => {
    const engine = createAuthzEngine(s, options);
    return listNodeWriters(buildAnalysisContext(s, engine, DEFAULT_SETTINGS));
  };

  it('NodeRestriction off: every kubelet writes every node (one Group system:nodes entry), and node impersonators reach every node', () => {
    const w = allNodes(withServer(baseState(), '--enable-admission-plugins=PodSecurity'));
    const all = w.allNodes.statusWriters.map(label);
    expect(all).toContain('node-authorizer all-nodes Group/system:nodes');
    // The reporter impersonates the node its pod runs on; that node identity may write any node's status.
    expect(all).toContain('constrained-impersonation all-nodes ServiceAccount/kube-system/reporter');
    // No per-node kubelet entries any more.
    for (const n of w.nodes) expect(n.statusWriters.filter((x) => x.mode === 'node-authorizer')).toEqual([]);
    const kubelets = w.allNodes.statusWriters.find((x) => x.subject.name === 'system:nodes')!;
    expect(kubelets.via.map((e) => (e.type === 'note' ? e.text : ''))).toContainEqual(
      expect.stringContaining('NodeRestriction admission is off (flags of kube-system/kube-apiserver-cp)'),
    );
    // arbitrary-node named to n3 may impersonate system:node:n3, which writes every node's status.
    expect(all).toContain('constrained-impersonation all-nodes Group/node-ops');
  });

  it('NodeRestriction on: the same cluster keeps each kubelet and each reporter to its own node', () => {
    const w = allNodes(withServer(baseState(), '--enable-admission-plugins=NodeRestriction'));
    const all = w.allNodes.statusWriters.map(label);
    expect(all.filter((l) => l.startsWith('node-authorizer') || l.includes('reporter') || l.includes('node-ops'))).toEqual([
      'rbac all-nodes ServiceAccount/kube-system/intel-reporter',
    ]);
    expect(w.nodes.find((n) => n.name === 'n2')!.statusWriters.map(label)).toContain('node-authorizer own-node User/system:node:n2');
  });

  it('blast radius: a compromised node’s kubelet reaches the status of every node only when NodeRestriction is off', () => {
    const kubeletReach = (s: ClusterState) => {
      const engine = createAuthzEngine(s);
      const ctx = buildAnalysisContext(s, engine, DEFAULT_SETTINGS);
      const b = computeBlastRadius(ctx, 'n3', listNodeWriters(ctx));
      return b.identities.find((i) => i.subject.name === 'system:node:n3')!.statusNodes;
    };
    expect(kubeletReach(withServer(baseState(), '--enable-admission-plugins=PodSecurity'))).toEqual(['n1', 'n2', 'n3']);
    expect(kubeletReach(withServer(baseState(), '--enable-admission-plugins=NodeRestriction'))).toEqual(['n3']);
  });

  it('stated on the command line: --node-restriction off over an assumed on', () => {
    expect(allNodes(baseState(), { overrides: { nodeRestriction: false } }).allNodes.statusWriters.map(label)).toContain(
      'node-authorizer all-nodes Group/system:nodes',
    );
  });

  it('v1.35.2: the reporter writes its own node only when --feature-gates=ConstrainedImpersonation=true', () => {
    const s = baseState();
    s.source = { ...s.source, kubernetesVersion: 'v1.35.2' };
    const reporterOn = (st: ClusterState) =>
      perNode(allNodes(st))
        .get('n1')!
        .map(label)
        .filter((l) => l.endsWith('kube-system/reporter'));
    expect(reporterOn(withServer(s, '--enable-admission-plugins=NodeRestriction', '--feature-gates=ConstrainedImpersonation=true'))).toEqual([
      'constrained-impersonation own-node ServiceAccount/kube-system/reporter',
    ]);
    expect(reporterOn(withServer(s, '--enable-admission-plugins=NodeRestriction'))).toEqual([]);
  });
});

describe('scale', () => {
  it('5,000 nodes with a reporter DaemonSet on each stay fast', () => {
    const nodes = Array.from({ length: 5000 }, (_, i) => node(`node-${i}`));
    const pods = nodes.map((n, i) => pod('kube-system', `reporter-${i}`, { nodeName: n.metadata.name, serviceAccountName: 'reporter' }));
    const state = stateOf({
      nodes,
      pods,
      clusterRoles: [...constrainedRoles, clusterRole('broad', [{ verbs: ['patch'], apiGroups: [''], resources: ['nodes/status'] }])],
      clusterRoleBindings: [
        crb('id', { kind: 'ClusterRole', name: 'node-readiness-impersonator' }, [SA('kube-system', 'reporter')]),
        crb('act', { kind: 'ClusterRole', name: 'node-status-patcher-constrained' }, [SA('kube-system', 'reporter')]),
        crb('broad', { kind: 'ClusterRole', name: 'broad' }, [SA('kube-system', 'broad')]),
      ],
    });
    const engine = createAuthzEngine(state);
    const ctx = buildAnalysisContext(state, engine, DEFAULT_SETTINGS);
    const t0 = performance.now();
    const map = perNode(listNodeWriters(ctx));
    const ms = performance.now() - t0;
    expect(map.size).toBe(5000);
    expect(map.get('node-4999')!.map(label)).toEqual([
      'node-authorizer own-node User/system:node:node-4999',
      'constrained-impersonation own-node ServiceAccount/kube-system/reporter',
      'rbac all-nodes ServiceAccount/kube-system/broad',
    ]);
    expect(ms).toBeLessThan(8000);
  });
});
