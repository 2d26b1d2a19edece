import { describe, expect, it } from 'vitest';
import { clusterPolicies } from '@/lib/admission/cluster-policies';
import type { AdmissionRequest } from '@/lib/admission/types';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from '@/lib/k8s/types';
import { nodeSlicePolicy } from './node-slice-policy';

// The policy the role builder writes for a node-local driver, evaluated as the API server would
// (lib/admission): it must refuse the plugin's writes of another node's slices and admit its own.

const objects = nodeSlicePolicy('gpu-plugin', 'drivers', 'plugin', { 'app.kubernetes.io/managed-by': 'dra-posture' }).map((o) => o.object);
const evaluator = clusterPolicies({
  validatingAdmissionPolicies: objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy') as unknown as ValidatingAdmissionPolicy[],
  validatingAdmissionPolicyBindings: objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding') as unknown as ValidatingAdmissionPolicyBinding[],
  namespaces: [],
  pods: [],
});

const PLUGIN = 'system:serviceaccount:drivers:plugin';
const slice = (nodeName: string) => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name: `${nodeName}-slice` },
  spec: { nodeName, driver: 'gpu.example.com', pool: { name: nodeName, generation: 1, resourceSliceCount: 1 }, devices: [] },
});
const write = (operation: AdmissionRequest['operation'], node: string, username = PLUGIN, tokenNode: string | null = 'n1'): AdmissionRequest => ({
  operation,
  group: 'resource.k8s.io',
  version: 'v1',
  resource: 'resourceslices',
  subresource: '',
  kind: 'ResourceSlice',
  namespace: '',
  name: `${node}-slice`,
  object: operation === 'DELETE' ? null : slice(node),
  oldObject: operation === 'CREATE' ? null : slice(node),
  userInfo: {
    username,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:drivers', 'system:authenticated'],
    ...(tokenNode ? { extra: { 'authentication.kubernetes.io/node-name': [tokenNode] } } : {}),
  },
});

describe('nodeSlicePolicy, evaluated', () => {
  it('refuses the plugin creating, updating or deleting another node’s slice, with its message', () => {
    for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) {
      const out = evaluator.admit(write(op, 'n2'));
      expect(out.outcome, op).toBe('deny');
    }
    const out = evaluator.admit(write('CREATE', 'n2'));
    expect(out.outcome === 'deny' && out.message).toBe(
      `ValidatingAdmissionPolicy 'gpu-plugin-resourceslices-own-node' with binding 'gpu-plugin-resourceslices-own-node' denied request: ${PLUGIN} runs on node n1 and may only write ResourceSlices with spec.nodeName n1`,
    );
  });

  it('admits its own node’s slice on every operation', () => {
    for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) expect(evaluator.admit(write(op, 'n1')).outcome, op).toBe('admit');
  });

  it('refuses a token that names no node, and leaves other identities alone', () => {
    expect(evaluator.admit(write('CREATE', 'n1', PLUGIN, null)).outcome).toBe('deny');
    expect(evaluator.admit(write('CREATE', 'n2', 'system:serviceaccount:drivers:other')).outcome).toBe('admit');
  });
});
