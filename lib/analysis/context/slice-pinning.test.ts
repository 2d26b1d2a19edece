import { describe, expect, it } from 'vitest';
import { node, stateOf } from '@/lib/authz/__fixtures__/builders';
import { serviceAccountGroups } from '@/lib/authz/user-info';
import type { ResourceSlice, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { createRandom } from '@/scripts/bench/prng';
import { pinnedByAny, pinningFor, slicePinningPolicies } from './slice-pinning';

// pinnedByAny stops at the first probe no policy refuses, and the verdicts are kept per username and
// the groups it does not carry already. Held, on random policies, to the plain reading: every policy's
// verdict evaluated on every probe, on a list of policies that answered nothing before.

const NODE_NAME = `request.userInfo.extra[?'authentication.kubernetes.io/node-name'][0].orValue('')`;
const TARGET = `(request.operation == "DELETE" ? oldObject : object)`;
const SLICE_NODE = `${TARGET}.spec.?nodeName.orValue("")`;
const DRIVERS = ['a.example.com', 'b.example.com'];
const USERS = [
  'system:serviceaccount:drivers:plugin',
  'system:serviceaccount:drivers:ctl',
  'system:serviceaccount:team-a:app',
  'alice',
  'dra-posture.probe:member-of:slice-publishers',
];
const GROUPS = ['slice-publishers', 'system:serviceaccounts', 'system:authenticated', 'system:serviceaccounts:drivers'];

const CONDITIONS = [
  `request.userInfo.username == "${USERS[0]}"`,
  `request.userInfo.username in ["${USERS[0]}", "${USERS[1]}"]`,
  `"system:serviceaccounts" in request.userInfo.groups`,
  `"slice-publishers" in request.userInfo.groups`,
  `request.userInfo.username != "alice"`,
];
const VALIDATIONS = [
  // Pins: only the own node's slices.
  `${NODE_NAME} == ${SLICE_NODE}`,
  `${NODE_NAME} != "" && ${NODE_NAME} == ${SLICE_NODE}`,
  // Refuse some probes only: all but deletes, or all but one driver's, or all but updates (with the
  // first, every probe is refused by one policy or the other, and neither pins).
  `object == null || ${NODE_NAME} == object.spec.?nodeName.orValue("")`,
  `object == null || ${NODE_NAME} == object.spec.?nodeName.orValue("")`,
  `${TARGET}.spec.driver == "${DRIVERS[0]}" || ${NODE_NAME} == ${SLICE_NODE}`,
  `request.operation == "UPDATE" || ${NODE_NAME} == ${SLICE_NODE}`,
  `request.operation == "UPDATE" || ${NODE_NAME} == ${SLICE_NODE}`,
  // Refuses nothing, and one the evaluator cannot decide.
  `${TARGET}.spec.driver != ""`,
  `dra_posture_no_such_function(object) && ${NODE_NAME} == ${SLICE_NODE}`,
];

function randomState(seed: number) {
  const r = createRandom(seed);
  const policies: ValidatingAdmissionPolicy[] = [];
  const bindings: ValidatingAdmissionPolicyBinding[] = [];
  for (let i = 0; i < 1 + r.int(5); i++) {
    const name = `p${i}`;
    const conditions = r.chance(0.5) ? [{ name: 'who', expression: r.pick(CONDITIONS) }] : [];
    const validations = Array.from({ length: 1 + r.int(2) }, () => ({ expression: r.pick(VALIDATIONS) }));
    policies.push({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: r.chance(0.8) ? 'Fail' : 'Ignore',
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['resource.k8s.io'],
              // Some match only a version the API server does not serve (their verdict is unread).
              apiVersions: [r.chance(0.85) ? 'v1' : 'v1alpha9'],
              operations: r.chance(0.8) ? ['CREATE', 'UPDATE', 'DELETE'] : ['CREATE'],
              resources: ['resourceslices'],
            },
          ],
        },
        matchConditions: conditions,
        validations,
      },
    } as ValidatingAdmissionPolicy);
    if (r.chance(0.85))
      bindings.push({
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: `b${i}` },
        spec: { policyName: name, validationActions: [r.chance(0.9) ? 'Deny' : 'Warn'] },
      } as ValidatingAdmissionPolicyBinding);
  }
  const slices = DRIVERS.filter(() => r.chance(0.7)).map(
    (driver, i) =>
      ({
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceSlice',
        metadata: { name: `s${i}` },
        spec: { driver, nodeName: 'worker-1', pool: { name: 'worker-1', generation: 1, resourceSliceCount: 1 }, devices: [] },
      }) as ResourceSlice,
  );
  const state = stateOf({
    nodes: [node('worker-1'), node('worker-2')],
    validatingAdmissionPolicies: policies,
    validatingAdmissionPolicyBindings: bindings,
    resourceSlices: slices,
  });
  return { r, state };
}

describe('pinnedByAny on random policies: the answer of every verdict evaluated', () => {
  const outcomes = { pinned: 0, unpinned: 0 };

  for (let seed = 1; seed <= 100; seed++) {
    it(`seed ${seed}`, () => {
      const { r, state } = randomState(seed);
      // One list answers every question (as an analysis does, in any order, sharing its verdicts);
      // the plain answer comes from a list that answered nothing before.
      const shared = slicePinningPolicies(state);
      for (let q = 0; q < 12; q++) {
        const username = r.pick(USERS);
        const own = username.startsWith('system:serviceaccount:') ? [...serviceAccountGroups(username.split(':')[2]), 'system:authenticated'] : [];
        const groups = r.chance(0.4) ? own : GROUPS.filter(() => r.chance(0.3));
        const plain = pinningFor(slicePinningPolicies(state), username, groups).pinnedBy.length > 0;
        const fast = r.chance(0.7) ? pinnedByAny(shared, username, groups) : pinningFor(shared, username, groups).pinnedBy.length > 0;
        expect(fast, `${username} [${groups.join(', ')}]`).toBe(plain);
        outcomes[plain ? 'pinned' : 'unpinned']++;
      }
    });
  }

  it('the random questions had both answers', () => {
    expect(outcomes.pinned).toBeGreaterThan(50);
    expect(outcomes.unpinned).toBeGreaterThan(50);
  });

  it('a list slicePinningPolicies did not make is answered through pinningFor', () => {
    const { state } = randomState(3);
    const copied = slicePinningPolicies(state).map((p) => ({ ...p }));
    for (const username of USERS) expect(pinnedByAny(copied, username)).toBe(pinningFor(slicePinningPolicies(state), username).pinnedBy.length > 0);
  });
});
