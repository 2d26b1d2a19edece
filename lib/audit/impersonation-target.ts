import type { AuditRecord, AuditUser } from './types';

/**
 * Who a request impersonated: the logged impersonatedUser, or for a refused node-mode impersonation
 * of nodes or nodes/status (logged without it), the node written, since NodeRestriction lets a node
 * change only its own Node object.
 */
export function impersonationTarget(rec: AuditRecord): AuditUser | undefined {
  if (rec.impersonatedUser) return rec.impersonatedUser;
  const verb = rec.impersonationRefused;
  const ref = rec.objectRef;
  if (verb && /node/.test(verb) && ref && ref.apiGroup === '' && ref.resource === 'nodes' && ref.name)
    return { username: `system:node:${ref.name}`, groups: ['system:nodes', 'system:authenticated'] };
  return undefined;
}
