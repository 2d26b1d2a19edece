import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildClusterState } from '@/lib/k8s/build-cluster-state';
import { parseDocuments } from '@/server/sources/parse-documents';
import { createAuthzEngine } from './authz-engine';
import { res } from './__fixtures__/builders';
import { simulateWrite } from './simulate-write';
import { serviceAccountUser } from './user-info';

// The write simulation's last step: the cluster's ValidatingAdmissionPolicies (issue 24). The
// reference driver's chart (dra-example-driver, as rendered in the real-driver fixtures) binds a
// policy that refuses its kubelet plugin's writes of another node's ResourceSlices: RBAC lets the
// plugin create any slice, the API server refuses the foreign one through that policy.

const ROOT = join(import.meta.dirname, '..', '..');
const files = [
  join(ROOT, 'demo', 'manifests', '35-rbac-bootstrap.yaml'),
  join(ROOT, 'lib', 'analysis', '__fixtures__', 'real-drivers', '_base.yaml'),
  join(ROOT, 'lib', 'analysis', '__fixtures__', 'real-drivers', 'dra-example-driver.yaml'),
];
const state = buildClusterState(
  files.flatMap((f) => parseDocuments(readFileSync(f), basename(f))),
  { kind: 'snapshot', name: 'dra-example-driver' },
  { onInvalid: 'fail' },
);
const engine = createAuthzEngine(state);
const NS = 'dra-example-driver';
const SA = 'dra-example-driver-service-account';
const slice = (nodeName: string) => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name: `${nodeName}-gpu.example.com` },
  spec: { nodeName, driver: 'gpu.example.com', pool: { name: nodeName, generation: 1, resourceSliceCount: 1 }, devices: [] },
});
const create = res('create', 'resource.k8s.io', 'resourceslices');

describe('simulateWrite: ValidatingAdmissionPolicies', () => {
  it('refuses the plugin’s slice for another node through the driver’s own policy, naming policy, binding and message', () => {
    const r = simulateWrite(engine, { user: serviceAccountUser(NS, SA, 'worker-01'), attributes: create, object: slice('worker-02') });
    expect(r.allowed).toBe(false);
    expect(r.refusedBy).toBe('admission:validating-policy');
    const step = r.steps.at(-1)!;
    expect(step.policy).toEqual({
      policy: { kind: 'ValidatingAdmissionPolicy', name: 'resourceslices-policy-dra-example-driver' },
      binding: { kind: 'ValidatingAdmissionPolicyBinding', name: 'resourceslices-policy-dra-example-driver' },
    });
    // The chart's messageExpression, evaluated.
    expect(step.reason).toBe(
      "ValidatingAdmissionPolicy 'resourceslices-policy-dra-example-driver' with binding 'resourceslices-policy-dra-example-driver' denied request: this user running on node 'worker-01' may not modify resourceslices on node 'worker-02'",
    );
  });

  it('accepts its own node’s slice, and refuses a token without a node (the policy’s first validation)', () => {
    const own = simulateWrite(engine, { user: serviceAccountUser(NS, SA, 'worker-01'), attributes: create, object: slice('worker-01') });
    expect(own.allowed).toBe(true);
    expect(own.steps.map((s) => `${s.step} ${s.allowed}`)).toEqual(['authorization true', 'admission:validating-policy true']);
    const noNode = simulateWrite(engine, { user: serviceAccountUser(NS, SA), attributes: create, object: slice('worker-01') });
    expect(noNode.refusedBy).toBe('admission:validating-policy');
    expect(noNode.steps.at(-1)!.reason).toContain('no node association found for user');
  });

  it('refuses deleting another node’s slice (the policy reads oldObject on DELETE)', () => {
    const del = res('delete', 'resource.k8s.io', 'resourceslices', { name: 'worker-02-gpu.example.com' });
    const r = simulateWrite(engine, { user: serviceAccountUser(NS, SA, 'worker-01'), attributes: del, oldObject: slice('worker-02') });
    expect(r.refusedBy).toBe('admission:validating-policy');
  });

  it('adds no step when no bound policy applies (another identity, another resource)', () => {
    const admin = { name: 'alice', groups: ['system:masters', 'system:authenticated'] };
    const r = simulateWrite(engine, { user: admin, attributes: create, object: slice('worker-02') });
    expect(r.steps.map((s) => s.step)).toEqual(['authorization']);
    expect(r.allowed).toBe(true);
  });

  it('a policy it cannot evaluate leaves the write undecided, never accepted', () => {
    const withAuthorizer = structuredClone(state);
    const policy = withAuthorizer.validatingAdmissionPolicies.find((p) => p.metadata.name === 'resourceslices-policy-dra-example-driver')!;
    policy.spec!.validations = [{ expression: "authorizer.group('').resource('nodes').check('get').allowed()" }];
    const r = simulateWrite(createAuthzEngine(withAuthorizer), {
      user: serviceAccountUser(NS, SA, 'worker-01'),
      attributes: create,
      object: slice('worker-02'),
    });
    expect(r.allowed).toBe(false);
    expect(r.refusedBy).toBeUndefined();
    expect(r.undecidedBy).toBe('admission:validating-policy');
    expect(r.steps.at(-1)).toMatchObject({ unknown: true, allowed: true });
  });
});
