import { describe, expect, it } from 'vitest';
import type { Pod } from '@/lib/k8s/types';
import { clusterRole, crb, node, pod, SA, stateOf, user } from './__fixtures__/builders';
import { createAuthzEngine } from './authz-engine';
import { AuthorizationModeError, deriveClusterConfig } from './cluster-config';
import type { ClaimStatusWrite } from './dra-status';
import { serviceAccountUser } from './user-info';

// The API server's configuration, from the flags of a kube-system/kube-apiserver-* pod (kubeadm's
// static pod), the version's gate defaults and what the user states (authz-semantics.md §0, §7;
// dra-facts.md §11; kube-apiserver's own defaults: --authorization-mode AlwaysAllow, NodeRestriction
// not among the default admission plugins).

function apiServer(flags: string[], name = 'kube-apiserver-cp-01'): Pod {
  return pod('kube-system', name, { nodeName: 'cp-01', containers: [{ name: 'kube-apiserver', command: ['kube-apiserver', ...flags] }] });
}

const config = (pods: Pod[], version?: string, overrides = {}) => deriveClusterConfig(stateOf({ pods }, version), overrides);

describe('deriveClusterConfig', () => {
  it('kubeadm flags: the chain, NodeRestriction on, gates over the version defaults', () => {
    const c = config(
      [
        apiServer([
          '--authorization-mode=Node,RBAC',
          '--enable-admission-plugins=NodeRestriction',
          '--feature-gates=ConstrainedImpersonation=true',
          '--feature-gates',
          'DRADeviceTaints=true, SomeOtherGate=false',
        ]),
      ],
      'v1.35.2',
    );
    expect(c.apiServerPod).toBe('kube-system/kube-apiserver-cp-01');
    expect(c.authorizers).toEqual({ modes: ['Node', 'RBAC'], chain: ['Node', 'RBAC'], source: 'api-server' });
    expect(c.nodeRestriction).toEqual({ enabled: true, source: 'api-server' });
    expect(c.featureGates).toEqual({
      ConstrainedImpersonation: { enabled: true, source: 'api-server' },
      DRAAdminAccess: { enabled: true, source: 'version-default' },
      DRADeviceTaintRules: { enabled: false, source: 'version-default' },
      DRADeviceTaints: { enabled: true, source: 'api-server' },
      DRAResourceClaimGranularStatusAuthorization: { enabled: false, source: 'version-default' },
      SomeOtherGate: { enabled: false, source: 'api-server' },
    });
    expect(c.notes).toEqual([]);
  });

  it('NodeRestriction: off unless enabled, and off when disabled', () => {
    expect(config([apiServer(['--authorization-mode=Node,RBAC'])]).nodeRestriction).toEqual({ enabled: false, source: 'api-server' });
    expect(config([apiServer(['--enable-admission-plugins=PodSecurity'])]).nodeRestriction.enabled).toBe(false);
    expect(config([apiServer(['--enable-admission-plugins=NodeRestriction', '--disable-admission-plugins=NodeRestriction'])]).nodeRestriction.enabled).toBe(
      false,
    );
    expect(config([apiServer(['--enable-admission-plugins', 'PodSecurity,NodeRestriction'])]).nodeRestriction.enabled).toBe(true);
  });

  it('no --authorization-mode: kube-apiserver allows every request (AlwaysAllow)', () => {
    const c = config([apiServer(['--enable-admission-plugins=NodeRestriction'])]);
    expect(c.authorizers).toEqual({ modes: ['AlwaysAllow'], chain: ['AlwaysAllow'], source: 'api-server' });
  });

  it('--authorization-config hides the chain: Node,RBAC is kept, with a warning', () => {
    const c = config([apiServer(['--authorization-config=/etc/kubernetes/authz.yaml', '--enable-admission-plugins=NodeRestriction'])], 'v1.36.0');
    expect(c.authorizers).toEqual({ modes: null, chain: ['Node', 'RBAC'], source: 'assumed' });
    expect(c.notes).toEqual([
      'kube-system/kube-apiserver-cp-01 sets --authorization-config: the authorizer chain is configured in a file that is not visible; Node,RBAC is assumed (state it with --authorizers)',
    ]);
    // Stated on the command line, it is applied.
    expect(config([apiServer(['--authorization-config=/x'])], undefined, { authorizationModes: ['RBAC'] }).authorizers).toEqual({
      modes: ['RBAC'],
      chain: ['RBAC'],
      source: 'cli',
    });
  });

  it('Webhook and ABAC are kept in the modes but not decided with, and said so', () => {
    const c = config([apiServer(['--authorization-mode=Node,Webhook,RBAC', '--enable-admission-plugins=NodeRestriction'])]);
    expect(c.authorizers).toEqual({ modes: ['Node', 'Webhook', 'RBAC'], chain: ['Node', 'RBAC'], source: 'api-server' });
    expect(c.notes.join('\n')).toContain('includes Webhook: their decisions are not visible');
  });

  it('no API server pod: version defaults, Node,RBAC and NodeRestriction assumed on, each marked assumed', () => {
    const c = config([], 'v1.36.1');
    expect(c.apiServerPod).toBeNull();
    expect(c.authorizers).toEqual({ modes: ['Node', 'RBAC'], chain: ['Node', 'RBAC'], source: 'assumed' });
    expect(c.nodeRestriction).toEqual({ enabled: true, source: 'assumed' });
    expect(c.featureGates.ConstrainedImpersonation).toEqual({ enabled: true, source: 'version-default' });
    expect(c.notes).toHaveLength(2);
    // No version either: 1.36 defaults, marked assumed.
    expect(config([]).featureGates.DRAResourceClaimGranularStatusAuthorization).toEqual({ enabled: true, source: 'assumed' });
  });

  it('stated values win over the pod flags and the defaults', () => {
    const c = config([apiServer(['--authorization-mode=Node,RBAC', '--feature-gates=ConstrainedImpersonation=false'])], 'v1.36.0', {
      nodeRestriction: true,
      featureGates: new Map([['ConstrainedImpersonation', true]]),
    });
    expect(c.nodeRestriction).toEqual({ enabled: true, source: 'cli' });
    expect(c.featureGates.ConstrainedImpersonation).toEqual({ enabled: true, source: 'cli' });
    expect(() => config([], undefined, { authorizationModes: ['Node', 'Bogus'] })).toThrow(AuthorizationModeError);
  });

  it('says when the flags cannot be what a running server has', () => {
    const bad = config([apiServer(['--feature-gates=ConstrainedImpersonation', '--enable-admission-plugins=NodeRestriction'])], 'v1.35.2');
    expect(bad.featureGates.ConstrainedImpersonation).toEqual({ enabled: false, source: 'version-default' });
    expect(bad.notes.join('\n')).toContain('--feature-gates cannot be read (missing bool value for ConstrainedImpersonation)');
    const unknown = config([apiServer(['--feature-gates=DRAResourceClaimGranularStatusAuthorization=true'])], 'v1.35.2');
    expect(unknown.notes.join('\n')).toContain('Kubernetes 1.35 does not know it');
    const locked = config([apiServer(['--feature-gates=DRAAdminAccess=false'])], 'v1.36.2');
    expect(locked.notes.join('\n')).toContain('GA and locked to true in 1.36');
  });

  it('several API servers: the first applies, and a disagreement is noted', () => {
    const c = config([
      apiServer(['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction'], 'kube-apiserver-cp-02'),
      apiServer(['--authorization-mode=Node,RBAC'], 'kube-apiserver-cp-01'),
    ]);
    expect(c.apiServerPod).toBe('kube-system/kube-apiserver-cp-01');
    expect(c.nodeRestriction.enabled).toBe(false);
    expect(c.notes.join('\n')).toContain('kube-system/kube-apiserver-cp-02 differ from kube-system/kube-apiserver-cp-01');
  });
});

