import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';

// The ValidatingAdmissionPolicy and binding that pin a node-local driver's ResourceSlice writes to the
// node its token is bound to: RBAC cannot tell one node's slices from another's, admission can. A
// service account token issued for a pod carries authentication.kubernetes.io/node-name
// (ServiceAccountTokenPodNodeInfo, on by default since 1.32); the policy refuses a write whose slice
// (the stored one, for a delete) names another node, or a token without a node. One builder for the
// role builder's companion policy and the DRA012 fix, so both are the policy the evaluator checked.

const ADMISSION_API = 'admissionregistration.k8s.io/v1';
const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';

export interface SlicePinningTarget {
  /** The policy's and the binding's name. */
  name: string;
  /** The driver's user name (system:serviceaccount:<namespace>:<name>). */
  username: string;
  labels?: Record<string, string>;
}

export function slicePinningPolicy({ name, username, labels }: SlicePinningTarget): {
  policy: ValidatingAdmissionPolicy;
  binding: ValidatingAdmissionPolicyBinding;
} {
  const metadata = () => (labels ? { name, labels: { ...labels } } : { name });
  return {
    policy: {
      apiVersion: ADMISSION_API,
      kind: 'ValidatingAdmissionPolicy',
      metadata: metadata(),
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['resourceslices'] }],
        },
        matchConditions: [{ name: 'is-the-plugin', expression: `request.userInfo.username == ${JSON.stringify(username)}` }],
        variables: [
          { name: 'userNodeName', expression: `request.userInfo.extra[?'${NODE_NAME_EXTRA}'][0].orValue('')` },
          { name: 'objectNodeName', expression: `(request.operation == 'DELETE' ? oldObject : object).spec.?nodeName.orValue('')` },
        ],
        validations: [
          {
            expression: "variables.userNodeName != ''",
            reason: 'Forbidden',
            message: `${username} may write ResourceSlices only with a token bound to a pod on a node (ServiceAccountTokenPodNodeInfo)`,
          },
          {
            expression: 'variables.userNodeName == variables.objectNodeName',
            reason: 'Forbidden',
            messageExpression: `'${username} runs on node ' + variables.userNodeName + ' and may only write ResourceSlices with spec.nodeName ' + variables.userNodeName`,
          },
        ],
      },
    },
    binding: {
      apiVersion: ADMISSION_API,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: metadata(),
      spec: { policyName: name, validationActions: ['Deny'] },
    },
  };
}
