import type { SubjectRef, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { usernameOf } from '@/lib/analysis/context/identities';
import { slug } from '@/lib/analysis/checks/check-helpers';

// The ValidatingAdmissionPolicy and binding that pin a node-local driver's ResourceSlice writes to the
// node its token is bound to: RBAC cannot tell one node's slices from another's, admission can. A
// service account token issued for a pod carries authentication.kubernetes.io/node-name
// (ServiceAccountTokenPodNodeInfo, on by default since 1.32); the policy refuses a write whose slice
// (the stored one, for a delete) names another node, or a token without a node.

const ADMISSION_API = 'admissionregistration.k8s.io/v1';

export function slicePinningPolicy(sa: SubjectRef): { policy: ValidatingAdmissionPolicy; binding: ValidatingAdmissionPolicyBinding } {
  const name = `${slug(sa)}-slices-own-node`;
  const username = usernameOf(sa);
  return {
    policy: {
      apiVersion: ADMISSION_API,
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['resourceslices'] }],
        },
        matchConditions: [{ name: 'isDriver', expression: `request.userInfo.username == ${JSON.stringify(username)}` }],
        variables: [
          { name: 'userNodeName', expression: "request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')" },
          { name: 'objectNodeName', expression: '(request.operation == "DELETE" ? oldObject : object).spec.?nodeName.orValue("")' },
        ],
        validations: [
          { expression: 'variables.userNodeName != ""', message: 'the driver must use a pod-bound token that names its node' },
          { expression: 'variables.userNodeName == variables.objectNodeName', message: 'a driver may only write the ResourceSlices of its own node' },
        ],
      },
    },
    binding: {
      apiVersion: ADMISSION_API,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: { policyName: name, validationActions: ['Deny'] },
    },
  };
}
