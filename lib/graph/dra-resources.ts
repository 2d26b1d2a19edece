/** The DRA-relevant resources and subresources shown in the graph's last column, in display order. */
export interface DraResource {
  group: string;
  resource: string;
  subresource: string;
  /** Writes to it are sensitive (forge allocations, publish devices, change classes, report node state). */
  sensitive: boolean;
}

export const DRA_RESOURCES: readonly DraResource[] = [
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: '', sensitive: false },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', sensitive: true },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'binding', sensitive: true },
  { group: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'driver', sensitive: true },
  { group: 'resource.k8s.io', resource: 'resourceclaimtemplates', subresource: '', sensitive: false },
  { group: 'resource.k8s.io', resource: 'resourceslices', subresource: '', sensitive: true },
  { group: 'resource.k8s.io', resource: 'deviceclasses', subresource: '', sensitive: true },
  { group: 'resource.k8s.io', resource: 'devicetaintrules', subresource: '', sensitive: true },
  { group: '', resource: 'nodes', subresource: 'status', sensitive: true },
  { group: '', resource: 'nodes', subresource: '', sensitive: true },
];

export function draResourceName(r: Pick<DraResource, 'resource' | 'subresource'>): string {
  return r.subresource ? `${r.resource}/${r.subresource}` : r.resource;
}

const WRITE_VERBS = new Set(['*', 'create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * A verb that changes the resource. For resourceclaims/driver, `associated-node:*` verbs are limited to
 * claims on the caller's own node, so only `arbitrary-node:*` (and `*`) count as risky writes.
 */
export function isRiskyWrite(resource: Pick<DraResource, 'resource' | 'subresource' | 'sensitive'>, verbs: readonly string[]): boolean {
  if (!resource.sensitive) return verbs.includes('*');
  for (const v of verbs) {
    if (WRITE_VERBS.has(v)) return true;
    if (resource.subresource === 'driver' && v.startsWith('arbitrary-node:')) return true;
  }
  return false;
}
