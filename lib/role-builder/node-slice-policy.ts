import type { BundleObject } from './types';

const NODE_NAME_EXTRA = 'authentication.kubernetes.io/node-name';

/**
 * The companion policy of a node-local driver: RBAC cannot tell one node's ResourceSlices from
 * another's, so admission checks that every slice the plugin writes names the node its token is
 * bound to (spec.nodeName == the token's node-name extra).
 */
export function nodeSlicePolicy(stem: string, namespace: string, name: string, labels: Record<string, string>): BundleObject[] {
  const policyName = `${stem}-resourceslices-own-node`;
  const username = `system:serviceaccount:${namespace}:${name}`;
  return [
    {
      reason:
        'RBAC cannot restrict slice writes to one node: this policy refuses any slice write whose spec.nodeName is not the node the plugin’s token is bound to',
      object: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: policyName, labels },
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
    },
    {
      reason: 'turns the policy on for every ResourceSlice write (Deny on violation)',
      object: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: policyName, labels },
        spec: { policyName, validationActions: ['Deny'] },
      },
    },
  ];
}
