import type { AccessQuestion } from './access';

// The access questions the context and the checks ask, in one place so the cache is shared.

const DRA = 'resource.k8s.io';

export const DRIVER_VERBS = ['associated-node:update', 'associated-node:patch', 'arbitrary-node:update', 'arbitrary-node:patch'] as const;
export const ARBITRARY_NODE_VERBS = ['arbitrary-node:update', 'arbitrary-node:patch'] as const;

export const Q = {
  /** create carries no name: only grants without resourceNames. */
  sliceCreate: { verbs: ['create'], group: DRA, resource: 'resourceslices', scope: 'cluster', names: [''] },
  sliceModify: { verbs: ['update', 'patch', 'delete'], group: DRA, resource: 'resourceslices', scope: 'cluster', names: 'any' },
  classCreate: { verbs: ['create'], group: DRA, resource: 'deviceclasses', scope: 'cluster', names: [''] },
  classModify: { verbs: ['update', 'patch', 'delete'], group: DRA, resource: 'deviceclasses', scope: 'cluster', names: 'any' },
  claimStatus: { verbs: ['update', 'patch'], group: DRA, resource: 'resourceclaims', subresource: 'status', scope: 'namespaced', names: 'any' },
  /** Checked at the cluster scope with no name (pkg/registry/resource/utils.go AuthorizedForBinding). */
  claimBinding: { verbs: ['update', 'patch'], group: DRA, resource: 'resourceclaims', subresource: 'binding', scope: 'cluster', names: [''] },
  claimDriver: { verbs: DRIVER_VERBS, group: DRA, resource: 'resourceclaims', subresource: 'driver', scope: 'namespaced', names: 'any' },
  claimDriverArbitrary: { verbs: ARBITRARY_NODE_VERBS, group: DRA, resource: 'resourceclaims', subresource: 'driver', scope: 'namespaced', names: 'any' },
  /** Claim creators: create carries no name. Asked per namespace (`namespaces: [ns]`) on large clusters. */
  claimCreate: { verbs: ['create'], group: DRA, resource: 'resourceclaims', scope: 'namespaced', names: [''] },
  templateCreate: { verbs: ['create'], group: DRA, resource: 'resourceclaimtemplates', scope: 'namespaced', names: [''] },
  /** Only a rule with `*` verbs, `*` groups and `*` resources (and no resourceNames) can match this. */
  adminProbe: { verbs: ['dra-posture-probe'], group: 'dra-posture-probe.io', resource: 'dra-posture-probe', scope: 'cluster', names: 'unscoped' },
} satisfies Record<string, AccessQuestion>;

/** What a DRA component must not be able to do (DRA008): escalation-grade access, each as a question. */
export const ESCALATION_QUESTIONS: { label: string; q: AccessQuestion }[] = [
  { label: 'read Secrets cluster-wide', q: { verbs: ['get', 'list', 'watch'], group: '', resource: 'secrets', scope: 'cluster', names: 'unscoped' } },
  { label: 'exec into pods', q: { verbs: ['create', 'get'], group: '', resource: 'pods', subresource: 'exec', scope: 'namespaced', names: 'any' } },
  { label: 'write Namespaces', q: { verbs: ['create', 'update', 'patch', 'delete'], group: '', resource: 'namespaces', scope: 'cluster', names: 'any' } },
  {
    label: 'escalate or bind ClusterRoles',
    q: { verbs: ['escalate', 'bind'], group: 'rbac.authorization.k8s.io', resource: 'clusterroles', scope: 'cluster', names: 'any' },
  },
  {
    label: 'escalate or bind Roles',
    q: { verbs: ['escalate', 'bind'], group: 'rbac.authorization.k8s.io', resource: 'roles', scope: 'namespaced', names: 'any' },
  },
  { label: 'impersonate users', q: { verbs: ['impersonate'], group: '', resource: 'users', scope: 'cluster', names: 'any' } },
  { label: 'impersonate groups', q: { verbs: ['impersonate'], group: '', resource: 'groups', scope: 'cluster', names: 'any' } },
  { label: 'impersonate service accounts', q: { verbs: ['impersonate'], group: '', resource: 'serviceaccounts', scope: 'namespaced', names: 'any' } },
  {
    label: 'impersonate users (constrained user-info)',
    q: { verbs: ['impersonate:user-info'], group: 'authentication.k8s.io', resource: 'users', scope: 'cluster', names: 'any' },
  },
  {
    label: 'impersonate service accounts (constrained)',
    q: { verbs: ['impersonate:serviceaccount'], group: 'authentication.k8s.io', resource: 'serviceaccounts', scope: 'namespaced', names: 'any' },
  },
  {
    label: 'impersonate any node (arbitrary-node)',
    q: { verbs: ['impersonate:arbitrary-node'], group: 'authentication.k8s.io', resource: 'nodes', scope: 'cluster', names: 'any' },
  },
];
