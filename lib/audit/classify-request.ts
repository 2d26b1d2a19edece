import { nodeNameFromUsername } from '@/lib/authz/user-info';
import type { DraWriteCategory } from './activity-types';
import type { AuditRecord, AuditUser } from './types';

// What one audit record is: a DRA write of which kind, on whose behalf, and as a usage key the
// unused-grant analysis matches rules against.

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** The DRA write category of a request, or undefined when it is not a DRA write. */
export function draWriteCategory(rec: Pick<AuditRecord, 'verb' | 'objectRef' | 'draDenied' | 'statusDrivers' | 'bindingInBody'>): DraWriteCategory | undefined {
  const ref = rec.objectRef;
  if (!ref || !WRITE_VERBS.has(rec.verb)) return undefined;
  if (ref.apiGroup === '' && ref.resource === 'nodes' && ref.subresource === 'status') return 'node-status';
  if (ref.apiGroup !== 'resource.k8s.io') return undefined;
  switch (ref.resource) {
    case 'resourceclaims':
      // A status write is a driver or binding write when the refusal or the body says so.
      if (ref.subresource === 'status') {
        if (rec.draDenied) return rec.draDenied === 'driver' ? 'claim-driver' : 'claim-binding';
        return rec.statusDrivers ? 'claim-driver' : rec.bindingInBody ? 'claim-binding' : 'claim-status';
      }
      return ref.subresource === 'binding' ? 'claim-binding' : ref.subresource === 'driver' ? 'claim-driver' : ref.subresource === '' ? 'claim' : undefined;
    case 'resourceclaimtemplates':
      return ref.subresource === '' ? 'claim-template' : undefined;
    case 'resourceslices':
      return 'slice';
    case 'deviceclasses':
      return 'device-class';
    default:
      return undefined;
  }
}

/** The node a requester acts for: its pod-bound token's node, or its own node identity. */
export function requesterNode(user: AuditUser): string {
  return user.nodeName ?? nodeNameFromUsername(user.username) ?? '';
}

/** One request as a key the unused-grant analysis matches rules against. */
export function usageKey(verb: string, group: string, resource: string, subresource: string, namespace: string, name: string): string {
  return [verb, group, resource, subresource, namespace, name].join('\u001f');
}

export function parseUsageKey(key: string): { verb: string; group: string; resource: string; subresource: string; namespace: string; name: string } {
  const [verb, group, resource, subresource, namespace, name] = key.split('\u001f');
  return { verb, group, resource, subresource, namespace, name };
}
