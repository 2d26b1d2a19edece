import { parseCustomRules } from './custom-rules';
import type { BuildInput, PersonaId } from './types';

/** One representative input per persona: the golden files, the CLI tests and the integration test use these. */
export const GOLDEN_INPUTS: Record<PersonaId, BuildInput> = {
  scheduler: { persona: 'scheduler', identity: { kind: 'ServiceAccount', namespace: 'kube-system', name: 'custom-allocator', create: true }, drivers: [] },
  'node-local-driver': {
    persona: 'node-local-driver',
    identity: { kind: 'ServiceAccount', namespace: 'dra-example-driver', name: 'example-kubelet-plugin', create: true },
    drivers: ['gpu.example.com'],
  },
  'multi-node-controller': {
    persona: 'multi-node-controller',
    identity: { kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'compute-domain-status', create: true },
    drivers: ['compute-domain.nvidia.com'],
  },
  'driver-controller': {
    persona: 'driver-controller',
    identity: { kind: 'ServiceAccount', namespace: 'gpu-operator', name: 'gpu-driver-controller', create: true },
    drivers: ['gpu.nvidia.com'],
  },
  tenant: { persona: 'tenant', identity: { kind: 'ServiceAccount', namespace: 'tenant-a', name: 'batch-runner', create: true }, drivers: [] },
  'node-readiness-reporter': {
    persona: 'node-readiness-reporter',
    identity: { kind: 'ServiceAccount', namespace: 'kube-system', name: 'gpu-readiness-reporter', create: true },
    drivers: [],
  },
  auditor: { persona: 'auditor', identity: { kind: 'Group', name: 'dra-auditors' }, drivers: [] },
  custom: {
    persona: 'custom',
    identity: { kind: 'User', name: 'dana' },
    drivers: [],
    namespace: 'tenant-a',
    customRules: parseCustomRules(
      'get,list,watch resourceclaims.resource.k8s.io # follow the team’s claims\nget,list deviceclasses.resource.k8s.io # pick a class',
    ),
  },
};
