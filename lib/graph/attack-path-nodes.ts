import type { AttackPath } from '@/lib/analysis/types';
import { nodeId } from './node-id';
import { DRA_RESOURCES, draResourceName } from './dra-resources';

// An attack path as graph node ids: the identity, then the binding and role of the grant that allows
// its impact, then the DRA resource it acts on (when the graph has one: it draws only DRA resources).

export function attackPathNodeIds(path: AttackPath): string[] {
  const s = path.subject;
  const ids = [nodeId(s.kind, s.kind === 'ServiceAccount' ? s.namespace : undefined, s.name)];
  const last = path.steps.at(-1);
  const grant = last?.evidence?.find((e) => e.type === 'grant');
  if (grant && grant.type === 'grant') {
    ids.push(nodeId(grant.binding.kind as 'RoleBinding', grant.binding.kind === 'RoleBinding' ? grant.binding.namespace : undefined, grant.binding.name));
    ids.push(nodeId(grant.role.kind as 'Role', grant.role.kind === 'Role' ? grant.role.namespace : undefined, grant.role.name));
    const r = last?.review?.resourceAttributes;
    const drawn = r && DRA_RESOURCES.find((d) => d.group === r.group && d.resource === r.resource && d.subresource === r.subresource);
    if (drawn) ids.push(nodeId('Resource', undefined, draResourceName(drawn)));
  }
  return ids;
}
