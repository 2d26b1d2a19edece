import type { AuditLevel } from './recommended-policy';

// What the audit analysis (AUDIT001–005, lib/audit/alert-rules.ts) reads from a log, as the requests
// the API server really sees: the verb, group, resource and subresource an HTTP request carries. The
// granular resourceclaims/binding and /driver checks run inside a resourceclaims/status write, so no
// request ever carries them as its subresource and nothing here asks for them.

/** Who makes the request, as the policy's users/userGroups filters see it (the requester, not whom it impersonates). */
export type ProbeIdentity = 'user' | 'service account' | 'scheduler' | 'node';

export interface AuditNeed {
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  namespaced: boolean;
  /** The least level that gives the analysis what it reads. */
  level: AuditLevel;
  identities: readonly ProbeIdentity[];
  /** Which checks read the request and what they read. */
  why: string;
}

const DRA = 'resource.k8s.io';
const WRITERS: readonly ProbeIdentity[] = ['user', 'service account'];
const BODY_OF_CLAIMS = 'AUDIT001 (adminAccess) and AUDIT002 (opaque parameter size) read the request body';
const BODY_OF_UPDATES = 'AUDIT002 (opaque parameter size) reads the request body';

const need = (verb: string, resource: string, level: AuditLevel, why: string, more: Partial<AuditNeed> = {}): AuditNeed => ({
  verb,
  group: DRA,
  resource,
  subresource: '',
  namespaced: true,
  level,
  identities: WRITERS,
  why,
  ...more,
});

export const AUDIT_NEEDS: readonly AuditNeed[] = [
  ...['resourceclaims', 'resourceclaimtemplates'].flatMap((resource) => [
    need('create', resource, 'Request', BODY_OF_CLAIMS),
    need('update', resource, 'Request', BODY_OF_UPDATES),
    need('patch', resource, 'Request', BODY_OF_UPDATES),
    need('delete', resource, 'Metadata', 'the activity report counts claim deletes'),
  ]),
  // A refused driver or allocation write is a 4xx on resourceclaims/status whose message names the
  // granular check; the response status is logged from Metadata up.
  ...['update', 'patch'].map((verb) =>
    need(verb, 'resourceclaims', 'Metadata', 'AUDIT004 reads the refusal of driver and allocation writes', {
      subresource: 'status',
      identities: ['service account', 'scheduler', 'user'],
    }),
  ),
  ...['create', 'update', 'patch'].map((verb) =>
    need(verb, 'deviceclasses', 'Request', 'AUDIT003 reads every DeviceClass change, AUDIT002 its opaque parameters in the request body', {
      namespaced: false,
    }),
  ),
  need('delete', 'deviceclasses', 'Metadata', 'AUDIT003 reads every DeviceClass change', { namespaced: false }),
  ...['create', 'update', 'patch', 'delete'].map((verb) =>
    need(verb, 'resourceslices', 'Metadata', 'AUDIT003 reads slice writes by identities that are not drivers', { namespaced: false }),
  ),
  // The policy sees the requester; the impersonated node is only in the event.
  ...['update', 'patch'].map((verb) => ({
    verb,
    group: '',
    resource: 'nodes',
    subresource: 'status',
    namespaced: false,
    level: 'Metadata' as const,
    identities: ['service account', 'user', 'node'] as const,
    why: 'AUDIT005 reads nodes/status writes made while impersonating a node',
  })),
];
