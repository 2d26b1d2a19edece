import { describe, expect, it } from 'vitest';
import { clusterRole, crb, Group, node, stateOf } from '@/lib/authz/__fixtures__/builders';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { contextOf } from '@/lib/analysis/__fixtures__/builders';
import { slicePinningPolicies } from '@/lib/analysis/context/slice-pinning';
import { listNodeWriters } from '@/lib/analysis/node-writers/node-writers';
import { ReachIndex } from './reach';

// Whether a Group's ResourceSlice writes reach other nodes' slices is decided by evaluating the bound
// policies (lib/admission) for a member of the group, not by their form. A ValidatingAdmissionPolicy
// applies to a request only when every matchCondition is true, and a Deny binding refuses it when a
// validation is false (ValidatingAdmissionPolicy docs); a member of a group carries the group in
// request.userInfo.groups. An outcome the evaluator cannot decide pins nothing.

const GROUP = 'slice-publishers';
const NODE_NAME = `request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')`;
const SLICE_NODE = `(request.operation == "DELETE" ? oldObject : object).spec.?nodeName.orValue("")`;

function policy(matchConditions: { name: string; expression: string }[], validations: { expression: string }[]): ValidatingAdmissionPolicy {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: 'slices' },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [{ apiGroups: ['resource.k8s.io'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['resourceslices'] }],
      },
      matchConditions,
      validations,
    },
  } as ValidatingAdmissionPolicy;
}

const binding: ValidatingAdmissionPolicyBinding = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'slices' },
  spec: { policyName: 'slices', validationActions: ['Deny'] },
} as ValidatingAdmissionPolicyBinding;

/** Whether Group slice-publishers (create, update, delete ResourceSlices by RBAC) writes other nodes' slices under this policy. */
function groupReachesOtherNodes(p?: ValidatingAdmissionPolicy): boolean {
  const ctx = contextOf({
    nodes: [node('worker-1'), node('worker-2')],
    clusterRoles: [clusterRole('slice-publisher', [{ apiGroups: ['resource.k8s.io'], resources: ['resourceslices'], verbs: ['create', 'update', 'delete'] }])],
    clusterRoleBindings: [crb('slice-publishers', { kind: 'ClusterRole', name: 'slice-publisher' }, [Group(GROUP)])],
    validatingAdmissionPolicies: p ? [p] : [],
    validatingAdmissionPolicyBindings: p ? [binding] : [],
  });
  return new ReachIndex(ctx, listNodeWriters(ctx)).writesOtherNodesSlices([{ kind: 'Group', name: GROUP }]);
}

/** How the evaluator decides the policy for a member of the group: pinned, unknown (why) or let through. */
function memberVerdict(p: ValidatingAdmissionPolicy) {
  const [entry] = slicePinningPolicies(
    stateOf({ nodes: [node('worker-1'), node('worker-2')], validatingAdmissionPolicies: [p], validatingAdmissionPolicyBindings: [binding] }),
  );
  return entry.verdict('a-member', [GROUP]);
}

const MEMBERS = { name: 'members', expression: `"${GROUP}" in request.userInfo.groups` };

describe('ReachIndex.writesOtherNodesSlices for a Group, by evaluating the policies', () => {
  it('with no policy, the group writes every node’s slices', () => {
    expect(groupReachesOtherNodes()).toBe(true);
  });

  it('a policy whose condition names no username but whose validation lets another node’s slice through pins nothing', () => {
    // It applies to the group's members, and only checks that a driver is named.
    const p = policy([MEMBERS], [{ expression: '(request.operation == "DELETE" ? oldObject : object).spec.driver != ""' }]);
    expect(groupReachesOtherNodes(p)).toBe(true);
  });

  it('a policy that refuses a member every slice but its own node’s pins the group (a member’s token names no node: every write is refused)', () => {
    const p = policy([MEMBERS], [{ expression: `${NODE_NAME} != ""` }, { expression: `${NODE_NAME} == ${SLICE_NODE}` }]);
    expect(memberVerdict(p)).toEqual({ pinned: true });
    expect(groupReachesOtherNodes(p)).toBe(false);
  });

  it('the same validation, applied only to service accounts, leaves a (human) member of the group unpinned', () => {
    const p = policy([{ name: 'sas', expression: `"system:serviceaccounts" in request.userInfo.groups` }], [{ expression: `${NODE_NAME} == ${SLICE_NODE}` }]);
    expect(groupReachesOtherNodes(p)).toBe(true);
  });

  it('an expression the evaluator cannot decide does not count as pinning', () => {
    const p = policy([MEMBERS], [{ expression: `dra_posture_no_such_function(object) && ${NODE_NAME} == ${SLICE_NODE}` }]);
    expect(memberVerdict(p)).toMatchObject({ pinned: false, unknown: expect.any(String) });
    expect(groupReachesOtherNodes(p)).toBe(true);
  });
});
