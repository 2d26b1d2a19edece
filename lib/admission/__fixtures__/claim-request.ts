import type { AdmissionRequest } from '../types';

/** A CREATE of a v1 ResourceClaim named c in tenant-a as it reaches admission; `over` changes any part. */
export const claimRequest = (object: unknown, over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  operation: 'CREATE',
  group: 'resource.k8s.io',
  version: 'v1',
  resource: 'resourceclaims',
  subresource: '',
  kind: 'ResourceClaim',
  namespace: 'tenant-a',
  name: 'c',
  object,
  oldObject: null,
  userInfo: { username: 'alice', groups: ['tenants', 'system:authenticated'] },
  ...over,
});