describe('the engine applies the configuration', () => {
  // A node-readiness reporter: constrained impersonation of the node its pod runs on (KEP-5284).
  const reporterRbac = {
    clusterRoles: [
      clusterRole('reporter-identity', [{ verbs: ['impersonate:associated-node'], apiGroups: ['authentication.k8s.io'], resources: ['nodes'] }]),
      clusterRole('reporter-action', [{ verbs: ['impersonate-on:associated-node:update'], apiGroups: [''], resources: ['nodes/status'] }]),
    ],
    clusterRoleBindings: [
      crb('reporter-identity', { kind: 'ClusterRole', name: 'reporter-identity' }, [SA('kube-system', 'reporter')]),
      crb('reporter-action', { kind: 'ClusterRole', name: 'reporter-action' }, [SA('kube-system', 'reporter')]),
    ],
  };
  const cluster = (apiServerFlags: string[]) =>
    stateOf(
      {
        nodes: [node('n1'), node('n2')],
        pods: [pod('kube-system', 'reporter-n1', { nodeName: 'n1', serviceAccountName: 'reporter' }), apiServer(apiServerFlags)],
        ...reporterRbac,
      },
      'v1.35.2',
    );
  const ownStatus = { resource: { verb: 'update', group: '', resource: 'nodes', subresource: 'status', namespace: '', name: 'n1' } };
  const requester = serviceAccountUser('kube-system', 'reporter', 'n1');

  it('1.35.2 with --feature-gates=ConstrainedImpersonation=true: the reporter impersonates its own node and writes its status', () => {
    const engine = createAuthzEngine(
      cluster(['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', '--feature-gates=ConstrainedImpersonation=true']),
    );
    expect(engine.features.constrainedImpersonation).toBe(true);
    const d = engine.authorizeImpersonated(requester, { user: 'system:node:n1' }, ownStatus);
    expect(d.impersonation.mode).toBe('associated-node');
    expect(d.allowed).toBe(true);
  });

  it('1.35.2 without the gate: constrained impersonation does not exist, the reporter is denied', () => {
    const engine = createAuthzEngine(cluster(['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction']));
    expect(engine.features.constrainedImpersonation).toBe(false);
    expect(engine.authorizeImpersonated(requester, { user: 'system:node:n1' }, ownStatus).allowed).toBe(false);
  });

  it('claim status writes follow DRAResourceClaimGranularStatusAuthorization as the flags set it (1.36: on by default)', () => {
    const statusOnly = {
      clusterRoles: [clusterRole('status-writer', [{ verbs: ['update'], apiGroups: ['resource.k8s.io'], resources: ['resourceclaims/status'] }])],
      clusterRoleBindings: [crb('status-writer', { kind: 'ClusterRole', name: 'status-writer' }, [SA('drivers', 'monitor')])],
    };
    const engineWith = (...flags: string[]) =>
      createAuthzEngine(
        stateOf({ pods: [apiServer(['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', ...flags])], ...statusOnly }, 'v1.36.3'),
      );
    const claim = { metadata: { name: 'c', namespace: 'team' }, status: {} };
    const write: ClaimStatusWrite = { verb: 'update', changesBinding: false, drivers: ['gpu.example.com'] };
    const monitor = serviceAccountUser('drivers', 'monitor');
    expect(engineWith().claimStatusWrite(monitor, claim, write).allowed).toBe(false);
    const off = engineWith('--feature-gates=DRAResourceClaimGranularStatusAuthorization=false');
    expect(off.features.granularStatusAuthorization).toBe(false);
    expect(off.claimStatusWrite(monitor, claim, write).allowed).toBe(true);
  });

  it('the chain comes from --authorization-mode: RBAC alone gives kubelets nothing, AlwaysAllow gives everyone everything', () => {
    const kubelet = { user: user('system:node:n1', 'system:nodes', 'system:authenticated'), ...ownStatus };
    expect(createAuthzEngine(cluster(['--authorization-mode=Node,RBAC'])).authorize(kubelet).allowed).toBe(true);
    const rbacOnly = createAuthzEngine(cluster(['--authorization-mode=RBAC']));
    expect(rbacOnly.chain).toEqual(['RBAC']);
    expect(rbacOnly.authorize(kubelet).allowed).toBe(false);
    const open = createAuthzEngine(cluster([]));
    expect(open.chain).toEqual(['AlwaysAllow']);
    const anyone = {
      user: user('system:anonymous', 'system:unauthenticated'),
      resource: { ...ownStatus.resource, verb: 'delete', resource: 'secrets', subresource: '' },
    };
    expect(open.authorize(anyone)).toMatchObject({ allowed: true, decidedBy: 'always-allow' });
    expect(open.whoCan({ resource: anyone.resource }).map((e) => `${e.via} ${e.subject.name}`)).toEqual([
      'always-allow system:authenticated',
      'privileged-group system:masters',
      'always-allow system:unauthenticated',
    ]);
    // AlwaysDeny ends the chain: RBAC after it never runs.
    const closed = createAuthzEngine(cluster([]), { chain: ['AlwaysDeny', 'Node'] });
    expect(closed.authorize(kubelet).allowed).toBe(false);
    expect(closed.whoCan({ resource: ownStatus.resource }).map((e) => e.subject.name)).toEqual(['system:masters']);
  });
});
