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
