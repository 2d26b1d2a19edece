import { slicePinningPolicy } from '@/lib/admission/slice-pinning-policy';
import type { BundleObject } from './types';

/**
 * The companion policy of a node-local driver: RBAC cannot tell one node's ResourceSlices from
 * another's, so admission checks that every slice the plugin writes names the node its token is
 * bound to (spec.nodeName == the token's node-name extra).
 */
export function nodeSlicePolicy(stem: string, namespace: string, name: string, labels: Record<string, string>): BundleObject[] {
  const { policy, binding } = slicePinningPolicy({ name: `${stem}-resourceslices-own-node`, username: `system:serviceaccount:${namespace}:${name}`, labels });
  return [
    {
      reason:
        'RBAC cannot restrict slice writes to one node: this policy refuses any slice write whose spec.nodeName is not the node the plugin’s token is bound to',
      object: policy as unknown as BundleObject['object'],
    },
    { reason: 'turns the policy on for every ResourceSlice write (Deny on violation)', object: binding as unknown as BundleObject['object'] },
  ];
}
