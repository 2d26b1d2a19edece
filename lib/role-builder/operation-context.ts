import type { ClusterState } from '@/lib/k8s/cluster-state';
import { compareStrings } from '@/lib/k8s/compare-strings';
import { effectiveNamespace } from './check-input';
import type { BuildInput, OperationContext } from './types';

/** Example names for the validation, taken from the cluster where it has them so the answers are about real objects. */
export function operationContext(state: Pick<ClusterState, 'nodes' | 'namespaces' | 'resourceSlices'>, input: BuildInput): OperationContext {
  const namespace = effectiveNamespace(input) ?? 'default';
  const nodes = state.nodes.map((n) => n.metadata.name).sort(compareStrings);
  const namespaces = state.namespaces
    .map((n) => n.metadata.name)
    .filter((n) => n !== namespace)
    .sort(compareStrings);
  const otherDrivers = [...new Set(state.resourceSlices.map((s) => s.spec?.driver ?? ''))].filter((d) => d && !input.drivers.includes(d)).sort(compareStrings);
  const node = nodes[0] ?? 'node-a';
  return {
    namespace,
    drivers: [...input.drivers],
    otherDriver: otherDrivers[0] ?? (input.drivers.includes('other.example.com') ? 'other-2.example.com' : 'other.example.com'),
    node,
    otherNode: nodes.find((n) => n !== node) ?? (node === 'node-b' ? 'node-c' : 'node-b'),
    otherNamespace: namespaces.find((n) => n !== 'kube-system') ?? (namespace === 'other-namespace' ? 'other-namespace-2' : 'other-namespace'),
  };
}
